import ArgumentParser

/// `myday`: the My Day command-line client.
@main
struct MyDayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "myday",
        abstract: "My Day from the command line: add recordings and notes, sync, read, search, export.",
        discussion: "State lives in ~/.myday (or MYDAY_HOME). The server comes from --server, MYDAY_SERVER or the last login.",
        subcommands: [
            Register.self, Login.self, Logout.self, Add.self, ImportCommand.self, Note.self, Sync.self, List.self, Search.self,
            Show.self,
            PlayURL.self,
            Delete.self, RecentlyDeletedCommand.self, Export.self, DeleteExport.self, Stats.self, Status.self, Password.self,
            Email.self,
            SignIns.self, Words.self, Day.self, OnThisDayCommand.self, InsightsCommand.self,
            ReminderCommand.self, QuestionCommand.self,
        ]
    )
}
