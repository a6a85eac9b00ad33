import Foundation

/// A list's name and description as a person types them, on the web or through the API, with the messages for what
/// cannot be kept.
struct ListForm: Sendable, Equatable {
    var name = ""
    var description = ""

    /// The name and description to store (an empty description is none), or a message per field.
    func validated() -> Result<(name: String, description: String?), FieldErrors> {
        var errors = FieldErrors()
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        let description = description.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty {
            errors["name"] = localized("Give the list a name, such as “Summer reading”.")
        } else if name.count > ReadingListStore.maxNameLength {
            errors["name"] = localized(
                "Keep the name to {{max}} characters; it has {{length}}. A longer thought fits in the description.",
                ["max": String(ReadingListStore.maxNameLength), "length": String(name.count)])
        } else if NewBookForm.hasControlCharacters(name) {
            errors["name"] = localized("The name has characters that cannot be shown. Type it again without them.")
        }
        if description.count > ReadingListStore.maxDescriptionLength {
            errors["description"] = localized(
                "Keep the description to {{max}} characters; it has {{length}}.",
                [
                    "max": CatalogLimits.spelled(ReadingListStore.maxDescriptionLength),
                    "length": CatalogLimits.spelled(description.count),
                ])
        } else if NewBookForm.hasControlCharacters(description, allowingLineBreaks: true) {
            errors["description"] = localized(
                "The description has characters that cannot be shown. Type it again without them.")
        }
        guard errors.isEmpty else { return .failure(errors) }
        return .success((name, description.isEmpty ? nil : description))
    }

    /// What a store refusal says, against the field at fault.
    static func errors(for failure: ReadingListStore.Failure) -> FieldErrors {
        var errors = FieldErrors()
        switch failure {
        case .duplicateName: errors["name"] = localized("You already have a list of that name. Choose another name.")
        case .tooManyLists:
            errors["name"] = localized(
                "You have {{max}} lists, as many as Shelfed keeps. Delete one you no longer use.",
                ["max": String(ReadingListStore.maxLists)])
        }
        return errors
    }
}
