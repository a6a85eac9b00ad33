import Foundation
import Testing

@testable import ShelfedKit

extension SharedFixtureConformance.Providers {
    static func gemini(_ name: String) throws -> Data {
        try recording("gemini/\(name)__FirebaseExtended_vertexai-sdk-test-data.json")
    }

    /// A recorded success envelope with a shelf's JSON put in one text part, as the fake Gemini serves it.
    static func withShelf(_ name: String, part: Int) throws -> Data {
        var envelope = try #require(try JSONSerialization.jsonObject(with: gemini(name)) as? [String: Any])
        var candidates = try #require(envelope["candidates"] as? [[String: Any]])
        var content = try #require(candidates[0]["content"] as? [String: Any])
        var parts = try #require(content["parts"] as? [[String: Any]])
        parts[part]["text"] = #"{"books": [{"title": "Sabriel", "author": "Garth Nix", "confidence": 0.9}]}"#
        content["parts"] = parts
        candidates[0]["content"] = content
        envelope["candidates"] = candidates
        return try JSONSerialization.data(withJSONObject: envelope)
    }

    @Test(arguments: [
        (
            "googleai_unary-failure-api-key", 400, GeminiClient.Failure.invalidKey,
            "did not accept the Gemini API key"
        ),
        (
            "googleai_unary-failure-generativelanguage-api-not-enabled", 403, .apiNotEnabled,
            "Generative Language API is not enabled"
        ),
        (
            "googleai_unary-failure-unknown-model", 404, .unknownModel("gemini-5.0-flash"),
            "does not offer the model “gemini-5.0-flash”"
        ),
        ("vertexai_unary-failure-image-rejected_400", 400, .imageRejected, "could not use this photo"),
        ("vertexai_unary-failure-quota-exceeded_429", 429, .quotaExceeded, "quota is used up"),
    ])
    func everyRecordedGeminiErrorIsClassified(
        name: String, status: Int, failure: GeminiClient.Failure, says: String
    ) throws {
        let mapped = GeminiClient.failure(status: status, body: try Self.gemini(name), model: "gemini-5.0-flash")
        #expect(mapped == failure)
        #expect(mapped.message.contains(says))
    }

    @Test func theStreamingImageRejectionWithoutDetailsIsClassified() throws {
        let body = try Self.recording(
            "gemini/googleai_streaming-failure-image-rejected_400__FirebaseExtended_vertexai-sdk-test-data.txt")
        #expect(GeminiClient.failure(status: 400, body: body, model: "gemini-2.5-flash") == .imageRejected)
    }

    @Test func aSafetyStopAndABlockedPromptAreBlocked() throws {
        for name in ["googleai_unary-failure-finish-reason-safety", "googleai_unary-failure-only-prompt-feedback"] {
            #expect(throws: GeminiClient.Failure.blocked, "\(name)") {
                try GeminiClient.candidates(fromResponse: Self.gemini(name))
            }
        }
        #expect(GeminiClient.Failure.blocked.message.contains("safety filter"))
    }

    @Test func aProseReplyIsUnreadable() throws {
        #expect(throws: GeminiClient.Failure.unreadableAnswer) {
            try GeminiClient.candidates(fromResponse: Self.gemini("googleai_unary-success-basic-reply-short"))
        }
        #expect(GeminiClient.Failure.unreadableAnswer.message.contains("could not be read as a list of books"))
    }

    @Test func theShelfIsReadFromTheAnswerPartAndTheThoughtSummaryIsSkipped() throws {
        let expected = [GeminiClient.Candidate(title: "Sabriel", author: "Garth Nix", isbn: nil, confidence: 0.9)]
        let basic = try Self.withShelf("googleai_unary-success-basic-reply-short", part: 0)
        #expect(try GeminiClient.candidates(fromResponse: basic) == expected)
        // Were the thought joined to the answer, the text would not be JSON.
        let thinking = try Self.withShelf("googleai_unary-success-thinking-reply-thought-summary", part: 1)
        #expect(try GeminiClient.candidates(fromResponse: thinking) == expected)
    }
}
