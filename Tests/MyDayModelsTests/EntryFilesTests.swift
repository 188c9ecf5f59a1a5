import Foundation
import MyDayModels
import Testing

@Suite struct EntryFilesTests {
    @Test func aTitleBecomesAFileNamePartEveryDiskTakes() {
        #expect(EntryFiles.fileNamePart("Walk: by the river?") == "Walk by the river")
        #expect(EntryFiles.fileNamePart("..hidden/and\\back") == "hidden and back")
        // Sixty emoji are 240 bytes: cut at 150, so that the name with its time and extension stays under 255
        let emoji = EntryFiles.fileNamePart(String(repeating: "🌊", count: 60))
        #expect(emoji == String(repeating: "🌊", count: 37) && emoji.utf8.count == 148)
        // The joiners inside a Persian word and a family emoji stay; a right-to-left override goes
        #expect(EntryFiles.fileNamePart("می\u{200C}خواهم") == "می\u{200C}خواهم")
        #expect(EntryFiles.fileNamePart("👩\u{200D}👧 day") == "👩\u{200D}👧 day")
        #expect(EntryFiles.fileNamePart("photo\u{202E}gpj.exe") == "photo gpj.exe")
        #expect(EntryFiles.fileNamePart(String(repeating: "a", count: 80)).count == 60)
    }
}
