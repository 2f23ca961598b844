import AutoMap
import Foundation
import Testing

@Suite("Dates in several formats")
struct DateFormatsTests {
  let flexible = JSON.Configuration(
    dateTransform: .oneOf(.iso8601, .millisecondsSince1970, .rfc1123))

  @Test(
    "each format is tried in order",
    arguments: [
      #""2024-05-01T12:30:00Z""#, #""2024-05-01T14:30:00+02:00""#, #""2024-05-01T12:30:00.000Z""#,
      "1714566600000", #""Wed, 01 May 2024 12:30:00 GMT""#, #""01 may 2024 12:30:00 UTC""#,
      #""Wed, 01 May 2024 14:30:00 +0200""#,
    ])
  func reads(text: String) {
    #expect(configuredOutcome(Date.self, text, flexible) == .value(mayDay))
  }

  @Test("the first format is the one written")
  func writes() throws {
    #expect(try configuredText([mayDay], flexible) == #"["2024-05-01T12:30:00Z"]"#)
    let http = JSON.Configuration(dateTransform: .oneOf(.rfc1123, .iso8601))
    #expect(try configuredText([mayDay], http) == #"["Wed, 01 May 2024 12:30:00 GMT"]"#)
    #expect(configuredOutcome(Date.self, #""2024-05-01T12:30:00Z""#, http) == .value(mayDay))
  }

  @Test("a value no format reads names every format tried")
  func noneReads() {
    #expect(
      configuredOutcome(Date.self, #""yesterday""#, flexible).description
        == #"at the root: expected a date as ISO 8601, milliseconds since 1970 or RFC 1123, found string "yesterday""#
    )
    #expect(configuredOutcome(Date.self, "true", flexible).kind == .typeMismatch)
    #expect(configuredOutcome(Date?.self, "null", flexible) == .value(nil))
  }

  @Test(
    "RFC 1123 rejects what it cannot be",
    arguments: [
      "Wed, 32 May 2024 12:30:00 GMT", "Wed, 01 Mai 2024 12:30:00 GMT",
      "Xyz, 01 May 2024 12:30:00 GMT",
      "Wed, 01 May 24 12:30:00 GMT", "Wed, 01 May 2024 24:00:00 GMT",
      "Wed, 01 May 2024 12:30:00 PST",
      "Wed, 01 May 2024 12:30:00", "", "Wed, 29 Feb 2023 00:00:00 GMT",
    ])
  func rfc1123Rejects(text: String) {
    #expect(throws: JSON.Error.self) { try DateTransform.rfc1123.date(from: .string(text)) }
  }

  @Test("RFC 1123 round-trips across the years it holds, weekdays included")
  func rfc1123RoundTrip() throws {
    for seconds in [-62_167_219_200.0, -1, 0, 951_782_400, 1_714_566_600, 253_402_300_799] {
      let date = Date(timeIntervalSince1970: seconds)
      let text = try DateTransform.rfc1123.json(for: date)
      #expect(try DateTransform.rfc1123.date(from: text) == date)
    }
    #expect(
      try DateTransform.rfc1123.json(for: Date(timeIntervalSince1970: 0))
        == "Thu, 01 Jan 1970 00:00:00 GMT")
    #expect(
      try DateTransform.rfc1123.json(for: Date(timeIntervalSince1970: -1))
        == "Wed, 31 Dec 1969 23:59:59 GMT")
    #expect(throws: JSON.Error.self) {
      try DateTransform.rfc1123.json(for: Date(timeIntervalSince1970: 253_402_300_800))
    }
  }

  @Test("as a property's own transform too")
  func asOption() throws {
    struct Event: JSONCodable, Equatable {
      var at: Date
      static func specificOptions() -> [String: SpecificOption] {
        ["at": .transform(DateTransform.oneOf(.secondsSince1970, .iso8601))]
      }
    }
    #expect(
      outcomeOnEveryPath(Event.self, #"{"at": "2024-05-01T12:30:00Z"}"#)
        == .value(Event(at: mayDay)))
    #expect(outcomeOnEveryPath(Event.self, #"{"at": 1714566600}"#) == .value(Event(at: mayDay)))
    #expect(try textOnEveryPath(Event(at: mayDay)) == #"{"at":1714566600.0}"#)
  }
}
