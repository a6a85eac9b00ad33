import Mustache

// The book page's first screen answers Mustache field by field, like the rest of the page (BookPageLookups.swift).

extension BookPage.QuickRating: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "path": self.path
        case "stars": self.stars
        case "starsHTML": self.starsHTML
        case "summary": self.summary
        default: nil
        }
    }
}

extension BookPage.QuickRating.Star: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "value": self.value
        case "on": self.on
        case "pressed": self.pressed
        case "label": self.label
        default: nil
        }
    }
}

extension BookPage.ShelfState: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "shelfTitle": self.shelfTitle
        case "line": self.line
        case "bar": self.bar
        case "next": self.next
        case "readAgainPath": self.readAgainPath
        case "readAgainLabel": self.readAgainLabel
        case "showsProgress": self.showsProgress
        case "watchAgainPath": self.watchAgainPath
        case "watchDay": self.watchDay
        case "watchedOnError": self.watchedOnError
        case "latestDay": self.latestDay
        default: nil
        }
    }
}

extension BookPage.ShelfState.Next: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "value": self.value
        case "label": self.label
        case "primary": self.primary
        default: nil
        }
    }
}

extension BookPage.DescriptionLead: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "lead": self.lead
        case "rest": self.rest
        case "hasRest": self.hasRest
        default: nil
        }
    }
}
