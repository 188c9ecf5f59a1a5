import Foundation
import GRDB

/// Why this device's diary could not be opened at launch, in words a person can act on, instead of a crash.
public struct DiaryUnavailable: Error, Sendable, Equatable {
    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        /// The device has no space left to open or write the diary.
        case outOfSpace
        /// The files are locked until the device is unlocked (a launch before the first unlock).
        case locked
        /// The diary's file is damaged.
        case damaged
        /// Anything else, with the system's own words.
        case other(String)
    }

    public let reason: Reason

    /// Reads `error`, as opening the store or the recording library threw it.
    public init(_ error: any Error) {
        reason = Self.reason(of: error)
    }

    /// The screen's title.
    public var title: String {
        switch reason {
        case .outOfSpace: "Your iPhone is full"
        case .locked: "Unlock your iPhone"
        case .damaged: "The diary on this iPhone is damaged"
        case .other: "My Day cannot open your diary"
        }
    }

    /// What happened and what to do; nothing is lost by waiting.
    public var message: String {
        switch reason {
        case .outOfSpace:
            "My Day needs a little space to open your diary. Free some in Settings › General › iPhone Storage, then "
                + "choose Try again. Your recordings are safe."
        case .locked:
            "Your diary is protected until this iPhone is unlocked once after it starts. Unlock it, then choose Try again."
        case .damaged:
            "Entries already on your server are safe there. Deleting and reinstalling My Day gets them back; recordings "
                + "not yet sent from this iPhone would be lost, so try again first after restarting the iPhone."
        case .other(let detail):
            "Restart your iPhone and try again. If it keeps happening, tell whoever runs your server what it says: "
                + detail
        }
    }

    private static func reason(of error: any Error) -> Reason {
        if let database = error as? DatabaseError {
            switch database.resultCode {
            case .SQLITE_FULL: return .outOfSpace
            case .SQLITE_CORRUPT, .SQLITE_NOTADB: return .damaged
            case .SQLITE_AUTH, .SQLITE_PERM: return .locked
            default: break
            }
        }
        let nsError = error as NSError
        if nsError.domain == NSCocoaErrorDomain, nsError.code == CocoaError.fileWriteOutOfSpace.rawValue { return .outOfSpace }
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError { return reason(of: underlying) }
        if nsError.domain == NSPOSIXErrorDomain {
            switch POSIXErrorCode(rawValue: Int32(nsError.code)) {
            case .ENOSPC, .EDQUOT: return .outOfSpace
            case .EACCES, .EPERM: return .locked
            default: break
            }
        }
        return .other(String(describing: error))
    }
}
