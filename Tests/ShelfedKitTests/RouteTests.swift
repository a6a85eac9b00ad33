import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ShelfedKit

@Suite("Routes and links")
struct RouteTests {
    static func sample(_ route: Route) -> [any CustomStringConvertible] {
        switch route {
        case .shelf: ["reading"]
        case .photoFile, .housePhotoFile: [1, "thumb"]
        case .searchVolume: ["0yNhEAAAQBAJ"]
        default: route.pattern.split(separator: "/").filter { $0.hasPrefix(":") }.map { _ in 1 }
        }
    }

    @Test("links fill a route's parameters as escaped path segments")
    func links() {
        #expect(Route.home.link() == "/")
        #expect(Route.book.link(42) == "/books/42")
        #expect(Route.photoFile.link(7, "thumb") == "/photos/7/thumb")
        #expect(Route.searchVolume.link("a/b?c") == "/search/volumes/a%2Fb%3Fc")
        #expect(Paths.bookPhotos(3) == "/books/3/photos")
        // The quick path for one id builds exactly what the general one does, for every route.
        for route in Route.allCases {
            #expect(route.link(Int64(9_876_543_210)) == route.link(filling: [Int64(9_876_543_210)]), "\(route)")
        }
        #expect(Route.bookFavourite.link(Int64(-3)) == "/books/-3/favourite")
        #expect(Route(endpointPath: RouterPath("/books/:id/photos").description) == .bookPhotos)
        #expect(
            Route.allCases.filter(\.takesStreamedUpload) == [
                .bookCover, .bookPhotos, .profileAvatar, .scan, .shelfScan, .imports,
            ])
    }

    @Test("every route's link reaches a registered route: a page, or the CSRF check of a form's POST")
    func everyRouteIsRegistered() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            let bookID = try await PhotoTests.setUp(web)
            let upload = try await web.upload("/books/\(bookID)/photos", files: [.init(data: TestImages.png)])
            #expect(upload.headers[.location] == "/photos/1")
            _ = try await web.post("/lists", ["name": "A list"])
            for route in Route.allCases {
                let link = route.link(filling: Self.sample(route))
                let page = try await web.get(link)
                guard page.status == .notFound else { continue }
                // Not a page: it must be a form target, which refuses a wrong token only once it was matched.
                let post = try await web.post(link, [:], csrf: String(repeating: "0", count: 64))
                #expect(post.status == .forbidden, "\(route) → \(link): GET and POST both answer 404")
            }
        }
    }
}
