import Mustache

// The house feed and challenge sections the home page embeds answer Mustache field by field, as the home page does
// (Home/HomePageLookups.swift says why).

extension HouseFeedSection: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "items": self.items
        case "itemsHTML": self.itemsHTML
        case "isEmpty": self.isEmpty
        case "morePath": self.morePath
        case "settingsPath": self.settingsPath
        case "viewerShares": self.viewerShares
        default: nil
        }
    }
}

extension HouseFeedSection.Item: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "day": self.day
        case "shownDay": self.shownDay
        case "member": self.member
        case "memberPath": self.memberPath
        case "companions": self.companions
        case "message": self.message
        case "title": self.title
        case "after": self.after
        case "path": self.path
        default: nil
        }
    }
}

extension HouseChallengeSection: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "year": self.year
        case "summary": self.summary
        case "goal": self.goal
        case "total": self.total
        case "percent": self.percent
        case "members": self.members
        case "viewerTakesPart": self.viewerTakesPart
        case "settingsPath": self.settingsPath
        case "editPath": self.editPath
        default: nil
        }
    }
}

extension HouseChallengeSection.Member: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "name": self.name
        case "amount": self.amount
        case "isYou": self.isYou
        default: nil
        }
    }
}

// The house library lists sixty copies a page: through a Mirror per lookup its rendering was three quarters of the
// page's CPU (17 ms at 4,755 copies, `benchmarks/house_feed.py`).
extension HouseLibraryPage: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "chrome": self.chrome
        case "copies": self.copies
        case "summary": self.summary
        case "isEmpty": self.isEmpty
        case "owners": self.owners
        case "genreValue": self.genreValue
        case "availableOnly": self.availableOnly
        case "isFiltered": self.isFiltered
        case "pagination": self.pagination
        default: nil
        }
    }
}

extension HouseLibraryPage.Copy: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "title": self.title
        case "authors": self.authors
        case "coverURL": self.coverURL
        case "owner": self.owner
        case "location": self.location
        case "status": self.status
        case "available": self.available
        case "path": self.path
        default: nil
        }
    }
}

extension MemberChoice: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "id": self.id
        case "name": self.name
        case "selected": self.selected
        default: nil
        }
    }
}

// Through a Mirror, each lookup on the feed page reflected the whole feed (its items and their markup): a seventh of
// the page's CPU (`benchmarks/house_feed.py`).
extension HouseFeedPage: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "chrome": self.chrome
        case "feed": self.feed
        case "previousPath": self.previousPath
        default: nil
        }
    }
}
