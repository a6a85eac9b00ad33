import Foundation

/// Photos of a form that came back with a mistake to fix (a page number of "abc"): kept on the server under a random
/// token tied to the person, so the corrected form is sent without choosing the photos again — a 12 MB picture
/// over home Wi-Fi is not sent twice. Private (the token only finds files in its owner's folder), short-lived
/// (an hour), and swept away at start-up and whenever another is kept.
extension MediaStore {
    var pending: URL { root.appendingPathComponent(".pending") }
    static let pendingLifetime: TimeInterval = 60 * 60

    /// One kept file as the form mentions it again.
    struct PendingFile: Sendable, Equatable {
        let name: String
        let bytes: Int
    }

    /// Moves `files` out of `.incoming/` into a new pending folder; returns its token.
    func keepPending(_ files: [UploadedFile], userID: Int64, now: Date) throws -> String {
        removeExpiredPending(now: now)
        let token = ImportJob.newID()
        let folder = pending.appendingPathComponent("\(userID)-\(token)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        do {
            var names: [String] = []
            for (index, file) in files.enumerated() {
                try FileManager.default.moveItem(at: file.url, to: folder.appendingPathComponent("\(index).upload"))
                names.append(Self.displayName(file.clientName, index: index))
            }
            try Data(names.joined(separator: "\n").utf8).write(to: folder.appendingPathComponent("names"))
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        return token
    }

    /// What `token` keeps for `userID` (nothing for a token of someone else's, malformed, or expired).
    func pendingFiles(_ token: String, userID: Int64) -> [PendingFile] {
        guard let folder = pendingFolder(token, userID: userID),
            let names = try? String(contentsOf: folder.appendingPathComponent("names"), encoding: .utf8)
        else { return [] }
        return names.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, name in
            let url = folder.appendingPathComponent("\(index).upload")
            guard let size = try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize else { return nil }
            return PendingFile(name: String(name), bytes: size)
        }
    }

    /// Hands the kept files back as uploads (in `.incoming/`, which the caller stores or discards) and forgets
    /// the token.
    func takePending(_ token: String, userID: Int64) -> [UploadedFile] {
        let kept = pendingFiles(token, userID: userID)
        guard let folder = pendingFolder(token, userID: userID) else { return [] }
        defer { try? FileManager.default.removeItem(at: folder) }
        return kept.enumerated().compactMap { index, file in
            let target = temporaryFile()
            guard
                (try? FileManager.default.moveItem(at: folder.appendingPathComponent("\(index).upload"), to: target))
                    != nil
            else { return nil }
            return UploadedFile(url: target, bytes: file.bytes, clientName: file.name)
        }
    }

    /// Drops what `token` keeps (the person chose other photos instead).
    func discardPending(_ token: String, userID: Int64) {
        if let folder = pendingFolder(token, userID: userID) { try? FileManager.default.removeItem(at: folder) }
    }

    /// Removes pending folders older than `pendingLifetime`.
    func removeExpiredPending(now: Date) {
        let folders =
            (try? FileManager.default.contentsOfDirectory(
                at: pending, includingPropertiesForKeys: [.contentModificationDateKey])) ?? []
        for folder in folders {
            let modified = (try? folder.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate
            if now.timeIntervalSince(modified ?? .distantPast) > Self.pendingLifetime {
                try? FileManager.default.removeItem(at: folder)
            }
        }
    }

    private func pendingFolder(_ token: String, userID: Int64) -> URL? {
        guard ImportJob.isWellFormedID(token) else { return nil }
        let folder = pending.appendingPathComponent("\(userID)-\(token)")
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) && isFolder.boolValue
            ? folder : nil
    }

    /// The file's name as the phone sent it, or "photo N": one line of plain text, at most 80 characters.
    private static func displayName(_ clientName: String?, index: Int) -> String {
        let cleaned = (clientName ?? "").unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }
        let name = String(String.UnicodeScalarView(cleaned.prefix(80))).trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? "photo \(index + 1)" : name
    }
}
