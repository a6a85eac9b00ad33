import Foundation

/// Which part of a spreadsheet's `3/4/2022` is the month, decided for a whole column.
enum SlashDateOrder: String, Codable, Sendable, CaseIterable {
    case monthFirst = "month-first"
    case dayFirst = "day-first"
}

/// What a file's columns say about their `m/d/yyyy` or `d/m/yyyy` dates (Excel rewrites a tracker's ISO dates in
/// the order of the computer's locale). One `10/13/2022` settles its column: 13 can only be a day. A column where
/// every such date has both parts at most 12 is truly ambiguous, and the person is asked once for the file.
struct SlashDateEvidence: Sendable {
    private struct Column: Sendable {
        var firstOver12 = false
        var secondOver12 = false
        var example: String?
    }

    /// By `ImportRecord.key` of the header.
    private var columns: [String: Column] = [:]

    /// Looks at every cell of one row; true when the row holds a slash date at all.
    @discardableResult
    mutating func look(at values: [String], keys: [String]) -> Bool {
        var found = false
        for (index, value) in values.enumerated() where index < keys.count && value.utf8.contains(0x2F) {
            for (first, second, text) in Self.slashDates(in: value) {
                found = true
                var column = columns[keys[index]] ?? Column()
                column.firstOver12 = column.firstOver12 || first > 12
                column.secondOver12 = column.secondOver12 || second > 12
                if column.example == nil, first <= 12, second <= 12, first != second { column.example = text }
                columns[keys[index]] = column
            }
        }
        return found
    }

    /// The columns whose order the file itself settles. A column with days over 12 in both places (two people's
    /// spreadsheets pasted together) is left undecided: its dates stay for the person to fix.
    var decided: [String: SlashDateOrder] {
        columns.compactMapValues { column in
            switch (column.firstOver12, column.secondOver12) {
            case (true, false): .dayFirst
            case (false, true): .monthFirst
            default: nil
            }
        }
    }

    /// Columns of slash dates that could be read either way, each with an example to ask about.
    var ambiguous: [String: String] {
        columns.compactMapValues { column in
            column.firstOver12 || column.secondOver12 ? nil : (column.example ?? "1/1/2000")
        }
    }

    /// Every `d/d/dddd` (one or two digits, then four) in `text`, as its two leading numbers and its text.
    static func slashDates(in text: String) -> [(Int, Int, String)] {
        let bytes = Array(text.utf8.prefix(200))
        func digits(from start: Int) -> (value: Int, end: Int) {
            var end = start
            var value = 0
            while end < bytes.count, end - start < 5, (0x30...0x39).contains(bytes[end]) {
                value = value * 10 + Int(bytes[end] - 0x30)
                end += 1
            }
            return (value, end)
        }
        var found: [(Int, Int, String)] = []
        var index = 0
        while index < bytes.count {
            let isStart =
                (0x30...0x39).contains(bytes[index]) && (index == 0 || !(0x30...0x39).contains(bytes[index - 1]))
            guard isStart else {
                index += 1
                continue
            }
            let first = digits(from: index)
            guard (1...2).contains(first.end - index), first.end < bytes.count, bytes[first.end] == 0x2F else {
                index = max(first.end, index + 1)
                continue
            }
            let second = digits(from: first.end + 1)
            guard (1...2).contains(second.end - first.end - 1), second.end < bytes.count, bytes[second.end] == 0x2F
            else {
                index = max(second.end, index + 1)
                continue
            }
            let year = digits(from: second.end + 1)
            if year.end - second.end - 1 == 4 {
                let text = String(decoding: bytes[index..<year.end], as: UTF8.self)
                found.append((first.value, second.value, text))
            }
            index = max(year.end, index + 1)
        }
        return found
    }
}

extension ImportValues {
    /// The slash-date order of each column (by `ImportRecord.key`) for the file being read: bound while its rows
    /// are read, so every format's reader reads `10/13/2022` the same way without each passing it along.
    @TaskLocal static var slashDateOrders: [String: SlashDateOrder] = [:]

    /// `m/d/yyyy` or `d/m/yyyy` as `yyyy-mm-dd` in the column's decided order; nil when undecided or no such day.
    static func slashDay(_ parts: [Substring], column: String) -> String? {
        guard let order = slashDateOrders[ImportRecord.key(column)], parts.count == 3,
            let first = Int(parts[0]), let second = Int(parts[1]), parts[2].count == 4, let year = Int(parts[2])
        else { return nil }
        let (month, day) = order == .monthFirst ? (first, second) : (second, first)
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        let text = "\(year)-\(two(month))-\(two(day))"
        return CalendarDate.isValidDay(text) ? text : nil
    }
}
