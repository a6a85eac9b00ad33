import Foundation
import Testing

@testable import ShelfedKit

/// Every EXIF orientation a phone writes is turned upright before the photo is shown (the made photos in
/// `Tests/Fixtures/images/`; the conformance suite does the same with real phone photos).
@Suite struct PhotoOrientationTests {
    static let names = ["Landscape", "Portrait"].flatMap { kind in (1...8).map { "\(kind)_\($0).jpg" } }

    /// Derives the display image and thumbnail of `source` and returns their sizes.
    static func derive(_ source: URL) async throws -> DerivedImages {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("orient-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await ImageProcessor().derive(
            from: source, display: folder.appendingPathComponent("d.jpg"),
            thumbnail: folder.appendingPathComponent("t.jpg"))
    }

    @Test(arguments: names) func eachOrientationIsShownUpright(name: String) async throws {
        let source = FakeBooksServer.fixtures.appendingPathComponent("images/\(name)")
        let stored = try #require(TestImages.size(of: source))
        let derived = try await Self.derive(source)
        let landscape = name.hasPrefix("Landscape")
        // Orientations 5–8 are stored on their side; upright, every landscape is wide and every portrait tall.
        let turned = Int(name.dropFirst(landscape ? 10 : 9).prefix(1))! >= 5
        #expect((stored.0 > stored.1) == (landscape != turned))
        #expect(
            landscape
                ? (derived.displayWidth, derived.displayHeight) == (1600, 1067)
                : (derived.displayWidth, derived.displayHeight) == (1067, 1600))
        #expect(max(derived.thumbnailWidth, derived.thumbnailHeight) == 400)
    }
}
