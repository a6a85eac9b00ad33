import Mustache

/// A piece of HTML built in Swift that can only hold markup written in the source and escaped values.
///
/// The literal parts of a fragment are code; every interpolated `String` (or number, or anything else) is
/// escaped by `HTMLEscaper`; only another `HTMLFragment` is inserted as it is. So forgetting to escape a
/// title does not compile into a hole: `"<h3>\(title)</h3>" as HTMLFragment` escapes `title` by itself.
///
/// It collects UTF-8 bytes: literals are copied straight from the binary and values escaped straight into
/// the buffer, with no intermediate strings (shelf pages build sixty cards per request).
struct HTMLFragment: Sendable, Equatable, ExpressibleByStringInterpolation, CustomStringConvertible {
    private(set) var bytes: [UInt8]

    init() { bytes = [] }

    init(stringLiteral literal: StaticString) {
        bytes = literal.withUTF8Buffer { Array($0) }
    }

    init(stringInterpolation: Interpolation) {
        bytes = stringInterpolation.bytes
    }

    /// Markup made by Shelfed itself (a marker, say) taken as it is; never pass text from outside.
    init(verbatim markup: String) {
        bytes = Array(markup.utf8)
    }

    /// `text` escaped once, for a value placed in several spots of the same markup.
    init(escaping text: String) {
        bytes = []
        HTMLEscaper.escape(text, into: &bytes)
    }

    var html: String { String(decoding: bytes, as: UTF8.self) }
    var description: String { html }
    var isEmpty: Bool { bytes.isEmpty }

    static func += (lhs: inout HTMLFragment, rhs: HTMLFragment) {
        lhs.bytes.append(contentsOf: rhs.bytes)
    }

    mutating func reserveCapacity(_ count: Int) {
        bytes.reserveCapacity(count)
    }

    struct Interpolation: StringInterpolationProtocol {
        fileprivate var bytes: [UInt8] = []

        init(literalCapacity: Int, interpolationCount: Int) {
            bytes.reserveCapacity(literalCapacity + interpolationCount * 24)
        }

        mutating func appendLiteral(_ literal: StaticString) {
            literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
        }

        mutating func appendInterpolation(_ fragment: HTMLFragment) {
            bytes.append(contentsOf: fragment.bytes)
        }

        mutating func appendInterpolation(_ text: String) {
            HTMLEscaper.escape(text, into: &bytes)
        }

        mutating func appendInterpolation(_ number: some BinaryInteger) {
            bytes.append(contentsOf: String(number).utf8)
        }

        mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            HTMLEscaper.escape(value.description, into: &bytes)
        }
    }
}

/// Mustache inserts a fragment as it is with `{{{name}}}`; `{{name}}` would escape it a second time.
extension HTMLFragment: MustacheCustomRenderable {
    var renderText: String { html }
    var isNull: Bool { bytes.isEmpty }
}
