import LocalAuthentication

/// Face ID, Touch ID or the iPhone's passcode, as iOS asks for them: what unlocks the diary when its lock is on.
enum DeviceOwnerCheck {
    /// Whether this iPhone can ask at all (it has a passcode at least).
    static var isAvailable: Bool {
        LAContext().canEvaluatePolicy(.deviceOwnerAuthentication, error: nil)
    }

    /// What the iPhone asks for, as the setting names it.
    static var methodName: String {
        let context = LAContext()
        _ = context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: nil)
        switch context.biometryType {
        case .faceID: return String(localized: "Face ID")
        case .touchID: return String(localized: "Touch ID")
        case .opticID: return String(localized: "Optic ID")
        default: return String(localized: "Passcode")
        }
    }

    /// Asks the person to prove who they are (biometrics, else the passcode); true when they did.
    static func confirm(reason: String) async -> Bool {
        let context = LAContext()
        return (try? await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: reason)) ?? false
    }
}
