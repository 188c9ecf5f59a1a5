import Testing

@testable import MyDayServer

/// A new password is not a common one, nor a common one dressed up with digits, symbols or look-alike letters.
@Suite struct CommonPasswordsTests {
    @Test func commonPasswordsAndTheirObviousVariantsAreRefused() {
        for refused in [
            "password", "Password", "password123", "welcome123", "letmein123", "P@ssw0rd", "!Dragon2024", "Sunshine!!",
            "123456789", "qwerty2026", "iloveyou!", "m0nkey12",
        ] {
            #expect(CommonPasswords.contains(refused), "\(refused)")
        }
        for accepted in [
            "correct horse battery", "a long diary password", "Tr0ub4dor&3x", "Siobhan's canal walk", "river-lunch-42-Przemek",
        ] {
            #expect(!CommonPasswords.contains(accepted), "\(accepted)")
        }
    }
}
