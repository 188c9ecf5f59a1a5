import MyDayTestSupport
import Testing

@testable import MyDayKit

/// The client core sends its access token exactly where the API document asks for one.
@Suite struct BearerTokenMiddlewareTests {
    @Test func noTokenGoesWhereTheDocumentAsksForNone() throws {
        let documented = try PublicOperations.inDocument()
        #expect(BearerTokenMiddleware.publicOperations == documented.subtracting(PublicOperations.outsideTheAPIClient))
        #expect(BearerTokenMiddleware.optionallyAuthenticatedOperations.isSubset(of: documented))
    }
}
