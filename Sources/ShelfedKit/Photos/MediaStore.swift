import Foundation

/// The media folder: per-user folders of finished files, and `.incoming/` for uploads in progress.
public struct MediaStore: Sendable {
    public let root: URL

    public init(root: URL) {
        self.root = root
    }

    var incoming: URL { root.appendingPathComponent(".incoming") }
    /// Scratch files of the background text reader (kept apart from uploads in progress).
    var reading: URL { root.appendingPathComponent(".reading") }
    /// Shelf photos waiting for Gemini, kept until their scan has run (a restart resumes them).
    var scans: URL { root.appendingPathComponent(".scans") }

    /// Creates the folders and removes whatever an interrupted upload or reading left in `.incoming/` and `.reading/`.
    public func prepare() throws {
        for folder in [incoming, reading] {
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try FileManager.default.createDirectory(at: scans, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: pending, withIntermediateDirectories: true)
        removeExpiredPending(now: Date())
    }

    /// A fresh path in `.incoming/`; nothing is created there yet.
    func temporaryFile(_ suffix: String = "") -> URL {
        incoming.appendingPathComponent(UUID().uuidString.lowercased() + suffix)
    }

    /// Moves finished files into `<user-id>/` under one random name and returns their relative paths.
    /// Either all arrive or none stay.
    func commit(_ files: [(source: URL, suffix: String)], userID: Int64) throws -> [String] {
        let folder = root.appendingPathComponent(String(userID))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let name = UUID().uuidString.lowercased()
        var moved: [String] = []
        do {
            for file in files {
                let relative = "\(userID)/\(name)\(file.suffix)"
                try FileManager.default.moveItem(at: file.source, to: root.appendingPathComponent(relative))
                moved.append(relative)
            }
        } catch {
            remove(moved)
            throw error
        }
        return moved
    }

    func url(for relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }

    /// Removes a user's whole folder (their account is being deleted).
    func removeAll(of userID: Int64) {
        try? FileManager.default.removeItem(at: root.appendingPathComponent(String(userID)))
    }

    func remove(_ relativePaths: [String]) {
        for path in relativePaths { try? FileManager.default.removeItem(at: url(for: path)) }
    }
}

extension MediaStore {
    /// Removes every finished file that no photo row refers to and returns their paths. Files are moved into
    /// place just before their row is inserted, so a kill between the two leaves files nobody can reach.
    @discardableResult
    func removeUnreferenced(keeping referenced: Set<String>) -> [String] {
        let rootPath = root.standardizedFileURL.path + "/"
        let files =
            FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])?
            .compactMap { $0 as? URL } ?? []
        var removed: [String] = []
        for file in files where (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            let relative = String(file.standardizedFileURL.path.dropFirst(rootPath.count))
            guard !relative.hasPrefix(".incoming/"), !relative.hasPrefix(".reading/"), !relative.hasPrefix(".scans/"),
                !relative.hasPrefix(".pending/"), !referenced.contains(relative)
            else { continue }
            try? FileManager.default.removeItem(at: file)
            removed.append(relative)
        }
        return removed
    }
}
