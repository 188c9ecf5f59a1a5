import Foundation
import HTTPTypes
import Logging
import OpenAIStandIns
import Synchronization
import Testing

@testable import MyDaySpeech

@Suite struct FaithfulnessGuardTests {
    let raw = "um so i went to the the market and uh bought some bread"

    @Test func punctuationCasingAndFillersMayChange() {
        #expect(FaithfulnessGuard.judge(raw: raw, cleaned: "So I went to the market and bought some bread.") == .faithful)
    }

    @Test func addedWordsAreRefused() {
        #expect(
            FaithfulnessGuard.judge(raw: raw, cleaned: "So I went to the lovely market and bought some fresh bread.")
                == .addsWords(["lovely", "fresh"]))
        #expect(
            FaithfulnessGuard.judge(raw: "", cleaned: "Thank you for watching.")
                == .addsWords(["thank", "you", "for", "watching"]))
    }

    @Test func droppingMoreThanASmallShareIsRefused() {
        #expect(FaithfulnessGuard.judge(raw: raw, cleaned: "I went to the market.") == .dropsTooMuch(5))
    }
}
