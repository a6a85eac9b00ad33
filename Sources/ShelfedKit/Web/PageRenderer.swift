import Hummingbird
import Mustache

/// Renders typed page view models through the Mustache templates in `templates/`.
public struct PageRenderer: Sendable {
    let library: MustacheLibrary

    /// Loads every template at start-up so a missing or broken one stops the server instead of a page.
    public init(directory: String) async throws {
        self.library = try await MustacheLibrary(directory: directory)
    }

    /// Renders `page` with the template named `feature/action`.
    public func render(_ page: some Sendable, template: String, status: HTTPResponse.Status = .ok) throws -> HTML {
        guard let body = library.render(page, withTemplate: template) else {
            throw MissingTemplate(name: template)
        }
        return HTML(body, status: status)
    }

    public struct MissingTemplate: Error, CustomStringConvertible {
        public let name: String
        public var description: String { "Template '\(name).mustache' is missing from the templates folder." }
    }
}
