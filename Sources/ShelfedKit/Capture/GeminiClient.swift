import AsyncHTTPClient
import Foundation
import NIOCore

/// Where and how Shelfed reaches Gemini.
public struct GeminiSettings: Sendable {
    public var apiKey: String?
    public var model = "gemini-2.5-flash"
    public var baseURL = "https://generativelanguage.googleapis.com/v1beta"
    public var timeout: Duration = .seconds(90)

    public init(apiKey: String? = nil, model: String = "gemini-2.5-flash", baseURL: String? = nil) {
        self.apiKey = apiKey
        self.model = model
        if let baseURL { self.baseURL = baseURL }
    }
}

/// Gemini's `generateContent`, asked to list the books in a photo of a shelf as JSON. Everything it answers is
/// untrusted text (DESIGN §13): parsed against the schema we asked for, cleaned, capped, ISBNs checked.
struct GeminiClient: Sendable {

    /// One book the model saw, in shelf order.
    struct Candidate: Sendable, Equatable, Codable {
        var title: String
        var author: String?
        /// Only a checksum-valid ISBN the model printed; never trusted to be the right book.
        var isbn: String?
        /// 0–1, as the model judged it.
        var confidence: Double
    }

    /// Why no list came back, each with what the user reads and can do.
    enum Failure: Error, Equatable {
        case notConfigured
        case invalidKey
        case apiNotEnabled
        case unknownModel(String)
        case imageRejected
        case quotaExceeded
        case blocked
        case noAnswer
        case unreadableAnswer
        case unavailable

        var message: String {
            switch self {
            case .notConfigured:
                "Shelf scanning needs a Gemini API key: set SHELFED_GEMINI_API_KEY and restart Shelfed."
            case .invalidKey:
                "Google did not accept the Gemini API key. Check SHELFED_GEMINI_API_KEY against the key shown in "
                    + "Google AI Studio (aistudio.google.com → Get API key), then restart Shelfed."
            case .apiNotEnabled:
                "The Generative Language API is not enabled for this key's Google Cloud project. Enable it in the "
                    + "Google Cloud console (or make a new key in Google AI Studio, which enables it), then try again."
            case .unknownModel(let model):
                "Google does not offer the model “\(model)”. Set SHELFED_GEMINI_MODEL to a current one such as "
                    + "gemini-2.5-flash, or leave it unset, and restart Shelfed."
            case .imageRejected:
                "Gemini could not use this photo. Take it again as an ordinary JPEG, straight on and in focus."
            case .quotaExceeded:
                "This Gemini key's quota is used up for now. Wait a minute and try again; if it persists, the daily "
                    + "limit is reached and resets tomorrow. Until then, scan the barcodes one by one."
            case .blocked:
                "Gemini declined to describe this photo (its safety filter answered instead). Take a photo that "
                    + "shows only the books' spines, and try again."
            case .noAnswer:
                "Gemini found nothing to say about this photo. Make sure the spines are in view and readable, "
                    + "and try again."
            case .unreadableAnswer:
                "Gemini's answer could not be read as a list of books. Try again; a second answer is often fine."
            case .unavailable:
                "Gemini is not answering right now. Try again in a minute, or scan the barcodes one by one."
            }
        }
    }

    static let maxBooks = 60
    static let prompt = """
        This photo shows books on a shelf or in a pile. List every book whose spine or cover you can see, in order: \
        left to right, and top shelf to bottom shelf. For each give the title and the author as printed; an ISBN \
        only if one is printed and legible; and your confidence from 0 to 1 that the title and author are right. \
        Leave out anything that is not a book. Answer with JSON only.
        """
    let settings: GeminiSettings
    let http: @Sendable () -> HTTPClient

