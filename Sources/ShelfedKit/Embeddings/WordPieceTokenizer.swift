import Foundation

/// BERT's WordPiece tokenizer as all-MiniLM-L6-v2's `tokenizer.json` specifies it (DESIGN §14): the BertNormalizer
/// (drop control characters, whitespace to spaces, spaces around CJK ideographs, accents stripped, lower case), the
/// BertPreTokenizer (split at whitespace and around every punctuation mark), then greedy longest-match word pieces,
/// framed by [CLS] … [SEP].
///
/// Written here rather than taken from a library because no Swift package in the stack reads `tokenizer.json`; the
/// tests hold it to the reference tokenizer's ids for punctuation, accents, CJK, emoji and very long words.
/// Special-token strings typed in a text ("[MASK]") are read as plain words, never as control tokens.
public struct WordPieceTokenizer: Sendable {
    let vocabulary: [String: Int32]
    let unknownID: Int32
    let startID: Int32
    let endID: Int32
    let lowercases: Bool
    let stripsAccents: Bool
    let maxCharactersPerWord: Int
    static let charactersPerToken = 64

    public struct Unusable: Error, CustomStringConvertible {
        public let description: String
    }

    /// Reads the vocabulary and the normaliser's settings from a Hugging Face `tokenizer.json`.
    public init(contentsOf file: URL) throws {
        let data = try Data(contentsOf: file)
        let spec: Specification
        do {
            spec = try JSONDecoder().decode(Specification.self, from: data)
        } catch {
            throw Unusable(description: "\(file.lastPathComponent) is not a readable WordPiece tokenizer: \(error)")
        }
        guard spec.model.type == "WordPiece", spec.model.continuingSubwordPrefix == "##" else {
            throw Unusable(description: "\(file.lastPathComponent) describes a \(spec.model.type) tokenizer")
        }
        let vocabulary = spec.model.vocab
        guard let unknown = vocabulary[spec.model.unkToken], let start = vocabulary["[CLS]"],
            let end = vocabulary["[SEP]"]
        else { throw Unusable(description: "\(file.lastPathComponent) lacks [UNK], [CLS] or [SEP]") }
        self.vocabulary = vocabulary
        unknownID = unknown
        startID = start
        endID = end
        lowercases = spec.normalizer?.lowercase ?? true
        // The BertNormalizer strips accents whenever it lower-cases, unless told otherwise.
        stripsAccents = spec.normalizer?.stripAccents ?? lowercases
        maxCharactersPerWord = spec.model.maxInputCharsPerWord ?? 100
    }

    /// The ids of `text` framed by [CLS] and [SEP], at most `maxTokens` of them (the words past it are cut).
    ///
    /// Only the first `charactersPerToken` × `maxTokens` characters are read: far more than any real text needs to
    /// fill the limit, and a megabyte of OCR text or pasted junk costs no more than a page.
    public func ids(for text: String, maxTokens: Int) -> [Int32] {
        var ids: [Int32] = [startID]
        let room = max(maxTokens, 2) - 1
        let read = String(
            String.UnicodeScalarView(text.unicodeScalars.prefix(Self.charactersPerToken * max(maxTokens, 2))))
        words: for word in words(in: normalized(read)) {
            for id in pieces(of: word) {
                guard ids.count < room else { break words }
                ids.append(id)
            }
        }
        ids.append(endID)
        return ids
    }

    /// Whether `text` holds a word of three letters or more that the model knows whole: a question in words. Keys
    /// mashed ("xqzvbn wkrtpl"), a bare ISBN or a number have none, and the books nearest to them in meaning are
    /// noise, so no "Close in meaning" is offered for them (issue 36, part 2). A cosine floor could not tell noise
    /// from a paraphrase with this model.
    public func knowsAWholeWord(in text: String) -> Bool {
        words(in: normalized(text)).contains { word in
            word.count >= 3 && word.allSatisfy { $0.properties.isAlphabetic }
                && vocabulary[String(String.UnicodeScalarView(word))] != nil
        }
    }

