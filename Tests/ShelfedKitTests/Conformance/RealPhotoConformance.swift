import Foundation
import Testing

@testable import ShelfedKit

extension SharedFixtureConformance {
    /// Real phone photos with EXIF orientations (`../shared/fixtures/images/`, see its SOURCES.md): every one is a
    /// landscape or portrait scene that must come out upright.
    @Suite(.enabled(if: SharedFixtures.available, SharedFixtures.skipReason)) struct RealPhotos {
        static let names = [
            "Landscape_1.jpg", "Landscape_3.jpg", "Landscape_5.jpg", "Landscape_6.jpg", "Landscape_8.jpg",
            "Portrait_1.jpg", "Portrait_6.jpg", "Portrait_8.jpg",
        ]

        @Test(arguments: names) func eachIsShownUpright(name: String) async throws {
            let derived = try await PhotoOrientationTests.derive(SharedFixtures.url("images/\(name)"))
            let size = (derived.displayWidth, derived.displayHeight)
            #expect(name.hasPrefix("Landscape") ? size == (1600, 1067) : size == (1067, 1600))
        }
    }
}
