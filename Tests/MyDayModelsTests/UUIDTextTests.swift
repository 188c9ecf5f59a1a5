import Foundation
import MyDayModels
import Testing

/// The hand-written UUID text agrees with Foundation's, both ways, and refuses what is no UUID (Foundation's `sscanf`
/// lets a leading space through; this does not).
@Suite struct UUIDTextTests {
    @Test func writesAndReadsAsFoundationDoes() {
        for _ in 0..<2000 {
            let id = UUID()
            #expect(id.lowercasedString == id.uuidString.lowercased())
            #expect(UUID(text: id.lowercasedString) == id)
            #expect(UUID(text: id.uuidString) == id)
        }
        let edges = UUID(uuid: (0, 0xff, 0x0f, 0xf0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xa5, 0x5a))
        #expect(edges.lowercasedString == "00ff0ff0-0000-0000-0000-00000000a55a")
    }

    @Test(arguments: [
        "", "5f0c", "5f0c1a2b-3c4d-5e6f-7a8b-9c0d1e2f3a4", "5f0c1a2b-3c4d-5e6f-7a8b-9c0d1e2f3a4bb",
        "5f0c1a2b+3c4d-5e6f-7a8b-9c0d1e2f3a4b", "5f0c1a2b-3c4d-5e6f-7a8b9c0d-1e2f3a4b", "5g0c1a2b-3c4d-5e6f-7a8b-9c0d1e2f3a4b",
        "5f0c1a2b-3c4d-5e6f-7a8b-9c0d1e2f3a4é", " f0c1a2b-3c4d-5e6f-7a8b-9c0d1e2f3a4b",
    ])
    func refusesWhatIsNoUUID(_ text: String) {
        #expect(UUID(text: text) == nil)
    }
}
