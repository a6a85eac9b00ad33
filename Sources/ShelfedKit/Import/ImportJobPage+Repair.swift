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
            label: localized(
                one: "Import {{books}} book without their damaged ISBN",
                other: "Import {{books}} books without their damaged ISBN", count: count, ["books": String(count)]),
            rows: localized(
                one: "{{rows}} row has an ISBN", other: "{{rows}} rows have an ISBN", count: count,
                ["rows": String(count)]))
    }
}
