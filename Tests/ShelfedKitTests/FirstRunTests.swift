import Foundation
import Testing

@testable import ShelfedKit

/// The first-run page says what the others in the house should type (issue 26).
@Suite struct FirstRunTests {
    @Test func theFirstVisitShowsTheHouseAddressesAndLaterOnesDoNot() async throws {
        try await TestApp().run { client in
            let first = WebSession(client)
            let page = try await first.get("/register").text
            #expect(page.contains("For the rest of the house"))
            // The tests' server listens on 127.0.0.1, as `make run` does: the page says how to open it up.
            #expect(page.contains("SHELFED_HOST=0.0.0.0"))
            try await first.register("alice")
            let later = WebSession(client)
            #expect(!(try await later.get("/register").text.contains("For the rest of the house")))
        }
    }

    @Test func theAddressesUseTheMachinesNameAndNetworkAddresses() {
        let lan = HouseAddress.find(host: "0.0.0.0", port: 8080)
        #expect(!lan.localOnly)
        #expect(lan.urls.allSatisfy { $0.hasPrefix("http://") && $0.hasSuffix(":8080") && !$0.contains("127.0.0.1") })
        let name = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? ""
        if !name.isEmpty, name != "localhost", name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) {
            #expect(lan.urls.first == "http://\(name).local:8080")
        }
        #expect(HouseAddress.find(host: "127.0.0.1", port: 80).localOnly)
        #expect(HouseAddress.find(host: "127.0.0.1", port: 80).urls.allSatisfy { !$0.contains(":80") })
    }
}
