import Foundation
import Testing

@testable import MyDayServer

/// Base64 with the URL-safe alphabet and no padding (RFC 4648 §5), as cursors, signed links and tokens use it.
@Suite struct URLSafeBase64Tests {
    @Test func everyLengthIsWrittenInTheURLSafeAlphabetAndReadBack() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<80 {
            // Given bytes of every length from 0 to 79, including the ones base64 writes as "+" and "/"
            var bytes: [UInt8] = []
            for index in 0..<length {
                bytes.append(index % 3 == 0 ? 0xFB + UInt8(index % 5) : generator.next())
            }
            let data = Data(bytes)
            // When they are written
            let text = data.base64URLEncodedString()
            // Then the text is the standard alphabet's with "-" for "+", "_" for "/" and no padding, and reads back
            let standard = data.base64EncodedString()
            var expected = ""
            for character in standard where character != "=" {
                expected.append(character == "+" ? "-" : character == "/" ? "_" : character)
            }
            #expect(text == expected)
            #expect(Data(base64URLEncoded: text) == data)
        }
    }
}
