import Foundation

/// A loan as typed on the book page or sent through the API, with a message per field for what cannot be kept.
struct LoanForm: Sendable, Equatable {
    /// A member's id as text, or empty for someone outside the house.
    var member = ""
    var name = ""
    var lentOn = ""
    var dueOn = ""

    struct Valid: Sendable, Equatable {
        let memberID: Int64?
        /// Only for someone outside the house; a member's name is read from their account.
        let name: String?
        let lentOn: String
        let dueOn: String?
    }

    /// The loan to store, lent today when no day is given, or the messages. A member wins over a typed name.
    func validated(today: String) -> Result<Valid, FieldErrors> {
        var errors = FieldErrors()
        let memberID = member.isEmpty ? nil : BoundedNumber.id(member)
        if !member.isEmpty, memberID == nil {
            errors["name"] = localized("Choose someone from the list, or type a name.")
        }
        if memberID == nil, name.isEmpty, errors.isEmpty {
            errors["name"] = localized("Who is borrowing it? Choose a member of the house, or type their name.")
        }
        if name.count > LoanStore.maxNameLength || NewBookForm.hasControlCharacters(name) {
            errors["name"] = localized(
                "Keep the name to {{count}} characters, without invisible ones.",
                ["count": String(LoanStore.maxNameLength)])
        }
        let lentOn = lentOn.isEmpty ? today : lentOn
        if !CalendarDate.isValidDay(lentOn) || lentOn > today {
            errors["lent_on"] = localized("Give the day you lent it, today or before (yyyy-mm-dd).")
        }
        if !dueOn.isEmpty, !CalendarDate.isValidDay(dueOn) || dueOn < lentOn {
            errors["due_on"] = localized("The day it is due back comes on or after the day it was lent.")
        }
        guard errors.isEmpty else { return .failure(errors) }
        return .success(
            Valid(
                memberID: memberID, name: memberID == nil ? name : nil, lentOn: lentOn,
                dueOn: dueOn.isEmpty ? nil : dueOn))
    }
}
