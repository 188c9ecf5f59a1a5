import MyDaySearch
import SwiftUI

extension Highlight {
    /// The text with its matches (UTF-16 offsets) bold on a soft accent; a range that does not fit the text is left out.
    var attributed: AttributedString {
        var attributed = AttributedString(text)
        let length = text.utf16.count
        for match in matches where match.lowerBound >= 0 && match.upperBound <= length {
            let lower = String.Index(utf16Offset: match.lowerBound, in: text)
            let upper = String.Index(utf16Offset: match.upperBound, in: text)
            guard let range = Range<AttributedString.Index>(lower..<upper, in: attributed) else { continue }
            attributed[range].inlinePresentationIntent = .stronglyEmphasized
            attributed[range][AttributeScopes.SwiftUIAttributes.BackgroundColorAttribute.self] = Color.accentColor.opacity(0.18)
        }
        return attributed
    }
}
