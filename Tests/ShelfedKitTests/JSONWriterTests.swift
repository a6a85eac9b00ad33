import Foundation
import Testing

@testable import ShelfedKit

/// The hand-written JSON of the long API lists must be JSON any decoder reads back to the same text.
@Suite struct JSONWriterTests {
    static let hostileTexts = [
        "plain", "", #"quote " and backslash \ and slash /"#, "line\nbreak\r\ttab", "\u{0}\u{1}\u{1F}\u{7F}",
        "x\"\u{301} autofocus", "emoji 📚 and é and 한국어", "\u{2028}\u{2029}", "</script><script>",
    ]

    @Test(arguments: hostileTexts) func stringsReadBackUnchanged(text: String) throws {
        var json = JSONWriter()
        json.object { json in
            json.key("text")
            json.string(text)
            json.key("missing")
            json.string(nil)
        }
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json.bytes)) as? [String: Any])
        #expect(decoded["text"] as? String == text)
        #expect(decoded["missing"] is NSNull)
    }

    @Test func nestingAndCommas() throws {
        var json = JSONWriter()
        json.object { json in
            json.key("a")
            json.array { json in
                json.integer(1)
                json.object { json in
                    json.key("b")
                    json.integer(Int64.min)
                }
                json.array { _ in }
                json.null()
            }
            json.key("c")
            json.object { _ in }
        }
        #expect(String(decoding: json.bytes, as: UTF8.self) == #"{"a":[1,{"b":-9223372036854775808},[],null],"c":{}}"#)
    }

    @Test func readerBookMatchesWhatJSONEncoderWouldWrite() throws {
        let book = ReaderBook(id: 7, title: "A \"quoted\" title", author: "Ann, Bob", isbn: nil, shelf: .read)
        var json = JSONWriter()
        book.write(to: &json)
        #expect(
            String(decoding: json.bytes, as: UTF8.self)
                == #"{"author":"Ann, Bob","id":7,"isbn":null,"shelf_id":3,"shelf_name":"Read","title":"A \"quoted\" title"}"#
        )
    }
}

extension JSONWriterTests {
    @Test(arguments: [0, 7, 9, 10, 99, 100, 5_000, -1, -10, Int64.max, Int64.min])
    func integersAreWrittenInDecimal(number: Int64) {
        var json = JSONWriter()
        json.integer(number)
        #expect(String(decoding: json.bytes, as: UTF8.self) == String(number))
    }
}