    /// The books in the JPEG `image` (already shrunk, without metadata).
    func books(inJPEG image: Data) async throws -> [Candidate] {
        guard let key = settings.apiKey else { throw Failure.notConfigured }
        var request = HTTPClientRequest(url: "\(settings.baseURL)/models/\(settings.model):generateContent")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "x-goog-api-key", value: key)
        request.headers.add(name: "User-Agent", value: UpstreamClient.userAgent)
        request.body = .bytes(ByteBuffer(data: try Self.requestBody(image)))
        let status: Int
        let body: Data
        do {
            let response = try await http().execute(
                request, timeout: .nanoseconds(Int64(settings.timeout.seconds * 1e9)))
            status = Int(response.status.code)
            body = Data(buffer: try await response.body.collect(upTo: 4 * 1_048_576))
        } catch {
            throw Failure.unavailable
        }
        guard status == 200 else { throw Self.failure(status: status, body: body, model: settings.model) }
        return try Self.candidates(fromResponse: body)
    }

    static func requestBody(_ image: Data) throws -> Data {
        let string: [String: String] = ["type": "STRING"]
        let schema: [String: Any] = [
            "type": "OBJECT",
            "properties": [
                "books": [
                    "type": "ARRAY",
                    "items": [
                        "type": "OBJECT",
                        "properties": [
                            "title": string, "author": string, "isbn": string,
                            "confidence": ["type": "NUMBER"] as [String: String],
                        ],
                        "required": ["title", "confidence"],
                        "propertyOrdering": ["title", "author", "isbn", "confidence"],
                    ] as [String: Any],
                ] as [String: Any]
            ],
            "required": ["books"],
        ]
        let body: [String: Any] = [
            "contents": [
                [
                    "role": "user",
                    "parts": [
                        ["text": prompt],
                        ["inline_data": ["mime_type": "image/jpeg", "data": image.base64EncodedString()]],
                    ],
                ] as [String: Any]
            ],
            "generationConfig": [
                "responseMimeType": "application/json", "responseSchema": schema, "temperature": 0,
            ] as [String: Any],
        ]
        return try JSONSerialization.data(withJSONObject: body)
    }

    /// Sorts an error answer by its status and `error.status` / `details[].reason`.
    static func failure(status: Int, body: Data, model: String) -> Failure {
        struct Envelope: Decodable {
            struct Detail: Decodable { let reason: String? }
            struct Body: Decodable {
                let status: String?
                let details: [Detail]?
            }
            let error: Body?
        }
        let error = (try? JSONDecoder().decode(Envelope.self, from: body))?.error
        let reasons = Set((error?.details ?? []).compactMap(\.reason))
        switch status {
        case 400 where reasons.contains("API_KEY_INVALID"): return .invalidKey
        case 401: return .invalidKey
        case 403 where reasons.contains("SERVICE_DISABLED") || error?.status == "PERMISSION_DENIED":
            return .apiNotEnabled
        case 403: return .invalidKey
        case 404: return .unknownModel(model)
        case 400, 413, 422: return .imageRejected
        case 429: return .quotaExceeded
        default: return .unavailable
        }
    }

    /// The candidates in a 200 answer: the first candidate's non-thought text parsed as `{books: [...]}`.
    static func candidates(fromResponse body: Data) throws -> [Candidate] {
        struct Response: Decodable {
            struct Part: Decodable {
                let text: String?
                let thought: Bool?
            }
            struct Content: Decodable { let parts: [Part]? }
            struct Item: Decodable {
                let content: Content?
                let finishReason: String?
            }
            struct Feedback: Decodable { let blockReason: String? }
            let candidates: [Item]?
            let promptFeedback: Feedback?
        }
        guard let response = try? JSONDecoder().decode(Response.self, from: body) else {
            throw Failure.unreadableAnswer
        }
        guard let first = response.candidates?.first else {
            throw response.promptFeedback == nil ? Failure.noAnswer : Failure.blocked
        }
        switch first.finishReason {
        case "SAFETY", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY", "RECITATION": throw Failure.blocked
        default: break
        }
        let text = (first.content?.parts ?? []).filter { $0.thought != true }.compactMap(\.text).joined()
        guard !text.isEmpty else { throw Failure.noAnswer }
        return try parse(text)
    }

    /// The model's JSON, held to the schema: odd fields ignored, text cleaned and capped, ISBNs checked.
    static func parse(_ text: String) throws -> [Candidate] {
        struct Listed: Decodable {
            struct Book: Decodable {
                let title: String?
                let author: String?
                let isbn: String?
                let confidence: Double?
            }
            let books: [Book]
        }
        // Some models wrap JSON in a Markdown fence even when asked not to.
        var json = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if json.hasPrefix("```") {
            json = json.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
                .filter { !$0.hasPrefix("```") }.joined(separator: "\n")
        }
        guard let listed = try? JSONDecoder().decode(Listed.self, from: Data(json.utf8)) else {
            throw Failure.unreadableAnswer
        }
        return listed.books.prefix(maxBooks).compactMap { book in
            let title = oneLine(book.title ?? "", limit: 300)
            guard !title.isEmpty else { return nil }
            let author = oneLine(book.author ?? "", limit: 200)
            let isbn = book.isbn.flatMap { raw in ISBN(String(raw.unicodeScalars.filter(\.isASCII).prefix(20))) }
            let confidence = book.confidence.map { $0.isFinite ? min(1, max(0, $0)) : 0 } ?? 0
            return Candidate(
                title: title, author: author.isEmpty ? nil : author, isbn: isbn?.isbn13, confidence: confidence)
        }
    }

    private static func oneLine(_ text: String, limit: Int) -> String {
        let cleaned = PhotoText.cleaned(text).replacingOccurrences(of: "\n", with: " ").replacingOccurrences(
            of: "\t", with: " ")
        return String(cleaned.prefix(limit)).trimmingCharacters(in: .whitespaces)
    }
}
