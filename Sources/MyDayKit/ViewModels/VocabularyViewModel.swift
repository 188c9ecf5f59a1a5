import Foundation
import MyDaySearch
import Observation

/// "Words My Day should know": the person's vocabulary, where each word came from, adding and removing words.
/// Each change is saved at once; the list shown is the server's answer.
@MainActor
@Observable
public final class VocabularyViewModel {
    /// At most this many words, of at most `longestWord` characters (the server's limits).
    public static let capacity = 500
    public static let longestWord = 50

    public private(set) var words: [VocabularyWord] = []
    /// The word being typed, added with `add()`.
    public var newWord = ""
    public private(set) var errorMessage: String?
    public private(set) var isSaving = false

    private let core: ClientCore

    public init(core: ClientCore) {
        self.core = core
    }

    public func load() async {
        do {
            words = try await core.client.vocabulary()
            errorMessage = nil
        } catch {
            errorMessage = LibraryViewModel.message(for: error)
        }
    }

    /// The words typed in the field, split at commas and trimmed.
    private var typedWords: [String] {
        newWord.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }

    /// The field holds a word to add (", ," holds none), and no change is being saved.
    public var canAdd: Bool { !typedWords.isEmpty && !isSaving }

    /// Adds the typed word (or several, separated by commas); refuses what the server would refuse, before asking it.
    public func add() async {
        let typed = typedWords
        guard !typed.isEmpty else { return }
        if let long = typed.first(where: { $0.count > Self.longestWord }) {
            errorMessage = "“\(long.prefix(20))…” is longer than \(Self.longestWord) characters."
            return
        }
        let fresh = typed.filter { word in !words.contains { Self.sameWord($0.text, word) } }
        guard words.count + fresh.count <= Self.capacity else {
            errorMessage = "The list holds at most \(Self.capacity) words; remove some first."
            return
        }
        let saved = await save { current in
            current.map(\.text) + typed.filter { word in !current.contains { Self.sameWord($0.text, word) } }
        }
        if saved { newWord = "" }
    }

    /// Removes a word; one learned from titles, tags or corrections is not learned again.
    public func remove(_ word: VocabularyWord) async {
        _ = await save { current in current.map(\.text).filter { !Self.sameWord($0, word.text) } }
    }

    /// Where a word came from, as the list says it.
    public static func sourceText(_ source: VocabularyWord.Source) -> String {
        switch source {
        case .you: "Added by you"
        case .title: "From a title"
        case .tag: "From a tag"
        case .correction: "From a correction"
        }
    }

    /// Saves `change` made to the list as the server has it now: a word learned since the list was shown (a title
    /// written on another device) is kept, not taken for one the person removed, which is never learned again.
    private func save(_ change: ([VocabularyWord]) -> [String]) async -> Bool {
        isSaving = true
        defer { isSaving = false }
        do {
            words = try await core.client.replaceVocabulary(change(try await core.client.vocabulary()))
            errorMessage = nil
            return true
        } catch {
            errorMessage = LibraryViewModel.message(for: error)
            return false
        }
    }

    /// Whether two spellings are one word of the list: case and accents aside, as the server keys them.
    nonisolated public static func sameWord(_ one: String, _ other: String) -> Bool {
        SearchText.nameKey(one) == SearchText.nameKey(other)
    }
}
