import Mustache

// The book page and its sections answer Mustache field by field (see Home/HomePageLookups.swift for why).

extension BookPage.HouseSection: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "copies": self.copies
        case "returnTo": self.returnTo
        default: nil
        }
    }
}

extension BookPage.HouseSection.Copy: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "member": self.member
        case "memberPath": self.memberPath
        case "summary": self.summary
        case "askPath": self.askPath
        case "review": self.review
        default: nil
        }
    }
}

extension BookPage: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "chrome": self.chrome
        case "card": self.card
        case "photos": self.photos
        case "subtitle": self.subtitle
        case "publisher": self.publisher
        case "publishedDate": self.publishedDate
        case "pageCount": self.pageCount
        case "isbn13": self.isbn13
        case "isbn10": self.isbn10
        case "categories": self.categories
        case "descriptionParagraphs": self.descriptionParagraphs
        case "shelfButtons": self.shelfButtons
        case "datesPath": self.datesPath
        case "removePath": self.removePath
        case "editPath": self.editPath
        case "startedValue": self.startedValue
        case "finishedValue": self.finishedValue
        case "startedError": self.startedError
        case "finishedError": self.finishedError
        case "reviewPath": self.reviewPath
        case "noRating": self.noRating
        case "wholeStarsHTML": self.wholeStarsHTML
        case "quarterStarsHTML": self.quarterStarsHTML
        case "quarterChosen": self.quarterChosen
        case "reviewValue": self.reviewValue
        case "notesValue": self.notesValue
        case "reviewShared": self.reviewShared
        case "ratingError": self.ratingError
        case "reviewError": self.reviewError
        case "notesError": self.notesError
        case "readWithoutDate": self.readWithoutDate
        case "earlierReads": self.earlierReads
        case "hasEarlierReads": self.hasEarlierReads
        case "similar": self.similar
        case "journal": self.journal
        case "episodes": self.episodes
        case "copy": self.copy
        case "stop": self.stop
        case "series": self.series
        case "lists": self.lists
        case "house": self.house
        case "loan": self.loan
        case "recommend": self.recommend
        case "together": self.together
        case "pageToScreen": self.pageToScreen
        case "atHome": self.atHome
        case "quickRating": self.quickRating
        case "community": self.community
        case "byline": self.byline
        case "kindLine": self.kindLine
        case "castLine": self.castLine
        case "originalTitle": self.originalTitle
        case "titleChoicePath": self.titleChoicePath
        case "providerCredit": self.providerCredit
        case "state": self.state
        case "description": self.description
        case "showsDates": self.showsDates
        case "reviewOpen": self.reviewOpen
        case "datesOpen": self.datesOpen
        case "copyOpen": self.copyOpen
        case "recommendOpen": self.recommendOpen
        default: nil
        }
    }
}

extension BookPage.ShelfButton: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "value": self.value
        case "label": self.label
        case "current": self.current
        default: nil
        }
    }
}

extension BookPage.PhotoStrip: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "thumbs": self.thumbs
        case "count": self.count
        case "galleryPath": self.galleryPath
        case "newPhotoPath": self.newPhotoPath
        default: nil
        }
    }
}

extension BookPage.SeriesLine: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "phrase": self.phrase
        case "seriesPath": self.seriesPath
        case "nextTitle": self.nextTitle
        case "nextPath": self.nextPath
        case "nextShelf": self.nextShelf
        default: nil
        }
    }
}

extension BookPage.SimilarSection: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "books": self.books
        case "booksHTML": self.booksHTML
        case "note": self.note
        default: nil
        }
    }
}

extension BookPage.SimilarSection.Item: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "title": self.title
        case "authors": self.authors
        case "coverURL": self.coverURL
        case "hasCover": self.hasCover
        case "path": self.path
        case "reasons": self.reasons
        case "shelfTitle": self.shelfTitle
        case "addVolumeID": self.addVolumeID
        case "addISBN": self.addISBN
        case "addPath": self.addPath
        case "returnTo": self.returnTo
        case "csrf": self.csrf
        default: nil
        }
    }
}

extension BookPage.EarlierRead: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "isViewing": self.isViewing
        case "started": self.started
        case "finished": self.finished
        case "both": self.both
        case "startedOnly": self.startedOnly
        case "finishedOnly": self.finishedOnly
        case "undated": self.undated
        default: nil
        }
    }
}

extension BookPage.StarChoice: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "id": self.id
        case "value": self.value
        case "shown": self.shown
        case "spoken": self.spoken
        case "filled": self.filled
        case "checked": self.checked
        default: nil
        }
    }
}

extension BookCard: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "id": self.id
        case "path": self.path
        case "title": self.title
        case "authors": self.authors
        case "coverURL": self.coverURL
        case "hasCover": self.hasCover
        case "favourite": self.favourite
        case "favouritePath": self.favouritePath
        case "shelfPath": self.shelfPath
        case "longTitle": self.longTitle
        default: nil
        }
    }
}

extension BookPage.LoanSection: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "onLoan": self.onLoan
        case "isOverdue": self.isOverdue
        case "lendPath": self.lendPath
        case "returnedPath": self.returnedPath
        case "borrowers": self.borrowers
        case "hasBorrowers": self.hasBorrowers
        case "nameValue": self.nameValue
        case "lentOnValue": self.lentOnValue
        case "dueOnValue": self.dueOnValue
        case "nameError": self.nameError
        case "lentOnError": self.lentOnError
        case "dueOnError": self.dueOnError
        default: nil
        }
    }
}

extension BookPage.RecommendSection: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "formPath": self.formPath
        case "members": self.members
        case "noteValue": self.noteValue
        case "noteError": self.noteError
        default: nil
        }
    }
}

extension BookPage.RecommendSection.Member: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "id": self.id
        case "name": self.name
        default: nil
        }
    }
}

extension BookPage.StopSection: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "formPath": self.formPath
        case "reasonValue": self.reasonValue
        case "reasonError": self.reasonError
        default: nil
        }
    }
}

extension BookPage.ListsSection: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "lists": self.lists
        case "hasLists": self.hasLists
        case "choosePath": self.choosePath
        default: nil
        }
    }
}

extension BookPage.ListsSection.Item: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "name": self.name
        case "path": self.path
        default: nil
        }
    }
}

extension BookPage.CopySection: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "formPath": self.formPath
        case "owned": self.owned
        case "formatValue": self.formatValue
        case "formats": self.formats
        case "formatError": self.formatError
        case "locationValue": self.locationValue
        case "locationError": self.locationError
        default: nil
        }
    }
}
