import MyDayKit
import MyDayModels
import Testing

@Suite struct SearchFiltersTests {
    @Test func moodsStayInOrderAndAKindIsShownAloneOrNot() {
        // Given no filter
        var filters = SearchFilters()
        // When moods 4, 1 and 2 are turned on and 4 off again, then they are 1 and 2, in order, each once
        filters.show(mood: 4, true)
        filters.show(mood: 1, true)
        filters.show(mood: 2, true)
        filters.show(mood: 2, true)
        filters.show(mood: 4, false)
        #expect(filters.moods == [1, 2])
        // When recordings alone are shown, then typed entries are not, until the toggle is off again
        filters.show(only: .audio, true)
        #expect(filters.showsOnly(.audio) && !filters.showsOnly(.text))
        filters.show(only: .text, true)
        #expect(filters.kind == .text)
        filters.show(only: .text, false)
        #expect(filters.kind == nil && !filters.isEmpty)
    }
}
