import Foundation
import MyDayTestSupport
import Testing

@testable import MyDayKit

@MainActor
@Suite("BackgroundEventsCompletion: iOS's handler is called soon", .timeLimit(.minutes(1)))
struct BackgroundEventsCompletionTests {
    /// What happened, in order.
    @MainActor final class Log {
        var lines: [String] = []
    }

    @Test func theHandlerIsCalledOnceTheEventsAndAShortFollowUpHaveRun() async {
        // Given a handler handed over before the session delivered its events, and a limit that never passes
        let log = Log()
        let never = Gate()
        let completion = BackgroundEventsCompletion(
            followUp: { log.lines.append("follow-up") }, sleep: { _ in await never.wait() })
        await completion.received { log.lines.append("handler") }
        #expect(log.lines.isEmpty)

        // When the session says every event was delivered, then the follow-up runs and the handler is called, once
        await completion.eventsDelivered()
        await completion.eventsDelivered()
        #expect(log.lines == ["follow-up", "handler"])
    }

    @Test func aFollowUpThatTakesTooLongDoesNotHoldTheHandler() async {
        // Given a follow-up that would wait for every queued upload (it never ends here), and a limit that passes at once
        let log = Log()
        let never = Gate()
        let completion = BackgroundEventsCompletion(
            followUp: {
                log.lines.append("follow-up began")
                await never.wait()
                log.lines.append("follow-up ended")
            }, sleep: { _ in })
        await completion.received { log.lines.append("handler") }

        // When the events are delivered, then the handler is called without waiting for the follow-up
        await completion.eventsDelivered()
        #expect(log.lines.last == "handler")
        #expect(!log.lines.contains("follow-up ended"))
    }

    @Test func aHandlerThatComesAfterTheEventsRunsTheSameFollowUpFirst() async {
        // Given a session that delivered its events before iOS handed over the handler (it is made at launch), and a
        // limit that never passes
        let log = Log()
        let never = Gate()
        let completion = BackgroundEventsCompletion(
            followUp: { log.lines.append("follow-up") }, sleep: { _ in await never.wait() })
        await completion.eventsDelivered()
        #expect(log.lines.isEmpty)

        // When the handler arrives, then the follow-up runs (bringing the finished uploads' entries in), then the
        // handler is called: no more events will come for it to wait for
        await completion.received { log.lines.append("handler") }
        #expect(log.lines == ["follow-up", "handler"])

        // And a later relaunch's handler waits for its own events again
        await completion.received { log.lines.append("second handler") }
        #expect(log.lines == ["follow-up", "handler"])
        await completion.eventsDelivered()
        #expect(log.lines == ["follow-up", "handler", "follow-up", "second handler"])
    }
}
