import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat

/// A transcription answered as server-sent events (`stream=true`): `transcript.text.delta` events, each with `end`,
/// the seconds of the recording heard so far; then `transcript.text.done`, which holds the whole `verbose_json`
/// answer; or `error`, when the audio turned out to be undecodable part way.
enum TranscriptionEvents {
    /// Reads the events of `body` (at most `maxBytes` in all), telling `heard` each `end`, and answers the transcript.
    /// A stream that breaks or ends before its transcript throws `OpenAICompatible.Failure.unreachable` (try again).
    static func read(
        _ body: HTTPClientResponse.Body, maxBytes: Int, heard: (Double) -> Void
    ) async throws -> OpenAITranscriptionClient.VerboseTranscription {
        var pending = Data()
        var received = 0
        do {
            for try await chunk in body {
                received += chunk.readableBytes
                guard received <= maxBytes else { throw NIOTooManyBytesError(maxBytes: maxBytes) }
                pending.append(contentsOf: chunk.readableBytesView)
                while let end = pending.firstRange(of: Data("\n\n".utf8)) {
                    let event = pending[pending.startIndex..<end.lowerBound]
                    pending = Data(pending[end.upperBound...])
                    if let transcript = try handle(event, heard: heard) { return transcript }
                }
            }
        } catch let error as SpeechFailure {
            throw error
        } catch let error as NIOTooManyBytesError {
            throw error
        } catch let error as DecodingError {
            throw error
        } catch {
            throw OpenAICompatible.Failure.unreachable("the transcription stream broke: \(error)")
        }
        throw OpenAICompatible.Failure.unreachable("the transcription stream ended before its transcript")
    }

    private struct Event: Decodable {
        struct Problem: Decodable { let message: String? }
        let type: String
        let end: Double?
        let error: Problem?
    }

    /// One event's `data:` lines, joined: tells `heard` of a delta; answers the transcript when it is the last.
    private static func handle(_ event: Data, heard: (Double) -> Void) throws
        -> OpenAITranscriptionClient.VerboseTranscription?
    {
        let lines = String(decoding: event, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let data = lines.compactMap { line in
            line.hasPrefix("data:") ? line.dropFirst(5).drop { $0 == " " } : nil
        }.joined(separator: "\n")
        guard !data.isEmpty else { return nil }
        let json = Data(data.utf8)
        let header = try JSONDecoder().decode(Event.self, from: json)
        switch header.type {
        case "transcript.text.delta":
            if let end = header.end { heard(end) }
            return nil
        case "transcript.text.done":
            return try JSONDecoder().decode(OpenAITranscriptionClient.VerboseTranscription.self, from: json)
        case "error":
            throw SpeechFailure(
                "The transcription service refused the recording: \(header.error?.message ?? "no reason given").")
        default:
            return nil
        }
    }
}
