import Mustache

// The profile answers Mustache field by field (see Home/HomePageLookups.swift for why): a Mirror per lookup was a sixth of the
// profile's CPU with a long reading journal (measured with perf under benchmarks/journal.py).

extension ProfilePage: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "chrome": self.chrome
        case "displayName": self.displayName
        case "username": self.username
        case "memberSince": self.memberSince
        case "avatarURL": self.avatarURL
        case "wantToRead": self.wantToRead
        case "reading": self.reading
        case "read": self.read
        case "favourites": self.favourites
        case "photoCount": self.photoCount
        case "uploads": self.uploads
        case "maxUploadMB": self.maxUploadMB
        case "year": self.year
        case "yearOptions": self.yearOptions
        case "isCurrentYear": self.isCurrentYear
        case "booksFinished": self.booksFinished
        case "booksFinishedNoun": localized(one: "book finished", other: "books finished", count: self.booksFinished)
        case "pagesRead": self.pagesRead
        case "pagesReadNoun": localized(one: "page read", other: "pages read", count: self.pagesRead)
        case "averageLength": self.averageLength
        case "hasFinished": self.hasFinished
        case "monthsChart": self.monthsChart
        case "monthRows": self.monthRows
        case "topAuthors": self.topAuthors
        case "topCategories": self.topCategories
        case "longest": self.longest
        case "shortest": self.shortest
        case "currentlyReading": self.currentlyReading
        case "goal": self.goal
        case "goalValue": self.goalValue
        case "goalError": self.goalError
        case "journal": self.journal
        // Thousands separated, and a singular for one (issue 35).
        case "allTimeBooks": self.allTimeBooks
        case "allTimeBooksShown": self.allTimeBooks.grouped
        case "allTimeBooksNoun": localized(one: "book read", other: "books read", count: self.allTimeBooks)
        case "allTimePages": self.allTimePages
        case "allTimePagesShown": self.allTimePages.grouped
        case "allTimePagesNoun": localized(one: "page read", other: "pages read", count: self.allTimePages)
        case "yearsActive": self.yearsActive
        case "yearsActiveShown": self.yearsActive.grouped
        case "yearsActiveNoun":
            localized(one: "year with a finished book", other: "years with a finished book", count: self.yearsActive)
        case "readWithoutDate": self.readWithoutDate
        case "didNotFinish": self.didNotFinish
        case "challenge": self.challenge
        case "watching": self.watching
        case "yearsChart": self.yearsChart
        default: nil
        }
    }
}

extension ProfilePage.YearOption: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "value": self.value
        case "selected": self.selected
        default: nil
        }
    }
}

extension ProfilePage.MonthRow: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "month": self.month
        case "books": self.books
        case "pages": self.pages
        default: nil
        }
    }
}

extension ProfilePage.Ranked: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "name": self.name
        case "count": self.count
        default: nil
        }
    }
}

extension ProfilePage.BookLink: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "title": self.title
        case "path": self.path
        case "detail": self.detail
        default: nil
        }
    }
}

extension ProfilePage.JournalLines: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "thisWeek": self.thisWeek
        case "thisMonth": self.thisMonth
        case "streak": self.streak
        case "weeks": self.weeks
        case "months": self.months
        default: nil
        }
    }
}

extension ProfilePage.JournalLines.Row: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "label": self.label
        case "pages": self.pages
        case "share": self.share
        default: nil
        }
    }
}

extension GoalProgress: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "goal": self.goal
        case "finished": self.finished
        case "percent": self.percent
        case "pace": self.pace
        default: nil
        }
    }
}

extension PhotoThumb: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "path": self.path
        case "thumbURL": self.thumbURL
        case "alt": self.alt
        case "pageLabel": self.pageLabel
        case "bookTitle": self.bookTitle
        case "bookPath": self.bookPath
        default: nil
        }
    }
}