    func normalized(_ text: String) -> [Unicode.Scalar] {
        var cleaned = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.value == 0 || scalar.value == 0xFFFD || Self.isControl(scalar) { continue }
            if Self.isWhitespace(scalar) {
                cleaned.append(" ")
            } else if Self.isCJKIdeograph(scalar) {
                cleaned.append(" ")
                cleaned.append(scalar)
                cleaned.append(" ")
            } else {
                cleaned.append(scalar)
            }
        }
        var scalars = Array(cleaned)
        if stripsAccents {
            scalars = String(cleaned).decomposedStringWithCanonicalMapping.unicodeScalars.filter {
                $0.properties.generalCategory != .nonspacingMark
            }
        }
        if lowercases {
            // Scalar by scalar, as the reference does: no context rules such as a word-final sigma.
            scalars = scalars.flatMap { $0.properties.lowercaseMapping.unicodeScalars }
        }
        return scalars
    }

    /// Whitespace-separated words, with every punctuation mark a word of its own.
    func words(in scalars: [Unicode.Scalar]) -> [ArraySlice<Unicode.Scalar>] {
        var words: [ArraySlice<Unicode.Scalar>] = []
        var start: Int?
        for (index, scalar) in scalars.enumerated() {
            if Self.isWhitespace(scalar) || Self.isPunctuation(scalar) {
                if let begun = start { words.append(scalars[begun..<index]) }
                start = nil
                if Self.isPunctuation(scalar) { words.append(scalars[index...index]) }
            } else if start == nil {
                start = index
            }
        }
        if let begun = start { words.append(scalars[begun...]) }
        return words
    }

    /// Greedy longest-match pieces of one word; a word with any part outside the vocabulary is [UNK] as a whole.
    func pieces(of word: ArraySlice<Unicode.Scalar>) -> [Int32] {
        guard word.count <= maxCharactersPerWord else { return [unknownID] }
        var ids: [Int32] = []
        var start = word.startIndex
        while start < word.endIndex {
            var end = word.endIndex
            var found: Int32?
            while start < end {
                var piece = start == word.startIndex ? "" : "##"
                piece.unicodeScalars.append(contentsOf: word[start..<end])
                if let id = vocabulary[piece] {
                    found = id
                    break
                }
                end -= 1
            }
            guard let id = found else { return [unknownID] }
            ids.append(id)
            start = end
        }
        return ids
    }

    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar.properties.isWhitespace
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "\t" || scalar == "\n" || scalar == "\r" { return false }
        switch scalar.properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned: return true
        default: return false
        }
    }

    static func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII, let byte = UInt8(exactly: scalar.value),
            (33...47).contains(byte)
                || (58...64).contains(byte) || (91...96).contains(byte) || (123...126).contains(byte)
        {
            return true
        }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
            .finalPunctuation, .otherPunctuation:
            return true
        default: return false
        }
    }

    /// The CJK Unified Ideographs blocks BERT spaces out (Hangul, kana and the rest are ordinary letters).
    static func isCJKIdeograph(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0x20000...0x2A6DF, 0x2A700...0x2B73F, 0x2B740...0x2B81F,
            0x2B820...0x2CEAF, 0xF900...0xFAFF, 0x2F800...0x2FA1F:
            return true
        default: return false
        }
    }

    private struct Specification: Decodable {
        struct Normalizer: Decodable {
            let lowercase: Bool?
            let stripAccents: Bool?

            enum CodingKeys: String, CodingKey {
                case lowercase
                case stripAccents = "strip_accents"
            }
        }

        struct Model: Decodable {
            let type: String
            let unkToken: String
            let continuingSubwordPrefix: String
            let maxInputCharsPerWord: Int?
            let vocab: [String: Int32]

            enum CodingKeys: String, CodingKey {
                case type, vocab
                case unkToken = "unk_token"
                case continuingSubwordPrefix = "continuing_subword_prefix"
                case maxInputCharsPerWord = "max_input_chars_per_word"
            }
        }

        let normalizer: Normalizer?
        let model: Model
    }
}
