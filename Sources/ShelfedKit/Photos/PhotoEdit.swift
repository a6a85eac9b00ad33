import Foundation

/// How a photo's display image is made from its untouched original (issue 24): turned by quarter turns clockwise,
/// then cropped by a fraction from each edge. "Undo all" is the empty edit.
struct PhotoEdit: Sendable, Equatable {
    /// What a crop keeps from each edge: fractions of the turned picture's width (left, right) and height (top,
    /// bottom).
    struct Crop: Sendable, Equatable {
        var left = 0.0
        var top = 0.0
        var right = 0.0
        var bottom = 0.0

        static let none = Crop()
        /// A crop must keep at least this much of each side, so a slip of a finger cannot leave a sliver.
        static let minimumKept = 0.1

        var isValid: Bool {
            [left, top, right, bottom].allSatisfy { $0.isFinite && $0 >= 0 }
                && 1 - left - right >= Self.minimumKept - 1e-9 && 1 - top - bottom >= Self.minimumKept - 1e-9
        }

        /// The same area of the picture after it is turned a quarter clockwise: the left edge becomes the top.
        var turnedClockwise: Crop { Crop(left: bottom, top: left, right: top, bottom: right) }
        var turnedCounterclockwise: Crop { Crop(left: top, top: right, right: bottom, bottom: left) }

        /// Percent from each edge, typed by a person, as fractions; nil for a number that is not one or a crop that
        /// leaves less than a tenth of a side.
        init?(percentLeft: String, top: String, right: String, bottom: String) {
            let values = [percentLeft, top, right, bottom].map { text -> Double? in
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty { return 0 }
                guard trimmed.count <= 8, let value = Double(trimmed), value.isFinite, (0...90).contains(value) else {
                    return nil
                }
                return value / 100
            }
            guard let left = values[0], let topValue = values[1], let rightValue = values[2],
                let bottomValue = values[3]
            else { return nil }
            self.init(left: left, top: topValue, right: rightValue, bottom: bottomValue)
            guard isValid else { return nil }
        }

        init(left: Double = 0, top: Double = 0, right: Double = 0, bottom: Double = 0) {
            self.left = left
            self.top = top
            self.right = right
            self.bottom = bottom
        }

        /// As a person reads it back: whole percents, or one decimal where needed.
        var percents: (left: String, top: String, right: String, bottom: String) {
            func spelled(_ fraction: Double) -> String {
                let percent = (fraction * 1000).rounded() / 10
                return percent == percent.rounded() ? String(Int(percent)) : String(percent)
            }
            return (spelled(left), spelled(top), spelled(right), spelled(bottom))
        }
    }

    /// Crops offered as buttons: the common cuts of a photo of an open book.
    enum Preset: String, CaseIterable, Sendable {
        case leftPage = "left-page"
        case rightPage = "right-page"
        case topHalf = "top-half"
        case bottomHalf = "bottom-half"
        case trimEdges = "trim-edges"

        /// A photo of an open book has pages; a scene or a ticket has halves.
        func label(for kind: TitleKind) -> String {
            switch self {
            case .leftPage: kind == .book ? localized("Left page") : localized("Left half")
            case .rightPage: kind == .book ? localized("Right page") : localized("Right half")
            case .topHalf: localized("Top half")
            case .bottomHalf: localized("Bottom half")
            case .trimEdges: localized("Trim the edges")
            }
        }

        var crop: Crop {
            switch self {
            case .leftPage: Crop(right: 0.5)
            case .rightPage: Crop(left: 0.5)
            case .topHalf: Crop(bottom: 0.5)
            case .bottomHalf: Crop(top: 0.5)
            case .trimEdges: Crop(left: 0.05, top: 0.05, right: 0.05, bottom: 0.05)
            }
        }
    }

    var quarterTurns = 0
    var crop = Crop.none

    var isNone: Bool { quarterTurns % 4 == 0 && crop == .none }

    /// Turned a quarter to the right (clockwise) or left, the crop keeping the same part of the picture.
    func turned(clockwise: Bool) -> PhotoEdit {
        PhotoEdit(
            quarterTurns: (quarterTurns + (clockwise ? 1 : 3)) % 4,
            crop: clockwise ? crop.turnedClockwise : crop.turnedCounterclockwise)
    }

    /// A turn as a form or the API names it: "left", "right", "upside-down", "none".
    static func turns(named name: String) -> Int? {
        switch name {
        case "", "none": 0
        case "right": 1
        case "upside-down": 2
        case "left": 3
        default: nil
        }
    }
}

extension PhotoEdit {
    /// An edit as the upload form and the photo page's crop form send it: `turn` (none, left, right, upside-down),
    /// then `crop_preset` or the percent cut from each edge (`crop_left`, `crop_top`, `crop_right`, `crop_bottom`).
    /// A message keyed `crop` for anything it cannot be.
    static func parse(_ field: (String) -> String?, startingFrom base: PhotoEdit = PhotoEdit())
        -> Result<PhotoEdit, FieldErrors>
    {
        var edit = base
        var errors = FieldErrors()
        if let name = field("turn") {
            if let turns = turns(named: name) {
                edit.quarterTurns = turns
            } else {
                errors["crop"] = localized("Choose how to turn the photo: left, right or upside down.")
            }
        }
        if let presetName = field("crop_preset"), !presetName.isEmpty {
            if let preset = Preset(rawValue: presetName) {
                edit.crop = preset.crop
            } else {
                errors["crop"] = localized("Choose one of the crops offered, or type how much to cut from each edge.")
            }
        } else if ["crop_left", "crop_top", "crop_right", "crop_bottom"].contains(where: { field($0) != nil }) {
            if let crop = Crop(
                percentLeft: field("crop_left") ?? "", top: field("crop_top") ?? "",
                right: field("crop_right") ?? "", bottom: field("crop_bottom") ?? "")
            {
                edit.crop = crop
            } else {
                let rule = localized(
                    "Cut from 0 to 90 percent from each edge, keeping at least a tenth of the photo across and down")
                errors["crop"] = rule + " " + localized("(left and right together at most 90, top and bottom too).")
            }
        }
        return errors.isEmpty ? .success(edit) : .failure(errors)
    }
}
