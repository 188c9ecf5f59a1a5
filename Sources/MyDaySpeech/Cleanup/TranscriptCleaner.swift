/// Makes a raw transcript readable. It may drop fillers and add punctuation, casing and paragraphs;
/// it may never add a word that was not said.
package protocol TranscriptCleaner: Sendable {
    func clean(_ recognition: Recognition) async throws -> String
}
