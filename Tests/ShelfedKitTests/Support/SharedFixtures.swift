import Foundation
import Testing

/// The team's recorded fixtures in `../shared/fixtures` (beside the project root): real provider answers, real
/// tracker exports and real photos. They are other people's files, read in place and never copied into the project;
/// the conformance suite checks the code against them when the folder is there (CI has it) and is skipped, saying
/// why, when it is not.
enum SharedFixtures {
    static let root = TestApp.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures")

    static var available: Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent("imports/SOURCES.md").path)
    }

    static let skipReason: Comment =
        "../shared/fixtures is not beside the project root: the checks against real recordings are skipped"

    static func url(_ path: String) -> URL { root.appendingPathComponent(path) }
}
