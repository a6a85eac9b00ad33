import Foundation
import Hummingbird
import Synchronization
import Yams

/// Serves `Resources/openapi.yaml` and a reference page made from it at `/api/docs`, which needs no internet
/// (no script, no CDN): the page is built once, on first request, from the same file the tests check.
struct APIDocsController: Sendable {
    let specFile: URL
    let renderer: PageRenderer
    private let built = BuiltPage()

    /// The page once built; a class so the controller can stay a value.
    final class BuiltPage: Sendable {
        let body = Mutex<HTMLFragment?>(nil)
    }

    init(specFile: URL, renderer: PageRenderer) {
        self.specFile = specFile
        self.renderer = renderer
    }

    func addRoutes(to router: RouterGroup<AppRequestContext>) {
        router.get(APIRoute.openAPI.routerPath, use: spec)
        router.get(APIRoute.docs.routerPath, use: docs)
    }

    /// GET /api/openapi.yaml
    @Sendable func spec(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await FileIO().loadFile(path: specFile.path, context: context)
        return Response(
            status: .ok, headers: [.contentType: "application/yaml; charset=utf-8", .cacheControl: "no-cache"],
            body: body)
    }

    /// GET /api/docs
    @Sendable func docs(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body: HTMLFragment
        if let cached = built.body.withLock({ $0 }) {
            body = cached
        } else {
            let text = try String(contentsOf: specFile, encoding: .utf8)
            guard let spec = try Yams.load(yaml: text) as? [String: Any] else {
                throw HTTPError(.internalServerError, message: localized("The API description could not be read."))
            }
            body = APIDocsPage(spec: spec).body
            built.body.withLock { $0 = body }
        }
        let chrome = PageChrome(title: "API reference", context: context)
        var response = try renderer.render(body: body, chrome: chrome, template: "api/docs").response
        response.headers[.cacheControl] = "no-cache"
        return response
    }
}

/// The reference page's body: every operation with its parameters, body and answers, then every schema.
struct APIDocsPage {
    let spec: [String: Any]

    static let methods = ["get", "post", "patch", "put", "delete"]

    var body: HTMLFragment {
        let info = spec["info"] as? [String: Any] ?? [:]
        var html: HTMLFragment = """
            <h1>\(info["title"] as? String ?? "API") reference</h1>
            <p class="muted">OpenAPI \(spec["openapi"] as? String ?? "") · version \(info["version"] as? String ?? "") · \
            <a href="/api/openapi.yaml">openapi.yaml</a></p>
            \(Self.paragraphs(info["description"] as? String ?? ""))
            """
        let paths = spec["paths"] as? [String: Any] ?? [:]
        html += "<h2>Endpoints</h2>"
        for path in paths.keys.sorted() {
            guard let item = paths[path] as? [String: Any] else { continue }
            let shared = item["parameters"] as? [[String: Any]] ?? []
            for method in Self.methods {
                guard let operation = item[method] as? [String: Any] else { continue }
                html += operationHTML(method: method, path: path, operation: operation, shared: shared)
            }
        }
        let components = spec["components"] as? [String: Any] ?? [:]
        let shared = components["responses"] as? [String: Any] ?? [:]
        html += "<h2>Shared answers</h2>"
        for name in shared.keys.sorted() {
            let response = shared[name] as? [String: Any] ?? [:]
            let schema = ((response["content"] as? [String: Any])?["application/json"] as? [String: Any])?["schema"]
            html += """
                <section class="api-schema" id="response-\(name)"><h3>\(name)</h3>\
                <p>\(response["description"] as? String ?? "")</p>\(schemaHTML(schema))</section>
                """
        }
        let schemas = components["schemas"] as? [String: Any] ?? [:]
        html += "<h2>Schemas</h2>"
        for name in schemas.keys.sorted() {
            html +=
                "<section class=\"api-schema\" id=\"schema-\(name)\"><h3>\(name)</h3>\(schemaHTML(schemas[name]))</section>"
        }
        return html
    }

