import Foundation
import HTTPTypes
import Testing

@testable import ShelfedKit

/// The JSON API's words for people speak the phone's language, or the key owner's choice (issue 39, DESIGN §18);
/// error codes, field names and the Reader contract's pinned "Invalid credentials" stay as they are.
@Suite struct APILanguageTests {
    @Test func messagesFollowThePhoneThenThePersonsChoiceAndCodesStayEnglish() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("reader")
            var phone = APIClient(client)
            let spanish: HTTPFields = [.acceptLanguage: "es-419,es;q=0.9"]

            // Signed out: a wrong password keeps the contract's exact words, whatever the phone speaks.
            let refused = try await phone.send(
                .post, "/api/v1/sessions", json: ["email": "reader", "password": "nope"], headers: spanish)
            #expect(refused.status == .unauthorized && refused.json?["error"] as? String == "Invalid credentials")
            // A revoked or made-up key: said in the phone's language.
            let stranger = try await client.execute(
                uri: "/api/v1/shelves", method: .get,
                headers: [.authorization: "Bearer 0000", .acceptLanguage: "de-AT"])
            #expect(stranger.status == .unauthorized)
            #expect((stranger.json?["error"] as? String)?.hasPrefix("Dieser API-Schlüssel ist ungültig.") == true)

            try await phone.signIn("reader")
            // A body that is not JSON, a missing field: the message in Spanish, the field's name as sent.
            let notJSON = try await phone.send(
                .post, "/api/v1/books", headers: [.acceptLanguage: "es", .contentType: "text/plain"])
            #expect(notJSON.status == .unsupportedMediaType)
            #expect(
                notJSON.json?["error"] as? String
                    == "Envía el cuerpo de la petición como JSON (Content-Type: application/json).")
            let unknown = try await phone.send(.get, "/api/v1/shelves/9", headers: spanish)
            #expect(
                unknown.json?["error"] as? String
                    == "No hay ninguna estantería con ese id. Las estanterías son 1, 2, 3 y 4.")
            // An address the API does not have: a sentence in Spanish, not the status's English reason phrase.
            let nowhere = try await phone.send(.get, "/api/v1/no-such-thing", headers: spanish)
            #expect(nowhere.status == .notFound)
            #expect((nowhere.json?["error"] as? String)?.hasPrefix("Aquí no hay nada.") == true)
            // Without a language asked, the server's default: English.
            #expect(
                try await phone.get("/api/v1/shelves/9").json?["error"] as? String
                    == "There is no shelf with that id. Shelves are 1, 2, 3 and 4.")

            // BooksTrack's envelope: the code stays English, the message is French.
            let advanced = try await phone.send(.get, "/v1/search/advanced", headers: [.acceptLanguage: "fr-CA"])
            let failure = try #require(advanced.json?["error"] as? [String: Any])
            #expect(advanced.status == .badRequest && failure["code"] as? String == "INVALID_REQUEST")
            #expect(failure["message"] as? String == "Indiquez au moins l'un de ces champs : title, author ou isbn.")

            // The person chooses Italian in Settings: it wins over the phone's Spanish, as on the pages.
            _ = try await web.post("/language", ["language": "it"])
            let chosen = try await phone.send(.get, "/api/v1/shelves/9", headers: spanish)
            #expect(
                chosen.json?["error"] as? String
                    == "Non c'è uno scaffale con quell'id. Gli scaffali sono 1, 2, 3 e 4.")
            // The fixed shelf names of the Reader contract are data, not words: never translated.
            let shelves = try await phone.send(.get, "/api/v1/shelves", headers: spanish)
            let names = (shelves.json?["shelves"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
            #expect(names?.prefix(3) == ["Currently Reading", "Want to Read", "Read"])
        }
    }
}
