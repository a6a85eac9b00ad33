extension ImportJobPage {
    /// "Import 12 books without their damaged ISBN" (issue 35): the one action for the rows whose ISBN a spreadsheet
    /// damaged beyond what the row's other columns can repair, instead of a form per row.
    struct WithoutDamagedISBNs: Sendable {
        let path: String
        let label: String
        let rows: String
    }

    mutating func offerWithoutDamagedISBNs(_ count: Int) {
        guard count > 0 else { return }
        withoutDamagedISBNs = WithoutDamagedISBNs(
            path: Route.importWithoutDamagedISBNs.link(job.id),
            label: "Import " + Self.count(count, "book", "books") + " without their damaged ISBN",
            rows: Self.count(count, "row has an ISBN", "rows have an ISBN"))
    }
}
