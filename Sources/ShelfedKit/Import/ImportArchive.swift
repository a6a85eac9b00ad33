import CSV
import Foundation
import ZIPFoundation

/// An export that comes as a ZIP (Letterboxd's, Trakt's): the files Shelfed reads are taken out one by one, each no
/// larger than `entryLimit` whatever the ZIP's directory claims (a ZIP bomb stops at the limit), and written as one
/// CSV (Letterboxd's with a `File` column, in `LetterboxdRows.Part.readingOrder`; Trakt's as `TraktExport` gathers
/// it), so the rest of an import is the one a CSV has. No entry is ever written under its own path, so `../` in a
/// name reaches nothing; such entries are not read at all.
enum ImportArchive {
    /// The most one file in the ZIP may hold: Letterboxd's diary of 10,000 films with reviews is about 5 MB.
    static let entryLimit: Int64 = 40 << 20
    /// The most all the files read may hold together.
    static let totalLimit: Int64 = 80 << 20
    /// The most Trakt's JSON may hold, its files together: JSON is decoded whole, several times its size in memory,
    /// and a history of 15,000 plays is about 5 MB.
    static let jsonLimit: Int64 = 16 << 20
    /// The most entries a ZIP may list before Shelfed stops looking (an export has a few dozen).
    static let entryCountLimit = 5_000

    enum Failure: Error, Equatable {
        case notAnExport
        case tooLarge(String)
        case damaged
    }

