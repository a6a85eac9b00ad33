import Hummingbird

extension Request {
    /// The URL-encoded form in the body, decoded as `Form` by Hummingbird's `URLEncodedFormDecoder`. A body that is
    /// not a form, or one that cannot be read as `Form` (a field sent as a list, say), is a 400 with advice.
    mutating func decodeForm<Form: Decodable>(_ type: Form.Type) async throws -> Form {
        guard let contentType = headers[.contentType],
            contentType.lowercased().hasPrefix("application/x-www-form-urlencoded")
        else {
            throw HTTPError(.badRequest, message: "This page expects a form submission.")
        }
        let body = try await collectBody(upTo: CSRFMiddleware.maxFormBytes)
        do {
            return try URLEncodedFormDecoder().decode(Form.self, from: String(buffer: body))
        } catch {
            throw HTTPError(
                .badRequest, message: "This form could not be read. Go back, reload the page and try again.")
        }
    }
}

extension Request {
    /// The URL-encoded form in the body as typed, for forms read field by field (`FormFields`), within the size a
    /// form may have.
    mutating func formFields() async throws -> FormFields {
        FormFields(urlEncoded: String(buffer: try await collectBody(upTo: CSRFMiddleware.maxFormBytes)))
    }
}

extension KeyedDecodingContainer {
    /// A text field with surrounding whitespace removed; empty when the form did not send it.
    func trimmed(_ key: Key) throws -> String {
        try text(key).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A text field exactly as typed (passwords); empty when the form did not send it.
    func text(_ key: Key) throws -> String {
        try decodeIfPresent(String.self, forKey: key) ?? ""
    }

    /// A text field that is nil when absent or blank.
    func optionalTrimmed(_ key: Key) throws -> String? {
        let value = try trimmed(key)
        return value.isEmpty ? nil : value
    }
}
