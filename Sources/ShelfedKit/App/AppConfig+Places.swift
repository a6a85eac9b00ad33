import Foundation

/// The settings that name places: the household's own address, and where backups may go (issue 35).
extension AppConfig {
    /// `http(s)://host[:port]` with an optional path, no trailing slash; nil for anything else (a space, a quote or a
    /// control character would break the link it is put into).
    static func publicURL(_ text: String) -> String? {
        let trimmed = text.hasSuffix("/") ? String(text.dropLast()) : text
        guard trimmed.hasPrefix("http://") || trimmed.hasPrefix("https://"), trimmed.count <= 200,
            trimmed.unicodeScalars.allSatisfy({
                $0.value > 0x20 && $0.value < 0x7F && !"\"<>\\`".unicodeScalars.contains($0)
            }),
            let url = URL(string: trimmed), url.host?.isEmpty == false, url.query == nil, url.fragment == nil
        else { return nil }
        return trimmed
    }

    /// Why backups may not be written at `place`, or nil when they may. A backup holds every library and password
    /// hash: inside `covers/` or `static/` anyone could download it signed out, and inside `media/` each backup would
    /// carry the ones before it (issue 35).
    public func backupPlaceProblem(_ place: URL) -> String? {
        let served: [(URL, String)] = [
            (coversDirectory, "the covers folder, which the server hands to anyone"),
            (URL(fileURLWithPath: staticDirectory), "the static folder, which the server hands to anyone"),
            (mediaDirectory, "the media folder, which every backup copies"),
        ]
        for (folder, what) in served where Self.isInside(place, folder) {
            return "a folder outside \(what) (\(folder.path)), for example \(dataDirectory.path)/backups"
        }
        return nil
    }

    /// Whether `place` is `folder` or inside it, with `..` and symbolic links resolved; links are followed in the
    /// part of the path that exists (a backup folder is often made on first use, under a link that already is).
    static func isInside(_ place: URL, _ folder: URL) -> Bool {
        func parts(_ url: URL) -> [String] {
            var existing = url.standardizedFileURL
            var rest: [String] = []
            while !FileManager.default.fileExists(atPath: existing.path), existing.pathComponents.count > 1 {
                rest.insert(existing.lastPathComponent, at: 0)
                existing.deleteLastPathComponent()
            }
            let resolved = existing.resolvingSymlinksInPath().pathComponents + rest
            return resolved.filter { $0 != "/" }
        }
        let placeParts = parts(place)
        let folderParts = parts(folder)
        return placeParts.count >= folderParts.count && Array(placeParts.prefix(folderParts.count)) == folderParts
    }
}
