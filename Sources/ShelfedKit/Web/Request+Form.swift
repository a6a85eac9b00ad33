import Hummingbird

extension Request {
    /// Reads a URL-encoded form body; anything else is a malformed request (400).
    mutating func formFields() async throws -> FormFields {
        guard let contentType = headers[.contentType],
            contentType.lowercased().hasPrefix("application/x-www-form-urlencoded")
        else {
            throw HTTPError(.badRequest, message: "This page expects a form submission.")
        }
        let body = try await collectBody(upTo: CSRFMiddleware.maxFormBytes)
        return FormFields(urlEncoded: String(buffer: body))
    }
}
