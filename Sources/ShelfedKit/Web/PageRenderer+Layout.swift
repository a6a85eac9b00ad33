import Foundation
import NIOCore
import Synchronization

/// The layout around a body built in Swift, rendered by Mustache once per distinct page chrome and then reused.
///
/// The layout depends only on its `PageChrome` (title, who is signed in, their CSRF token, the active tab, a
/// notice), so for the same chrome its markup before and after the body never changes. Rendering it through
/// Mustache's reflection cost as much as the rest of a shelf page; with the cache a page is two copies around
/// its body. The body's place is found by a marker made at random at start-up, which no user text can forge.
final class LayoutCache: Sendable {
    private let marker = "\u{E000}body-\(UUID().uuidString)\u{E000}"
    private let entries = Mutex<[String: (before: String, after: String)]>([:])
    /// Households have a few sessions and a few list titles; past this many the cache starts again.
    private let capacity = 256

    /// The page for `body` inside `template`'s layout for `chrome`.
    func page(
        body: HTMLFragment, chrome: PageChrome, template: String,
        render: (_ body: HTMLFragment) throws -> String
    ) rethrows -> ByteBuffer {
        // A toast is one person's one-off message: rendered, never cached.
        if chrome.toast != nil { return ByteBuffer(string: try render(body)) }
        // Each language has its own templates, so its own layouts.
        let key = template + "\u{0}" + Language.current.rawValue + "\u{0}" + chrome.cacheKey
        var layout = entries.withLock { $0[key] }
        if layout == nil {
            let parts = try render(HTMLFragment(verbatim: marker)).components(separatedBy: marker)
            guard parts.count == 2 else { return ByteBuffer(string: try render(body)) }
            layout = (parts[0], parts[1])
            entries.withLock { entries in
                if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
                entries[key] = layout
            }
        }
        let (before, after) = layout!
        var page = ByteBuffer()
        page.reserveCapacity(before.utf8.count + body.bytes.count + after.utf8.count)
        page.writeString(before)
        page.writeBytes(body.bytes)
        page.writeString(after)
        return page
    }
}

extension PageChrome {
    /// Everything the layout shows, so that equal keys render equal layouts.
    var cacheKey: String {
        [
            title, csrfToken, userDisplayName ?? "\u{1}", notice ?? "\u{1}", searchQuery, String(waiting),
            "\(isFeed)\(isShelves)\(isFavourites)\(isProfile)",
        ].joined(separator: "\u{0}")
    }
}
