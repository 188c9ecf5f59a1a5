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
        let sources = DayDigest.sources(found)
        var digest = DayDigest.sentences(of: sources)
        if let writer = parts.groundedWriter, !sources.isEmpty, let written = await writer.digest(of: sources) {
            digest = written
        }
        let moods = found.compactMap(\.entry.mood)
        let tags = tagsByUse(found.flatMap(\.entry.tags))
        return .ok(
            .init(
                body: .json(
                    .init(
                        date: day.description, tz: zone?.identifier, entries: found.map { Self.schema($0.entry) }, tags: tags,
                        mood: DiaryInsights.mood(of: moods),
                        digest: digest.map {
                            .init(
                                text: $0.text, entryId: $0.entryID.lowercased, start: $0.start, byModel: $0.byModel ? true : nil)
                        }))))
    }
}

extension APIHandler {
    /// The longest span insights answer, in days.
    static let longestInsightSpan = 3_660

    func getOnThisDay(_ input: Operations.GetOnThisDay.Input) async throws -> Operations.GetOnThisDay.Output {
        let user = try RequestUser.required()
        let date = try day(input.query.date, named: "date") ?? today(in: input.query.tz)
        let first = try await entries.daysWithEntries(userID: user.id).min()
        let lookbacks = OnThisDay.lookbacks(before: date, earliestYear: first?.year ?? date.year)
        let found = try await entries.entries(onDays: lookbacks.flatMap(\.days), userID: user.id)
        let days = lookbacks.compactMap { lookback -> Components.Schemas.PastDay? in
            let held = found.filter { lookback.days.contains($0.day) }
            guard let day = held.first?.day else { return nil }
            return .init(
                date: day.description, ago: .init(unit: .init(rawValue: lookback.unit.rawValue)!, count: lookback.count),
                entries: held.map { Self.schema($0.entry) })
        }
        return .ok(.init(body: .json(.init(date: date.description, days: days))))
    }

    func getInsights(_ input: Operations.GetInsights.Input) async throws -> Operations.GetInsights.Output {
        let user = try RequestUser.required()
        let today = try today(in: input.query.tz)
        let to = try day(input.query.to, named: "to") ?? today
        let from = try day(input.query.from, named: "from") ?? to.adding(days: -364)
        guard from <= to else { throw APIError.unprocessable("'from' must not be after 'to'.") }
        guard from.adding(days: Self.longestInsightSpan - 1) >= to else {
            throw APIError.unprocessable("A span of at most \(Self.longestInsightSpan) days, please.")
        }
        let insights = DiaryInsights(
            entries: try await entries.insightEntries(in: LocalDayRange(from: from, to: to), userID: user.id),
            diaryDays: try await entries.daysWithEntries(userID: user.id), today: today)
        func mentions(_ list: [Mentions.Mention]) -> [Components.Schemas.Mention] {
            list.map { .init(text: $0.text, count: $0.count) }
        }
        return .ok(
            .init(
                body: .json(
                    .init(
                        from: from.description, to: to.description,
                        days: insights.days.map {
                            .init(
                                date: $0.date.description, entries: $0.entries, seconds: $0.seconds, words: $0.words,
                                mood: $0.mood)
                        },
                        currentStreakDays: insights.streaks.current, longestStreakDays: insights.streaks.longest,
                        mentions: .init(
                            people: mentions(insights.mentions.people), places: mentions(insights.mentions.places),
                            topics: mentions(insights.mentions.topics))))))
    }

    func getQuestion(_ input: Operations.GetQuestion.Input) async throws -> Operations.GetQuestion.Output {
        let user = try RequestUser.required()
        let today = try today(in: input.query.tz)
        let days = (0...GentleQuestion.daysBack).map { today.adding(days: -$0) }
        let sources = try await entries.entries(onDays: days, userID: user.id).compactMap { day, entry in
            entry.transcriptClean.map {
                GentleQuestion.Source(entryID: entry.id, day: day, createdAt: entry.createdAt, text: entry.noSpeech ? "" : $0)
            }
        }
        guard let question = GentleQuestion.make(from: sources, today: today) else { return .noContent(.init()) }
        return .ok(
            .init(
                body: .json(
                    .init(
                        text: question.text, phrase: question.phrase, entryId: question.entryID.lowercased,
                        date: question.day.description))))
    }

    /// A day the client named, or nil when it named none.
    private func day(_ text: String?, named name: String) throws -> LocalDay? {
        guard let text else { return nil }
        guard let day = LocalDay(iso: text) else {
            throw APIError.unprocessable("'\(name)' must be a day that exists, as YYYY-MM-DD.")
        }
        return day
    }

    /// Today in the client's time zone (UTC when it sent none).
    private func today(in tz: String?) throws -> LocalDay {
        LocalDay(clock(), in: try tz.map(Validation.timeZone) ?? .gmt)
    }
}
