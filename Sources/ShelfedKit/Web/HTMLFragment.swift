import Mustache

/// A piece of HTML built in Swift that can only hold markup written in the source and escaped values.
///
/// The literal parts of a fragment are code; every interpolated `String` (or number, or anything else) is
/// escaped by `HTMLEscaper`; only another `HTMLFragment` is inserted as it is. So forgetting to escape a
/// title does not compile into a hole: `"<h3>\(title)</h3>" as HTMLFragment` escapes `title` by itself.
struct HTMLFragment: Sendable, Equatable, ExpressibleByStringInterpolation, CustomStringConvertible {
    private(set) var html: String

    init() { html = "" }

    init(stringLiteral literal: StaticString) {
        html = literal.description
    }

    init(stringInterpolation: Interpolation) {
        html = stringInterpolation.html
    }

    var description: String { html }
    var isEmpty: Bool { html.isEmpty }

    static func += (lhs: inout HTMLFragment, rhs: HTMLFragment) {
        lhs.html += rhs.html
    }

    mutating func reserveCapacity(_ bytes: Int) {
        html.reserveCapacity(bytes)
    }

    /// Joins fragments, e.g. one per list item.
    static func joined(_ fragments: some Sequence<HTMLFragment>) -> HTMLFragment {
        var joined = HTMLFragment()
        for fragment in fragments { joined += fragment }
        return joined
    }

    struct Interpolation: StringInterpolationProtocol {
        fileprivate var html = ""

        init(literalCapacity: Int, interpolationCount: Int) {
            html.reserveCapacity(literalCapacity + interpolationCount * 24)
        }

        mutating func appendLiteral(_ literal: StaticString) {
            html += literal.description
        }

        mutating func appendInterpolation(_ fragment: HTMLFragment) {
            html += fragment.html
        }

        mutating func appendInterpolation(_ text: String) {
            html += HTMLEscaper.escape(text)
        }

        mutating func appendInterpolation(_ number: some BinaryInteger) {
            html += String(number)
        }

        mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            html += HTMLEscaper.escape(value.description)
        }
    }
}

/// Mustache inserts a fragment as it is with `{{{name}}}`; `{{name}}` would escape it a second time.
extension HTMLFragment: MustacheCustomRenderable {
    var renderText: String { html }
    var isNull: Bool { html.isEmpty }
}
