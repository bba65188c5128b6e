import LinkdTesting
import XCTest

/// LinkdTesting from XCTest: the expectations throw, and a throwing test method fails with their message.
final class XCTestUsageTests: XCTestCase {
    func testRecoveryLinkRoutes() throws {
        try LinkExpectation.route(LinkFixtures.supabaseSession(type: "recovery"), is: "supabase.recovery")
    }

    func testFailureMessageReachesXCTest() {
        XCTAssertThrowsError(try LinkExpectation.route("myapp://settings", is: "supabase.recovery")) { error in
            XCTAssertEqual(
                "\(error)",
                "expected route 'supabase.recovery', but the link was refused: no route for 'myapp://settings'"
            )
        }
    }
}
