import AutoMap
import Foundation
import Testing

/// A `Date` with no option: it reads as `DateTransform.default` says, unless the call sets one.
private struct DefaultStamp: JSONCodable, Equatable {
  var at: Date
}

/// The same inside a `Codable` value.
private struct CodableStamp: Codable, Equatable {
  var at: Date
}

private struct StampHolder: JSONCodable, Equatable {
  var inner: CodableStamp
  var stamps: [DefaultStamp]
}

extension ProcessWideState {
  @Suite("DateTransform.default, assigned")
  struct DefaultDateTransformTests {
    static let http = "Sun, 06 Nov 1994 08:49:37 GMT"
    static let date = Date(timeIntervalSince1970: 784_111_777)

    /// Runs `body` with `DateTransform.default` set to ISO 8601 then RFC 1123, and puts the
    /// default back. ISO 8601 comes first, so the suites running beside this one read and
    /// write every date they use as before; only RFC 1123 text reads where it did not.
    static func withHTTPDates(_ body: () throws -> Void) rethrows {
      let before = DateTransform.default
      DateTransform.default = .oneOf(.iso8601, .rfc1123)
      defer { DateTransform.default = before }
      try body()
    }

    @Test("it is the fallback of every call that sets no date transform")
    func fallback() throws {
      let text = #"{"at": "\#(Self.http)"}"#
      let held = #"{"inner": \#(text), "stamps": [\#(text)]}"#
      // Plans built before the assignment, and reflection observed: the fast path too.
      _ = try DefaultStamp(decode: ["at": "1970-01-01T00:00:00Z"])
      _ = try StampHolder(decode: ["inner": ["at": "1970-01-01T00:00:00Z"], "stamps": []])
      let expected = DefaultStamp(at: Self.date)
      try Self.withHTTPDates {
        #expect(try DefaultStamp(jsonString: text) == expected)
        #expect(try DefaultStamp(jsonData: Data(text.utf8)) == expected)
        #expect(try DefaultStamp(decode: JSON(jsonString: text)) == expected)
        #expect(try Date(decode: .string(Self.http)) == Self.date)
        let holder = try StampHolder(jsonString: held)
        #expect(holder == StampHolder(inner: CodableStamp(at: Self.date), stamps: [expected]))
        // A configuration that sets other things, for a call or a scope: still the fallback.
        let snake = JSON.Configuration(keyStyle: .snakeCase)
        #expect(try DefaultStamp(jsonString: text, configuration: snake) == expected)
        let scoped = try JSON.withConfiguration(snake) {
          try DefaultStamp(jsonData: Data(text.utf8))
        }
        #expect(scoped == expected)
        // A call that sets a date transform uses that one.
        let iso = JSON.Configuration(dateTransform: .iso8601)
        let refused = #expect(throws: JSON.Error.self) {
          try DefaultStamp(jsonString: text, configuration: iso)
        }
        #expect(refused?.path == "at")
        #expect(refused?.kind == .typeMismatch)
        // Written with its first format.
        #expect(try expected.jsonString() == #"{"at":"1994-11-06T08:49:37Z"}"#)
      }
      // Put back: RFC 1123 text is no date again.
      let after = #expect(throws: JSON.Error.self) { try DefaultStamp(jsonString: text) }
      #expect(after?.path == "at")
    }
  }
}
