import Foundation
import MyDayAPI
import MyDaySearch

extension APIHandler {
    func getDay(_ input: Operations.GetDay.Input) async throws -> Operations.GetDay.Output {
        let user = try RequestUser.required()
        guard let day = LocalDay(iso: input.path.date) else {
            throw APIError.unprocessable("'date' must be a day that exists, as YYYY-MM-DD.")
        }
        let zone = try input.query.tz.map(Validation.timeZone)
        let found = try await entries.day(day, userID: user.id)
        let sources = found.compactMap { entry, words -> DayDigest.Source? in
            guard let text = entry.transcriptClean, !entry.noSpeech, !text.isEmpty else { return nil }
            return DayDigest.Source(
                entryID: entry.id, createdAt: entry.createdAt, text: text, heard: words, isAudio: entry.kind == .audio)
        }
        let moods = found.compactMap(\.entry.mood)
        var tagCounts: [String: Int] = [:]
        for tag in found.flatMap(\.entry.tags) { tagCounts[tag, default: 0] += 1 }
        let tags = tagCounts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map(\.key)
        return .ok(
            .init(
                body: .json(
                    .init(
                        date: day.description, tz: zone?.identifier, entries: found.map { Self.schema($0.entry) }, tags: tags,
                        mood: moods.isEmpty
                            ? nil : Int((Double(moods.reduce(0, +)) / Double(moods.count)).rounded(.toNearestOrAwayFromZero)),
                        digest: DayDigest.sentences(of: sources).map {
                            .init(text: $0.text, entryId: $0.entryID.lowercased, start: $0.start)
                        }))))
    }
}
