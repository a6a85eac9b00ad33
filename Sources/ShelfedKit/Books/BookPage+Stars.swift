import Foundation

/// The review form's star input: no rating, five whole stars and the quarter steps between them, one radio group,
/// written as ready HTML.
extension BookPage {
    /// One radio of the star input: `shown` on the button, `spoken` to a screen reader, and the whole stars it
    /// fills (`filled`, for the CSS that colours them).
    struct StarChoice: Sendable {
        let id: String
        let value: String
        let shown: String
        let spoken: String
        let filled: Int
        let checked: Bool
    }

    /// One radio and its label per choice; a whole star's label is coloured by how many stars it fills.
    static func radios(_ choices: [StarChoice], whole: Bool) -> HTMLFragment {
        var html = HTMLFragment()
        for choice in choices {
            let checked: HTMLFragment = choice.checked ? " checked" : ""
            let fills: HTMLFragment = whole ? " s\(choice.filled)" : ""
            html += """
                <input type="radio" class="star-radio f\(choice.filled)" id="\(choice.id)" name="rating" \
                value="\(choice.value)"\(checked)><label for="\(choice.id)" class="star-choice\(fills)">\
                <span aria-hidden="true">\(choice.shown)</span><span class="visually-hidden">\(choice.spoken)</span></label>
                """
        }
        return html
    }
}

extension BookPage.QuickRating {
    /// The five star buttons as markup (forty lookups through Mustache before; issue 36, part 9).
    var starsHTML: HTMLFragment {
        var html = HTMLFragment()
        for star in stars {
            let on: HTMLFragment = star.on ? " is-on" : ""
            let pressed: HTMLFragment = star.pressed ? "true" : "false"
            let shown: HTMLFragment = star.on ? "★" : "☆"
            html += """
                <button type="submit" name="rating" value="\(star.value)" class="quick-star\(on)" \
                aria-label="\(star.label)" aria-pressed="\(pressed)"><span aria-hidden="true">\(shown)</span></button>
                """
        }
        return html
    }
}
