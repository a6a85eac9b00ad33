import Testing

@testable import ShelfedKit

@Suite struct RandomHexTests {
    @Test func secretsHaveTheAskedLengthInLowercaseHexAndDiffer() {
        for byteCount in [1, 7, 8, 9, 20, 32] {
            let secrets = (0..<50).map { _ in RandomHex.secret(byteCount: byteCount) }
            #expect(secrets.allSatisfy { $0.utf8.count == byteCount * 2 })
            #expect(secrets.allSatisfy { $0.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) } })
            if byteCount >= 8 { #expect(Set(secrets).count == secrets.count) }
        }
    }

    @Test func everyByteOfTheSecretIsRandomNotOnlyTheFirstOfEachWord() {
        // Each of the 32 bytes takes many values across 200 tokens; a byte left at zero (a word shifted too far)
        // would take one.
        let tokens = (0..<200).map { _ in Array(RandomHex.secret(byteCount: 32).utf8) }
        for position in stride(from: 0, to: 64, by: 2) {
            let seen = Set(tokens.map { token -> [UInt8] in [token[position], token[position + 1]] })
            #expect(seen.count > 50, "byte \(position / 2) took only \(seen.count) values")
        }
    }

    @Test func hexWritesEachByteAsTwoDigitsAndTheKeyDigestIsSHA256() {
        #expect(RandomHex.hex([0x00, 0x0F, 0xA5, 0xFF]) == "000fa5ff")
        #expect(APIKeyStore.digest(of: "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(CSRFMiddleware.isWellFormed(CSRFMiddleware.makeToken()))
        #expect(HouseholdStore.isWellFormed(HouseholdStore.newToken()))
    }
}
