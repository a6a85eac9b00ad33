import Mustache
import Testing

@testable import ShelfedKit

/// The debug check that keeps hand-written `child(named:)` lookups complete.
@Suite struct MustacheParentCheckTests {
    struct Forgetful: MustacheParent {
        let title: String
        let note: String?

        func child(named name: String) -> Any? { name == "title" ? title : nil }
    }

    struct Complete: MustacheParent {
        let title: String
        let note: String?
        let items: [Forgetful]

        func child(named name: String) -> Any? {
            switch name {
            case "title": title
            case "note": note
            case "items": items
            default: nil
            }
        }
    }

    @Test func aFieldTheLookupForgetsIsFound() throws {
        #expect(throws: MustacheParentCheck.Mismatch.self) {
            try MustacheParentCheck.verify(Forgetful(title: "a", note: "b"))
        }
        // A nil field answered as nil is fine; nested in a list, a forgetful element is still found.
        try MustacheParentCheck.verify(Forgetful(title: "a", note: nil))
        try MustacheParentCheck.verify(Complete(title: "a", note: nil, items: []))
        #expect(throws: MustacheParentCheck.Mismatch.self) {
            try MustacheParentCheck.verify(Complete(title: "a", note: "n", items: [Forgetful(title: "b", note: "c")]))
        }
    }
}