    private func operationHTML(method: String, path: String, operation: [String: Any], shared: [[String: Any]])
        -> HTMLFragment
    {
        let anchor = operation["operationId"] as? String ?? method + path
        var html: HTMLFragment = """
            <section class="api-operation" id="\(anchor)">
            <h3><span class="api-method">\(method.uppercased())</span> <code>\(path)</code></h3>
            <p><strong>\(operation["summary"] as? String ?? "")</strong></p>
            \(Self.paragraphs(operation["description"] as? String ?? ""))
            """
        let parameters = (shared + (operation["parameters"] as? [[String: Any]] ?? [])).map(resolve)
        if !parameters.isEmpty {
            html += "<h4>Parameters</h4><ul>"
            for parameter in parameters {
                let required = parameter["required"] as? Bool == true ? " (required)" : ""
                html += """
                    <li><code>\(parameter["name"] as? String ?? "")</code> in \(parameter["in"] as? String ?? "")\
                    \(required): \(typeText(parameter["schema"]))</li>
                    """
            }
            html += "</ul>"
        }
        if let requestBody = operation["requestBody"] as? [String: Any],
            let content = requestBody["content"] as? [String: Any]
        {
            html += "<h4>Request body</h4>"
            for (type, media) in content.sorted(by: { $0.key < $1.key }) {
                html += "<p><code>\(type)</code></p>\(schemaHTML((media as? [String: Any])?["schema"]))"
            }
        }
        let responses = operation["responses"] as? [String: Any] ?? [:]
        html += "<h4>Responses</h4><ul>"
        for code in responses.keys.sorted() {
            let entry = responses[code] as? [String: Any] ?? [:]
            let response = resolve(entry)
            let shared = (entry["$ref"] as? String).flatMap { $0.split(separator: "/").last.map(String.init) }
            let link: HTMLFragment = shared.map { " (<a href=\"#response-\($0)\">\($0)</a>)" } ?? ""
            html += "<li><code>\(code)</code> \(response["description"] as? String ?? "")\(link)</li>"
        }
        html += "</ul></section>"
        return html
    }

    /// A schema's properties as a list (type, required, description), or its type when it has none.
    private func schemaHTML(_ value: Any?) -> HTMLFragment {
        guard let schema = value as? [String: Any] else { return "" }
        if let reference = schema["$ref"] as? String {
            let name = reference.split(separator: "/").last.map(String.init) ?? reference
            return "<p>See <a href=\"#schema-\(name)\">\(name)</a>.</p>"
        }
        if let parts = schema["allOf"] as? [Any] {
            return parts.reduce(into: HTMLFragment()) { $0 += schemaHTML($1) }
        }
        guard let properties = schema["properties"] as? [String: Any] else {
            return "<p>\(typeText(schema))</p>"
        }
        let required = Set(schema["required"] as? [String] ?? [])
        var html: HTMLFragment = "<ul class=\"api-properties\">"
        for name in properties.keys.sorted() {
            let property = properties[name] as? [String: Any] ?? [:]
            let mark = required.contains(name) ? " (always present)" : ""
            let note = (property["description"] as? String).map { " — " + $0 } ?? ""
            let nested: HTMLFragment = property["properties"] != nil ? schemaHTML(property) : ""
            html += "<li><code>\(name)</code>: \(typeText(property))\(mark)\(note)\(nested)</li>"
        }
        html += "</ul>"
        return html
    }

    /// `string`, `integer or null`, `array of BookDTO`, `one of 1, 2, 3`…
    private func typeText(_ value: Any?) -> String {
        guard let schema = value as? [String: Any] else { return "any" }
        if let reference = schema["$ref"] as? String {
            return reference.split(separator: "/").last.map(String.init) ?? reference
        }
        if let values = schema["enum"] as? [Any] { return "one of " + values.map { "\($0)" }.joined(separator: ", ") }
        if let constant = schema["const"] { return "always \(constant)" }
        if let options = schema["oneOf"] as? [Any] { return options.map(typeText).joined(separator: " or ") }
        let types = (schema["type"] as? [String]) ?? (schema["type"] as? String).map { [$0] } ?? ["any"]
        return types.map { type in
            type == "array" ? "array of " + typeText(schema["items"]) : type
        }.joined(separator: " or ")
    }

    private func resolve(_ object: [String: Any]) -> [String: Any] {
        guard let reference = object["$ref"] as? String, reference.hasPrefix("#/") else { return object }
        var node: Any? = spec
        for part in reference.dropFirst(2).split(separator: "/") { node = (node as? [String: Any])?[String(part)] }
        return node as? [String: Any] ?? object
    }

    /// The spec's descriptions: paragraphs at blank lines, `* ` lines as a list, `code` and **strong** spans.
    static func paragraphs(_ text: String) -> HTMLFragment {
        var html = HTMLFragment()
        for block in text.components(separatedBy: "\n\n") {
            let lines = block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            guard !lines.isEmpty else { continue }
            if lines[0].hasPrefix("* ") {
                // A list item continues on the following lines until the next `* `.
                var items: [String] = []
                for line in lines {
                    if line.hasPrefix("* ") {
                        items.append(String(line.dropFirst(2)))
                    } else {
                        items[items.count - 1] += " " + line
                    }
                }
                html += "<ul>"
                for item in items { html += "<li>\(inline(item))</li>" }
                html += "</ul>"
            } else {
                html += "<p>\(inline(lines.joined(separator: " ")))</p>"
            }
        }
        return html
    }

    private static func inline(_ text: String) -> HTMLFragment {
        var html = HTMLFragment()
        for (index, part) in text.split(separator: "`", omittingEmptySubsequences: false).enumerated() {
            if index % 2 == 1 {
                html += "<code>\(String(part))</code>"
                continue
            }
            for (strongIndex, piece) in part.components(separatedBy: "**").enumerated() {
                html += strongIndex % 2 == 1 ? "<strong>\(piece)</strong>" : "\(piece)"
            }
        }
        return html
    }
}
