import Foundation

extension Int {
    /// "12,345": a count as a page shows it, with thousands separated whatever the server's own locale (a service
    /// often runs with none, where `formatted()` would print "12345").
    var grouped: String {
        formatted(.number.grouping(.automatic).locale(Locale(identifier: "en")))
    }
}
