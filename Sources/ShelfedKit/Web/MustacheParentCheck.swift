import Mustache

/// Pages looked up many times per render answer Mustache through `MustacheParent` instead of a `Mirror` per key
/// (measured: the Mirror lookups were a quarter of the home page's CPU). A hand-written `child(named:)` can forget a
/// field, which would render as nothing without any error; so in debug builds — every test — each page is walked
/// before it is rendered, and a field its `child(named:)` does not answer the same as the struct holds stops the
/// render.
enum MustacheParentCheck {
    struct Mismatch: Error, CustomStringConvertible {
        let type: String
        let field: String
        var description: String { "\(type).child(named: \"\(field)\") does not answer the field \(field)." }
    }

    static func verify(_ value: Any, depth: Int = 0) throws {
        guard depth < 8 else { return }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            if let some = mirror.children.first?.value { try verify(some, depth: depth) }
            return
        }
        if mirror.displayStyle == .collection {
            // The first element speaks for its type.
            if let first = mirror.children.first?.value { try verify(first, depth: depth + 1) }
            return
        }
        guard mirror.displayStyle == .struct else { return }
        let parent = value as? any MustacheParent
        for child in mirror.children {
            guard let label = child.label else { continue }
            if let parent, !(value is [String: Any]) {
                let answered = describe(parent.child(named: label) as Any)
                guard answered == describe(child.value) else {
                    throw Mismatch(type: String(describing: type(of: value)), field: label)
                }
            }
            try verify(child.value, depth: depth + 1)
        }
    }

    /// The value with every level of optional taken off, as text.
    private static func describe(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return String(describing: value) }
        guard let some = mirror.children.first?.value else { return "nil" }
        return describe(some)
    }
}
