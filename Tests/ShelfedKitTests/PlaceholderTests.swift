import Testing
@testable import ShelfedKit
@Test func placeholder() { #expect(true) }
