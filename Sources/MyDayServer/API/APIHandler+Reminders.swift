import Foundation
import MyDayAPI

extension APIHandler {
    func getReminder(_ input: Operations.GetReminder.Input) async throws -> Operations.GetReminder.Output {
        let user = try RequestUser.required()
        guard let reminder = try await reminders.reminder(userID: user.id) else {
            throw APIError(status: .notFound, code: "not_found", message: "No reminder is set.")
        }
        return .ok(.init(body: .json(Self.schema(reminder))))
    }

    func setReminder(_ input: Operations.SetReminder.Input) async throws -> Operations.SetReminder.Output {
        guard case .json(let body) = input.body else { throw APIError.badRequest("Send a JSON body.") }
        let user = try RequestUser.required()
        guard let minute = Reminder.minute(of: body.time) else {
            throw APIError.unprocessable("'time' must be a time of day as HH:MM, 00:00 to 23:59.")
        }
        let days = Set(body.days.compactMap { Reminder.Weekday(rawValue: $0.rawValue) })
        guard !days.isEmpty, days.count == body.days.count else {
            throw APIError.unprocessable("'days' must name each day once: mon, tue, wed, thu, fri, sat, sun.")
        }
        _ = try Validation.timeZone(body.tz)
        let reminder = Reminder(
            userID: user.id, minuteOfDay: minute, zoneName: body.tz, days: days,
            email: body.email ?? false)
        try await reminders.save(reminder)
        return .ok(.init(body: .json(Self.schema(reminder))))
    }

    func deleteReminder(_ input: Operations.DeleteReminder.Input) async throws -> Operations.DeleteReminder.Output {
        try await reminders.delete(userID: try RequestUser.required().id)
        return .noContent(.init())
    }

    func stopReminders(_ input: Operations.StopReminders.Input) async throws -> Operations.StopReminders.Output {
        try await limits.authRequest(from: ClientAddress.current)
        guard let userID = parts.reminderStopTokens.userID(of: input.query.token) else {
            throw APIError.unprocessable("This stop link is not one of this server's: sign in to end your reminder.")
        }
        if try await reminders.delete(userID: userID) {
            logger.info("reminder stopped from its mail", metadata: ["user": "\(userID.lowercased)"])
        }
        return .noContent(.init())
    }

    static func schema(_ reminder: Reminder) -> Components.Schemas.Reminder {
        .init(
            time: reminder.time, tz: reminder.zoneName,
            days: Reminder.Weekday.allCases.filter(reminder.days.contains).compactMap { .init(rawValue: $0.rawValue) },
            email: reminder.email)
    }
}
