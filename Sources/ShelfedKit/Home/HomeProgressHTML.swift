/// The home page's books in progress as markup, built in Swift like the book cards: each carries a bar and two forms,
/// and through Mustache their lookups were most of what the page's template cost (issue 25's budget). The markup is
/// the one the template had, so the browser suite's selectors and the styles are unchanged.
extension HomePage {
    var inProgressHTML: HTMLFragment { Self.inProgressHTML(inProgress) }

    /// "Currently reading", "Currently watching", or both, as the list holds.
    var inProgressHeading: String {
        switch (inProgress.contains { $0.tracksPages }, inProgress.contains { !$0.tracksPages }) {
        case (true, true): localized("Currently reading and watching")
        case (false, true): localized("Currently watching")
        default: localized("Currently reading")
        }
    }

    static func inProgressHTML(_ items: [ProgressItem]) -> HTMLFragment {
        var html: HTMLFragment = "<ol class=\"results text-results in-progress\">\n"
        for item in items {
            let alt = item.hasCover ? localized("Cover of {{title}}", ["title": item.title]) : localized("No cover")
            html += "  <li class=\"result\" id=\"progress-\(item.bookID)\">\n"
            html += "    <img src=\"\(item.coverURL)\" alt=\"\(alt)\" width=\"64\" height=\"96\" loading=\"lazy\">\n"
            html += "    <div class=\"result-body\">\n"
            html += "      <h3 class=\"result-title\"><a href=\"\(item.path)\">\(item.title)</a></h3>\n"
            if let authors = item.authors { html += "      <p class=\"card-authors\">\(authors)</p>\n" }
            if let bar = item.bar {
                html += "      <div class=\"progress-line\"><progress max=\"100\" value=\"\(bar.percent)\" "
                let label = localized("Progress in {{title}}", ["title": item.title])
                html += "aria-label=\"\(label)\">\(bar.percent) %</progress> <span>\(bar.summary)</span>"
                html += "</div>\n"
            }
            if item.tracksPages { html += progressForm(item) }
            if let next = item.upNext {
                html += upNextForm(item, next)
                html += "    </div>\n  </li>\n"
                continue
            }
            html += "      <form method=\"post\" action=\"\(item.shelfPath)\" class=\"inline\">\n"
            html += "        <input type=\"hidden\" name=\"_csrf\" value=\"\(item.csrf)\">\n"
            html += "        <input type=\"hidden\" name=\"return_to\" value=\"/\">\n"
            let done = item.tracksPages ? localized("Finished it") : localized("Watched it")
            html += "        <button type=\"submit\" name=\"shelf\" value=\"read\" class=\"chip\">\(done)</button>\n"
            html += "      </form>\n"
            html += "    </div>\n"
            html += "  </li>\n"
        }
        html += "  </ol>"
        return html
    }

    /// "Up next: S2E4 Name" and its one tap, for a show on Watching ("New episode:" for one watched to the end).
    private static func upNextForm(_ item: ProgressItem, _ next: EpisodeLine) -> HTMLFragment {
        var html: HTMLFragment = "      <form method=\"post\" action=\"\(item.episodesPath)\" class=\"up-next\">\n"
        html += "        <input type=\"hidden\" name=\"_csrf\" value=\"\(item.csrf)\">\n"
        html += "        <input type=\"hidden\" name=\"return_to\" value=\"/\">\n"
        html += "        <input type=\"hidden\" name=\"season\" value=\"\(next.season)\">\n"
        html += "        <input type=\"hidden\" name=\"episode\" value=\"\(next.number)\">\n"
        let code = HTMLEscaper.escape(next.code)
        let lead =
            item.isNew
            ? localized("New episode: <strong>{{code}}</strong>", ["code": code])
            : localized("Up next: <strong>{{code}}</strong>", ["code": code])
        html += "        <p>\(HTMLFragment(verbatim: lead))"
        if let title = next.title { html += " \(title)" }
        html += "</p>\n"
        let label = localized("Watched {{code}} of {{title}}", ["code": next.code, "title": item.title])
        html += "        <button type=\"submit\" class=\"chip\" aria-label=\"\(label)\">"
        html += "\(localized("Watched {{code}}", ["code": next.code]))</button>\n"
        html += "      </form>\n"
        return html
    }

    /// "Page … Update" (or percent) for a book in progress.
    private static func progressForm(_ item: ProgressItem) -> HTMLFragment {
        var html: HTMLFragment =
            "      <form method=\"post\" action=\"\(item.progressPath)\" class=\"progress-update\">\n"
        html += "        <input type=\"hidden\" name=\"_csrf\" value=\"\(item.csrf)\">\n"
        html += "        <input type=\"hidden\" name=\"return_to\" value=\"/\">\n"
        if item.byPercent {
            let label = localized("Percent read of {{title}}", ["title": item.title])
            html += "        <input id=\"percent-\(item.bookID)\" aria-label=\"\(label)\" "
            html += "name=\"percent\" type=\"number\" inputmode=\"decimal\" min=\"0\" max=\"100\" step=\"0.1\" "
            html += "placeholder=\"%\">\n"
        } else {
            let label = localized("Page you are on in {{title}}", ["title": item.title])
            html += "        <input id=\"page-\(item.bookID)\" aria-label=\"\(label)\" "
            html += "name=\"page\" type=\"number\" inputmode=\"numeric\" min=\"0\""
            if let pageCount = item.pageCount { html += " max=\"\(pageCount)\"" }
            html += " placeholder=\"\(localized("Page"))\">\n"
        }
        html += "        <button type=\"submit\" class=\"button\">\(localized("Update"))</button>\n"
        html += "      </form>\n"
        return html
    }
}
