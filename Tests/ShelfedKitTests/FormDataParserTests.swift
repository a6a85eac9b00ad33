import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import ShelfedKit

/// The streaming multipart parser every upload goes through: whole parts out, however the bytes are split on the
/// way in, and an error — never a trap — for anything malformed.
@Suite struct FormDataParserTests {
    struct Part: Equatable {
        var headers: [String] = []
        var body: [UInt8] = []
    }

    /// Parses `body` fed in pieces of `chunkSize` bytes; returns the parts and whether the closing delimiter came.
    static func parse(_ body: [UInt8], boundary: String = "XyZ", chunkSize: Int = .max) throws -> ([Part], Bool) {
        let parser = FormDataParser(boundary: boundary)
        var parts: [Part] = []
        var current = Part()
        parser.onHeader = { name, value in current.headers.append("\(name)=\(value)") }
        parser.onBody = { buffer in current.body += buffer.readBytes(length: buffer.readableBytes) ?? [] }
        parser.onPartComplete = {
            parts.append(current)
            current = Part()
        }
        var offset = 0
        while offset < body.count {
            let end = min(body.count, offset + min(chunkSize, body.count - offset))
            try parser.execute(ByteBuffer(bytes: body[offset..<end]))
            offset = end
        }
        return (parts, parser.isFinished)
    }

    static let form: [UInt8] =
        Array(
            "preamble to ignore\r\n--XyZ\r\nContent-Disposition: form-data; name=\"comment\"\r\n\r\nline one\r\n--XyZ\r\n"
                .utf8)
        + Array(
            "Content-Disposition: form-data; name=\"photo\"; filename=\"Café.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n"
                .utf8)
        // Body bytes that look like the start of a delimiter, CRs and LFs, and every byte value.
        + Array("\r\n--Xy\r\n-\r\r\n\n".utf8) + (0...255).map { UInt8($0) }
        + Array("\r\n--XyZ--\r\nepilogue to ignore".utf8)

    @Test func readsEveryPartHowEverTheBytesAreSplit() throws {
        let (whole, finished) = try Self.parse(Self.form)
        #expect(finished)
        #expect(whole.count == 2)
        #expect(whole.first?.headers == ["Content-Disposition=form-data; name=\"comment\""])
        #expect(whole.first?.body == Array("line one".utf8))
        #expect(
            whole.last?.headers == [
                "Content-Disposition=form-data; name=\"photo\"; filename=\"Café.jpg\"", "Content-Type=image/jpeg",
            ])
        #expect(whole.last?.body == Array("\r\n--Xy\r\n-\r\r\n\n".utf8) + (0...255).map { UInt8($0) })
        for size in [1, 2, 3, 5, 7, 13, 64] {
            let (parts, finishedInPieces) = try Self.parse(Self.form, chunkSize: size)
            #expect(parts == whole, "split every \(size) bytes")
            #expect(finishedInPieces)
        }
    }

    @Test func aBodyThatStartsWithItsDelimiterAndAnEmptyPartAreRead() throws {
        let (parts, finished) = try Self.parse(Array("--XyZ\r\n\r\n\r\n--XyZ  \r\nA: b\r\n\r\nx\r\n--XyZ--".utf8))
        #expect(finished)
        #expect(parts == [Part(), Part(headers: ["A=b"], body: Array("x".utf8))])
    }

    @Test func aBodyCutShortIsNotFinished() throws {
        let (parts, finished) = try Self.parse(Array("--XyZ\r\nA: b\r\n\r\nhalf a fi".utf8))
        #expect(!finished)
        #expect(parts.isEmpty)
        // What schemathesis sent: a header block that never ends.
        let (none, unfinished) = try Self.parse(Array("--XyZ\r\n¡Ùç!--XyZ--\r\n".utf8))
        #expect(!unfinished)
        #expect(none.isEmpty)
    }

    static let malformedBodies: [String: [UInt8]] = [
        // MultipartKit 4.7.1 trapped on a header name with bytes of 0x80 and above.
        "header name outside ASCII": Array("--XyZ\r\n¡Ùç: x\r\n\r\nbody\r\n--XyZ--".utf8),
        "header line without a colon": Array("--XyZ\r\nNo colon here\r\n\r\nx\r\n--XyZ--".utf8),
        "empty header name": Array("--XyZ\r\n: empty name\r\n\r\nx\r\n--XyZ--".utf8),
        "header name with a space": Array("--XyZ\r\nBad Name: x\r\n\r\nx\r\n--XyZ--".utf8),
        "text after a boundary": Array("--XyZjunk\r\nA: b\r\n\r\nx\r\n--XyZ--".utf8),
        "endless header block": Array("--XyZ\r\n".utf8)
            + Array(repeating: UInt8(ascii: "a"), count: FormDataParser.maxHeaderBytes + 10),
        "endless padding after a boundary": Array("--XyZ".utf8) + Array(repeating: UInt8(ascii: " "), count: 300),
    ]

    @Test("malformed bodies throw", arguments: malformedBodies.keys.sorted())
    func malformed(name: String) throws {
        let body = try #require(Self.malformedBodies[name])
        for size in [1, 4, Int.max] {
            #expect(throws: FormDataParser.Failure.self, "split every \(size) bytes") {
                try Self.parse(body, chunkSize: size)
            }
        }
    }

    @Test func unsafeBoundariesAreRefused() {
        #expect(Request.boundary(in: "multipart/form-data; boundary=abc") == "abc")
        #expect(Request.boundary(in: "multipart/form-data; boundary=\"a b\"") == "a b")
        #expect(Request.boundary(in: "multipart/form-data; boundary=\"\"") == nil)
        #expect(Request.boundary(in: "multipart/form-data; boundary=" + String(repeating: "a", count: 71)) == nil)
        #expect(Request.boundary(in: "multipart/form-data; boundary=a\u{7}b") == nil)
        #expect(Request.boundary(in: "multipart/form-data; boundary=é") == nil)
    }

    /// The request schemathesis found: it ended the server. Now every upload route answers 400 and serves on.
    @Test func aHeaderNameOutsideASCIIIsABadRequestNotACrash() async throws {
        let app = TestApp()
        try await app.run(live: true) { client in
            let api = try await LibraryAPITests.signedIn(client)
            let bookID = try #require(
                (try await api.send(.post, "/api/v1/books", json: ["title": "Emma"]).json?["book"] as? [String: Any])?[
                    "id"]
                    as? Int64)
            let headers: HTTPFields = [
                .contentType: "multipart/form-data; boundary=67c5", .authorization: "Bearer \(api.key ?? "")",
            ]
            for path in ["/api/v1/books/\(bookID)/photos", "/api/v1/scans/barcode", "/api/v2/imports"] {
                let answer = try await client.execute(
                    uri: path, method: .post, headers: headers, body: ByteBuffer(string: "--67c5\r\n¡Ùç!--67c5--\r\n"))
                #expect(answer.status == .badRequest, "\(path)")
                let empty = try await client.execute(
                    uri: path, method: .post,
                    headers: [
                        .contentType: "multipart/form-data; boundary=\"\"", .authorization: "Bearer \(api.key ?? "")",
                    ],
                    body: ByteBuffer(string: "----\r\n"))
                #expect(empty.status == .badRequest, "\(path)")
            }
            #expect(try await api.get("/api/v1/books/\(bookID)").status == .ok)
            #expect(app.incomingFiles().isEmpty)
        }
    }
}