    /// Whether the file starts as a ZIP does.
    static func isZIP(_ url: URL) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return false }
        defer { try? handle.close() }
        let start = (try? handle.read(upToCount: 4)) ?? Data()
        return start == Data([0x50, 0x4B, 0x03, 0x04])
    }

    /// Writes the export in `zip` — Letterboxd's CSV files or Trakt's JSON files — to `destination` as one UTF-8 CSV
    /// (`LetterboxdRows.flattenedHeaders` or `TraktExport.headers`); `scratch` is a directory for the files while they
    /// are read.
    static func flatten(_ zip: URL, to destination: URL, scratch: URL) throws {
        let archive: Archive
        do {
            archive = try Archive(url: zip, accessMode: .read)
        } catch {
            throw Failure.damaged
        }
        var parts: [LetterboxdRows.Part: Entry] = [:]
        var lists: [Entry] = []
        var trakt: [Entry] = []
        var listed = 0
        for entry in archive where entry.type == .file {
            listed += 1
            guard listed <= entryCountLimit else { break }
            // The first of each part listed is read (a folder zipped around the export is no different).
            switch LetterboxdRows.Part(pathInExport: entry.path) {
            case .list?: if lists.count < listLimit { lists.append(entry) }
            case let part? where parts[part] == nil: parts[part] = entry
            default: break
            }
            if isTraktFile(entry.path) { trakt.append(entry) }
        }
        if parts.isEmpty, !trakt.isEmpty {
            var total: Int64 = 0
            var files: [Data] = []
            for entry in trakt {
                var data = Data()
                total += try extract(entry, from: archive, limit: jsonLimit - total) {
                    data.append($0)
                }
                files.append(data)
            }
            try TraktExport.flatten(files, to: destination)
            return
        }
        guard !parts.isEmpty else { throw Failure.notAnExport }
        guard FileManager.default.createFile(atPath: destination.path, contents: nil),
            let output = FileHandle(forWritingAtPath: destination.path)
        else { throw CocoaError(.fileWriteUnknown) }
        defer { try? output.close() }
        try output.write(contentsOf: Data(line(LetterboxdRows.flattenedHeaders).utf8))
        var total: Int64 = 0
        for part in LetterboxdRows.Part.readingOrder {
            guard let entry = parts[part] else { continue }
            let raw = scratch.appendingPathComponent(UUID().uuidString + ".part")
            let clean = scratch.appendingPathComponent(UUID().uuidString + ".csv")
            defer {
                try? FileManager.default.removeItem(at: raw)
                try? FileManager.default.removeItem(at: clean)
            }
            total += try extract(entry, from: archive, to: raw, limit: min(entryLimit, totalLimit - total))
            try ImportText.normalize(raw, to: clean)
            try copyRows(of: clean, as: part, to: output)
        }
        for entry in lists {
            let raw = scratch.appendingPathComponent(UUID().uuidString + ".part")
            let clean = scratch.appendingPathComponent(UUID().uuidString + ".csv")
            defer {
                try? FileManager.default.removeItem(at: raw)
                try? FileManager.default.removeItem(at: clean)
            }
            total += try extract(entry, from: archive, to: raw, limit: min(entryLimit, totalLimit - total))
            try ImportText.normalize(raw, to: clean)
            try copyList(clean, scratch: scratch, to: output)
        }
    }

    /// The most list files read from one export.
    static let listLimit = 500

    /// One of Letterboxd's list files: a line naming the export, the list's own table (`Date,Name,Tags,URL,
    /// Description` and its one row), a blank line, then the films (`Position,Name,Year,URL,Description`). Each film
    /// is copied as a row of the `list` part with the list's name; a file without the films' table adds nothing.
    private static func copyList(_ clean: URL, scratch: URL, to output: FileHandle) throws {
        let lines = try String(contentsOf: clean, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false
        )
        .map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        guard let films = lines.firstIndex(where: { $0.lowercased().hasPrefix("position,") }) else { return }
        var name = ""
        if let about = lines[..<films].firstIndex(where: { $0.lowercased().hasPrefix("date,name") }),
            about + 1 < films
        {
            let file = scratch.appendingPathComponent(UUID().uuidString + ".csv")
            defer { try? FileManager.default.removeItem(at: file) }
            try Data((lines[about] + "\n" + lines[about + 1] + "\n").utf8).write(to: file)
            if let table = try? ImportTable(utf8File: file), let (_, values) = try table.nextValues(),
                let index = table.headers.map(ImportRecord.key).firstIndex(of: "name"), index < values.count
            {
                name = values[index]
            }
        }
        let file = scratch.appendingPathComponent(UUID().uuidString + ".csv")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(lines[films...].joined(separator: "\n").utf8).write(to: file)
        try copyRows(of: file, as: .list, list: name, to: output)
    }

    /// Trakt's files Shelfed reads (`watched-movies.json`, `watched-history.json`, `ratings-shows.json`,
    /// `lists-watchlist.json`, …); never one under `..`.
    static func isTraktFile(_ path: String) -> Bool {
        let parts = path.lowercased().split(separator: "/")
        guard let name = parts.last, name.hasSuffix(".json"), !parts.contains("..") else { return false }
        return ["watched", "history", "ratings", "watchlist", "lists-watchlist"].contains { name.hasPrefix($0) }
    }

    /// Takes one entry out to a file, refusing it as soon as it gives more than `limit` bytes.
    private static func extract(_ entry: Entry, from archive: Archive, to target: URL, limit: Int64) throws -> Int64 {
        guard FileManager.default.createFile(atPath: target.path, contents: nil),
            let handle = FileHandle(forWritingAtPath: target.path)
        else { throw CocoaError(.fileWriteUnknown) }
        defer { try? handle.close() }
        return try extract(entry, from: archive, limit: limit) { try handle.write(contentsOf: $0) }
    }

    /// Takes one entry out through `consumer`, refusing it as soon as it gives more than `limit` bytes, whatever size
    /// the ZIP's directory claims.
    private static func extract(_ entry: Entry, from archive: Archive, limit: Int64, consumer: (Data) throws -> Void)
        throws -> Int64
    {
        let name = String(entry.path.prefix(100))
        guard entry.uncompressedSize <= limit else { throw Failure.tooLarge(name) }
        var written: Int64 = 0
        do {
            _ = try archive.extract(entry, skipCRC32: false) { chunk in
                written += Int64(chunk.count)
                guard written <= limit else { throw Failure.tooLarge(name) }
                try consumer(chunk)
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure.damaged
        }
        return written
    }

    /// Every row of one file, its cells placed under the flattened header's names.
    private static func copyRows(
        of clean: URL, as part: LetterboxdRows.Part, list: String = "", to output: FileHandle
    ) throws {
        let table: ImportTable
        do {
            table = try ImportTable(utf8File: clean)
        } catch {
            return  // An empty file (Letterboxd writes header-only files too) adds nothing.
        }
        let keys = table.headers.map(ImportRecord.key)
        // The list's name is not a column of its file: it is written last, from the lines above the films.
        let wanted = LetterboxdRows.flattenedHeaders.dropFirst().dropLast().map {
            keys.firstIndex(of: ImportRecord.key($0))
        }
        var rows = 0
        var buffer = ""
        while let (_, values) = try table.nextValues() {
            rows += 1
            guard rows <= ImportStore.maxRows else { throw ImportStore.StageError.tooManyRows }
            let cells = wanted.map { index in index.flatMap { $0 < values.count ? values[$0] : nil } ?? "" }
            buffer += line([part.rawValue] + cells + [list])
            if buffer.utf8.count > 256 * 1024 {
                try output.write(contentsOf: Data(buffer.utf8))
                buffer = ""
            }
        }
        try output.write(contentsOf: Data(buffer.utf8))
    }

    /// Every cell quoted, as RFC 4180 writes it: the flattened file (a ZIP's parts, Trakt's JSON) is only read back by
    /// Shelfed, so no cell is altered.
    static func line(_ cells: [String]) -> String {
        cells.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: ",") + "\r\n"
    }
}
