import MyDayAPI

extension APIHandler {
    /// Never reached: `EntryListResponder` answers every `GET /v1/entries` (ADR 0026).
    func listEntries(_ input: Operations.ListEntries.Input) async throws -> Operations.ListEntries.Output {
        throw AnsweredByResponder()
    }

    /// Never reached: `SearchResponder` answers every `GET /v1/search` (ADR 0026).
    func searchEntries(_ input: Operations.SearchEntries.Input) async throws -> Operations.SearchEntries.Output {
        throw AnsweredByResponder()
    }
}

/// A generated route reached although a responder ahead of it answers its operation: a server error.
struct AnsweredByResponder: Error {}
