import ArgumentParser
import Foundation
import MyDayKit

/// `myday words`: the words My Day's recognizer is taught for you (names of people and places, rare words).
struct Words: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The words the recognizer should know: names of people and places, rare words.",
        discussion: """
            My Day also learns words from your titles, tags and corrections; each word shows where it came from. \
            A learned word you remove is not learned again.
            """,
        subcommands: [WordsList.self, WordsAdd.self, WordsRemove.self], defaultSubcommand: WordsList.self)
}

/// `myday words list`.
struct WordsList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Show every word and where it came from.")

    @OptionGroup var server: ServerOptions

    func run() async throws {
        let words = try await Workspace(options: server).core.client.vocabulary()
        Words.print(words)
    }
}

/// `myday words add WORD…`.
struct WordsAdd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add words (quote names with spaces).")

    @OptionGroup var server: ServerOptions
    @Argument(help: "The words, e.g. Siobhan \"Dún Laoghaire\".") var words: [String]

    func run() async throws {
        let client = try Workspace(options: server).core.client
        let current = try await client.vocabulary().map(\.text)
        let added = words.map { $0.trimmingCharacters(in: .whitespaces) }.filter { word in
            !word.isEmpty && !current.contains { VocabularyViewModel.sameWord($0, word) }
        }
        Words.print(try await client.replaceVocabulary(current + added))
    }
}

/// `myday words remove WORD…`.
struct WordsRemove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove words; learned ones are not learned again.")

    @OptionGroup var server: ServerOptions
    @Argument(help: "The words to remove.") var words: [String]

    func run() async throws {
        let client = try Workspace(options: server).core.client
        let current = try await client.vocabulary().map(\.text)
        let unknown = words.filter { word in !current.contains { VocabularyViewModel.sameWord($0, word) } }
        guard unknown.isEmpty else {
            throw CLIError("Not in your words: \(unknown.joined(separator: ", ")). Nothing was removed.")
        }
        Words.print(
            try await client.replaceVocabulary(
                current.filter { word in !words.contains { VocabularyViewModel.sameWord($0, word) } }))
    }
}

extension Words {
    static func print(_ words: [VocabularyWord]) {
        let output = Output()
        guard !words.isEmpty else {
            output.note("No words yet. Add some with: myday words add Siobhan \"Dún Laoghaire\"")
            return
        }
        let width = words.map(\.text.count).max() ?? 0
        for word in words {
            output.line(word.text.padding(toLength: width + 2, withPad: " ", startingAt: 0) + word.source.rawValue)
        }
    }
}
