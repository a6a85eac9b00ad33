/// The home page's books in progress as markup, built in Swift like the book cards: each carries a bar and two forms,
/// and through Mustache their lookups were most of what the page's template cost (issue 25's budget). The markup is
/// the one the template had, so the browser suite's selectors and the styles are unchanged.
extension HomePage {
    var inProgressHTML: HTMLFragment { Self.inProgressHTML(inProgress) }

    /// "Currently reading", "Currently watching", or both, as the list holds.
    var inProgressHeading: String {
        switch (inProgress.contains { $0.tracksPages }, inProgress.contains { !$0.tracksPages }) {
        case (true, true): "Currently reading and watching"
        case (false, true): "Currently watching"
        default: "Currently reading"
        }
    }

    static func inProgressHTML(_ items: [ProgressItem]) -> HTMLFragment {
        var html: HTMLFragment = "<ol class=\"results text-results in-progress\">\n"
        for item in items {
            let alt = item.hasCover ? "Cover of \(item.title)" : "No cover"
            html += "  <li class=\"result\" id=\"progress-\(item.bookID)\">\n"
            html += "    <img src=\"\(item.coverURL)\" alt=\"\(alt)\" width=\"64\" height=\"96\" loading=\"lazy\">\n"
            html += "    <div class=\"result-body\">\n"
            html += "      <h3 class=\"result-title\"><a href=\"\(item.path)\">\(item.title)</a></h3>\n"
            if let authors = item.authors { html += "      <p class=\"card-authors\">\(authors)</p>\n" }
            if let bar = item.bar {
                html += "      <div class=\"progress-line\"><progress max=\"100\" value=\"\(bar.percent)\" "
                html +=
                    "aria-label=\"Progress in \(item.title)\">\(bar.percent) %</progress> <span>\(bar.summary)</span>"
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
            html +=
                "        <button type=\"submit\" name=\"shelf\" value=\"read\" class=\"chip\">\(item.tracksPages ? "Finished it" : "Watched it")</button>\n"
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
        html += item.isNew ? "        <p>New episode: <strong>" : "        <p>Up next: <strong>"
        html += "\(next.code)</strong>"
        if let title = next.title { html += " \(title)" }
        html += "</p>\n"
        html += "        <button type=\"submit\" class=\"chip\" aria-label=\"Watched \(next.code) of \(item.title)\">"
        html += "Watched \(next.code)</button>\n"
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
            html += "        <input id=\"percent-\(item.bookID)\" aria-label=\"Percent read of \(item.title)\" "
            html += "name=\"percent\" type=\"number\" inputmode=\"decimal\" min=\"0\" max=\"100\" step=\"0.1\" "
            html += "placeholder=\"%\">\n"
        } else {
            html += "        <input id=\"page-\(item.bookID)\" aria-label=\"Page you are on in \(item.title)\" "
            html += "name=\"page\" type=\"number\" inputmode=\"numeric\" min=\"0\""
            if let pageCount = item.pageCount { html += " max=\"\(pageCount)\"" }
            html += " placeholder=\"Page\">\n"
        }
        html += "        <button type=\"submit\" class=\"button\">Update</button>\n"
        html += "      </form>\n"
        return html
    }
}
