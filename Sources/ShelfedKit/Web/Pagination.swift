/// Page links for a long list, keeping the list's other query values (sort, order) on every link.
struct Pagination: Sendable {
    struct Link: Sendable {
        let number: Int
        let path: String
        let current: Bool
    }

    let links: [Link]
    let previousPath: String?
    let nextPath: String?
    let summary: String
    let hasPages: Bool

    /// What a list holds, as its summary names it.
    enum Nouns: Sendable {
        case books, films, shows, titles
    }

    /// `nouns` name what the list holds in its summary ("1–60 of 212 books"): books unless said.
    init(
        path: String, query: [String: String], current: Int, total: Int, pageSize: Int, nouns: Nouns = .books
    ) {
        let pageCount = max(1, (total + pageSize - 1) / pageSize)
        let firstPage = Self.link(path, query: query, page: 1)
        func link(_ page: Int) -> String {
            guard page > 1 else { return firstPage }
            return firstPage + (query.isEmpty ? "?" : "&") + "page=\(page)"
        }
        links = (1...pageCount).map { Link(number: $0, path: link($0), current: $0 == current) }
        // From a page past the end (a kept link to a list that has shrunk), "previous" is the last page there is.
        previousPath = current > 1 ? link(min(current - 1, pageCount)) : nil
        nextPath = current < pageCount ? link(current + 1) : nil
        hasPages = pageCount > 1
        let first = min(total, (current - 1) * pageSize + 1)
        let last = min(total, current * pageSize)
        summary = Self.summary(first: first, last: last, total: total, nouns: nouns)
    }

    /// "1–60 of 212 books", "No films".
    static func summary(first: Int, last: Int, total: Int, nouns: Nouns) -> String {
        let (first, last) = (first.grouped, last.grouped)
        switch (nouns, total) {
        case (.books, 0): return localized("No books")
        case (.films, 0): return localized("No films")
        case (.shows, 0): return localized("No TV shows")
        case (.titles, 0): return localized("No titles")
        case (.books, _):
            return localized(
                one: "{{first}}–{{last}} of {{count}} book", other: "{{first}}–{{last}} of {{count}} books",
                count: total, ["first": first, "last": last])
        case (.films, _):
            return localized(
                one: "{{first}}–{{last}} of {{count}} film", other: "{{first}}–{{last}} of {{count}} films",
                count: total, ["first": first, "last": last])
        case (.shows, _):
            return localized(
                one: "{{first}}–{{last}} of {{count}} TV show", other: "{{first}}–{{last}} of {{count}} TV shows",
                count: total, ["first": first, "last": last])
        case (.titles, _):
            return localized(
                one: "{{first}}–{{last}} of {{count}} title", other: "{{first}}–{{last}} of {{count}} titles",
                count: total, ["first": first, "last": last])
        }
    }

    /// `path?sort=…&order=…&page=N`, with keys in a stable order and page 1 left implicit.
    static func link(_ path: String, query: [String: String], page: Int) -> String {
        var items = query.sorted { $0.key < $1.key }.map { "\($0.key)=\(Paths.queryEscape($0.value))" }
        if page > 1 { items.append("page=\(page)") }
        return items.isEmpty ? path : path + "?" + items.joined(separator: "&")
    }
}

extension Pagination {
    /// The page links as markup; nothing when the list fits on one page.
    var html: HTMLFragment {
        guard hasPages else { return HTMLFragment() }
        var html: HTMLFragment = "<nav class=\"pagination\" aria-label=\"\(localized("Pages"))\">"
        if let previousPath { html += "<a href=\"\(previousPath)\" rel=\"prev\">\(localized("‹ Previous"))</a>" }
        for link in links {
            html +=
                "<a href=\"\(link.path)\"\(link.current ? " aria-current=\"page\"" : "" as HTMLFragment)>\(link.number)</a>"
        }
        if let nextPath { html += "<a href=\"\(nextPath)\" rel=\"next\">\(localized("Next ›"))</a>" }
        html += "</nav>\n"
        return html
    }
}
