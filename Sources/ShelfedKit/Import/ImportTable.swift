import CSV
import Foundation

/// An export file opened for reading, one record at a time (CSV.swift over a file stream, so a 20 MB file is
/// never in memory at once). The file must already be clean UTF-8 (`ImportText.normalize`); commas or tabs
/// are told apart by the header line.
final class ImportTable {
    let headers: [String]
    let format: ImportFormat?
    private let reader: CSVReader
    /// The number of the record `next()` returned last; the header is row 1, as in a spreadsheet.
    private(set) var rowNumber = 1

    enum OpenError: Error, Equatable {
        case empty
        case unreadable(String)
    }

    /// `fileName` is the upload's name, which tells Letterboxd's watched films from its watchlist.
    init(utf8File url: URL, fileName: String = "") throws {
        let delimiter = try Self.delimiter(of: url)
        guard let stream = InputStream(fileAtPath: url.path) else {
            throw OpenError.unreadable("The file cannot be opened.")
        }
        do {
            reader = try CSVReader(stream: stream, codecType: UTF8.self, hasHeaderRow: true, delimiter: delimiter)
        } catch {
            throw OpenError.empty
        }
        let headers = (reader.headerRow ?? []).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard headers.contains(where: { !$0.isEmpty }) else { throw OpenError.empty }
        self.headers = headers
        format = ImportFormat.detect(headers: headers, fileName: fileName)
    }

    /// The next record that has any text (blank lines, such as a trailing one, are passed over); nil at the end.
    func next() throws -> (row: Int, record: ImportRecord)? {
        try nextValues().map { ($0.row, ImportRecord(headers: headers, values: $0.values)) }
    }

    /// The next record's cells in header order (kept so a failed row can be shown and fixed as it was).
    func nextValues() throws -> (row: Int, values: [String])? {
        while let values = reader.next() {
            rowNumber += 1
            if values.allSatisfy({ $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }) { continue }
            return (rowNumber, values)
        }
        // On Linux a file stream reports bytes available at its end, and CSV.swift records the empty read that
        // follows as `cannotReadFile`: that is the end of the file, not damage.
        if let error = reader.error, !Self.isEndOfFile(error) {
            throw OpenError.unreadable("The file could not be read after row \(rowNumber): \(Self.describe(error)).")
        }
        return nil
    }

    private static func isEndOfFile(_ error: any Error) -> Bool {
        if case CSVError.cannotReadFile = error { return true }
        return false
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case CSVError.unicodeDecoding: "it is not text"
        case CSVError.stringEndianMismatch, CSVError.stringEncodingMismatch: "its text encoding is unknown"
        default: "the file is damaged there"
        }
    }

    /// Tab-separated when the header line has more tabs than commas (LibraryThing), comma-separated otherwise.
    static func delimiter(of url: URL) throws -> UnicodeScalar {
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw OpenError.unreadable("The file cannot be opened.")
        }
        defer { try? handle.close() }
        let start = try handle.read(upToCount: 64 * 1024) ?? Data()
        guard !start.isEmpty else { throw OpenError.empty }
        let firstLine = start.prefix { $0 != UInt8(ascii: "\n") }
        let tabs = firstLine.filter { $0 == UInt8(ascii: "\t") }.count
        let commas = firstLine.filter { $0 == UInt8(ascii: ",") }.count
        return tabs > commas ? "\t" : ","
    }
}
