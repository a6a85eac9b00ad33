import Mustache

// The home page answers Mustache field by field instead of through a Mirror per lookup: a name a section does not
// hold climbs to the page, and a Mirror of a page this size cost a quarter of the home page's CPU (measured with perf
// under benchmarks/house_feed.py). `MustacheParentCheck` keeps these complete in every test.

extension HomePage: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "chrome": self.chrome
        case "hasBooks": self.hasBooks
        case "inProgress": self.inProgress
        case "inProgressHTML": self.inProgressHTML
        case "inProgressHeading": self.inProgressHeading
        case "newEpisodes": self.newEpisodes
        case "newEpisodesHTML": Self.inProgressHTML(self.newEpisodes)
        case "recentlyAddedCards": self.recentlyAddedCards
        case "recentlyFinishedCards": self.recentlyFinishedCards
        case "readNext": self.readNext
        case "house": self.house
        case "overdue": self.overdue
        case "borrowed": self.borrowed
        case "requests": self.requests
        case "asked": self.asked
        case "recommended": self.recommended
        case "challenge": self.challenge
        default: nil
        }
    }
}

extension HomePage.RecommendedLine: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "from": self.from
        case "title": self.title
        case "note": self.note
        case "path": self.path
        case "dismissPath": self.dismissPath
        default: nil
        }
    }
}

extension HomePage.RequestLine: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "requester": self.requester
        case "title": self.title
        case "bookPath": self.bookPath
        case "answerPath": self.answerPath
        default: nil
        }
    }
}

extension HomePage.LoanLine: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "title": self.title
        case "path": self.path
        case "text": self.text
        default: nil
        }
    }
}

extension HomePage.ReadNextSection: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "items": self.items
        case "emptyMessage": self.emptyMessage
        case "heading": self.heading
        default: nil
        }
    }
}

extension HomePage.ReadNextSection.Item: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "title": self.title
        case "authors": self.authors
        case "path": self.path
        case "coverURL": self.coverURL
        case "hasCover": self.hasCover
        case "because": self.because
        case "becauseLead": self.becauseLead
        case "recommendedBy": self.recommendedBy
        default: nil
        }
    }
}
