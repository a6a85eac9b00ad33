import Hummingbird

extension Request {
    /// The value of the cookie `name`, found by scanning the `Cookie` header for that one name: `request.cookies`
    /// parses every cookie into a dictionary on each use, and the session middleware, the language and the shelf's
    /// view each did so again (4–5 % of a list view). The first cookie of that name wins, as Hummingbird's does.
    func cookie(named name: String) -> Substring? {
        for header in headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let pair = pair.drop { $0 == " " }
                guard pair.hasPrefix(name), pair.dropFirst(name.count).first == "=" else { continue }
                return pair.dropFirst(name.count + 1)
            }
        }
        return nil
    }
}
