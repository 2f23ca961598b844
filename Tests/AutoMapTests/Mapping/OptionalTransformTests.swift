import AutoMap
import Foundation
import Testing

/// Optional properties with a transform: `null` (what encoding writes for `nil`) and an
/// absent key read as `nil` on every entry point, bytes and `JSON` alike, for each
/// `DateTransform` and custom transforms; a value of the wrong type is still an error.
@Suite("Optional transformed properties: null and absent on every path")
struct OptionalTransformTests {
  static let formatter: DateFormatter = {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
    return formatter
  }()

  struct Stamps: JSONCodable, Equatable {
    var iso: Date?
    var seconds: Date?
    var milliseconds: Date?
    var rfc: Date?
    var either: Date?
    var since: Date?
    var formatted: Date?
    var site: URL?
    var cents: Decimal?
    var label: String?

    static func specificOptions() -> [String: SpecificOption] {
      [
        "iso": .transform(DateTransform.iso8601),
        "seconds": .transform(DateTransform.secondsSince1970),
        "milliseconds": .transform(DateTransform.millisecondsSince1970),
        "rfc": .transform(DateTransform.rfc1123),
        "either": .transform(DateTransform.oneOf(.iso8601, .secondsSince1970)),
        "since": .transform(DateTransform.timeIntervalSince(Date(timeIntervalSince1970: 1000))),
        "formatted": .transform(DateTransform.formatter(OptionalTransformTests.formatter)),
        "site": .transform(
          CustomTransform<String, URL>.both(
            fromJSON: { host in
              guard let url = URL(string: "https://\(host)") else {
                throw JSON.Error.custom("bad host")
              }
              return url
            },
            toJSON: { $0.host ?? "" })),
        "cents": .transform(
          CustomTransform<Int, Decimal>.both(
            fromJSON: { Decimal($0) / 100 },
            toJSON: { NSDecimalNumber(decimal: $0 * 100).intValue })),
        // A transform that reads null itself decides what it means.
        "label": .transform(
          CustomTransform<String?, String>.fromJSON { $0 ?? "none" }),
      ]
    }
  }

  static let keys = [
    "iso", "seconds", "milliseconds", "rfc", "either", "since", "formatted", "site", "cents",
    "label",
  ]
  static let present: [String: String] = [
    "iso": #""2023-11-14T22:13:20Z""#, "seconds": "1700000000", "milliseconds": "1700000000000",
    "rfc": #""Tue, 14 Nov 2023 22:13:20 GMT""#, "either": "1700000000", "since": "1699999000",
    "formatted": #""2023-11-14 22:13:20""#, "site": #""example.org""#, "cents": "1999",
    "label": #""x""#,
  ]

  /// Every way to decode one document.
  static func decodings(_ text: String) -> [(String, Result<Stamps, any Error>)] {
    let data = Data(text.utf8)
    return [
      ("T(jsonData:)", Result { try Stamps(jsonData: data) }),
      ("T(jsonString:)", Result { try Stamps(jsonString: text) }),
      ("T(decode:)", Result { try Stamps(decode: JSON(jsonData: data)) }),
      ("[T](jsonData:)", Result { try [Stamps](jsonData: Data("[\(text)]".utf8))[0] }),
      ("[T](decode:)", Result { try [Stamps](decode: JSON(jsonString: "[\(text)]"))[0] }),
      (
        "T(jsonData:at:)",
        Result { try Stamps(jsonData: Data(#"{"a": \#(text)}"#.utf8), at: ["a"]) }
      ),
      (
        "collectsAllErrors",
        Result { try Stamps(jsonData: data, configuration: .init(collectsAllErrors: true)) }
      ),
      (
        "recordingSubstitutions",
        Result { try JSON.recordingSubstitutions { try Stamps(jsonData: data) }.0 }
      ),
      (
        "SyncJSONStream",
        Result {
          try SyncJSONStream(of: Stamps.self, data: Data("[\(text)]".utf8)).map { try $0.get() }[0]
        }
      ),
      (
        "update(fromJSONData:)",
        Result {
          var stamps = try Stamps(jsonString: "{}")
          stamps.label = "before"
          try stamps.update(fromJSONData: data)
          return stamps
        }
      ),
    ]
  }

  @Test("each property null, absent or present, in random documents: every path agrees")
  func differential() throws {
    var random = DiffRandom(seed: 77)
    for _ in 0..<150 {
      var members: [String] = []
      var expectedNil: Set<String> = []
      for key in Self.keys {
        switch random.below(3) {
        case 0:
          members.append(#""\#(key)": null"#)
          expectedNil.insert(key)
        case 1: expectedNil.insert(key)
        default: members.append(#""\#(key)": \#(Self.present[key]!)"#)
        }
      }
      let text = "{" + members.joined(separator: ", ") + "}"
      let results = Self.decodings(text)
      guard case .success(let reference) = results[0].1 else {
        Issue.record("\(text): \(results[0].1)")
        continue
      }
      for (name, result) in results.dropFirst() {
        switch result {
        case .success(let value):
          // update keeps what absent keys leave; only compare what the document says.
          if name.hasPrefix("update") {
            for key in Self.keys where text.contains(#""\#(key)""#) {
              let mine = Mirror(reflecting: value).children.first { $0.label == key }?.value
              let theirs = Mirror(reflecting: reference).children.first { $0.label == key }?.value
              #expect(
                String(describing: mine) == String(describing: theirs), "\(name) \(key): \(text)")
            }
          } else {
            #expect(value == reference, "\(name): \(text)")
          }
        case .failure(let error): Issue.record("\(name): \(error)\n\(text)")
        }
      }
      let date = Date(timeIntervalSince1970: 1_700_000_000)
      #expect((reference.iso == nil) == expectedNil.contains("iso"))
      #expect(reference.seconds == (expectedNil.contains("seconds") ? nil : date), "\(text)")
      #expect(reference.milliseconds == (expectedNil.contains("milliseconds") ? nil : date))
      #expect(reference.rfc == (expectedNil.contains("rfc") ? nil : date))
      #expect(reference.either == (expectedNil.contains("either") ? nil : date))
      #expect(reference.since == (expectedNil.contains("since") ? nil : date))
      #expect(reference.formatted == (expectedNil.contains("formatted") ? nil : date))
      #expect(
        reference.site == (expectedNil.contains("site") ? nil : URL(string: "https://example.org")))
      #expect(reference.cents == (expectedNil.contains("cents") ? nil : Decimal(1999) / 100))
      // The transform that reads null: null means "none", absent leaves it nil.
      let label = text.contains(#""label": null"#) ? "none" : text.contains(#""label""#) ? "x" : nil
      #expect(reference.label == label, "\(text)")
      // What encoding writes reads back the same, on both paths.
      let written = try reference.jsonData()
      let back = try Stamps(jsonData: written)
      var comparable = reference
      if comparable.label == nil { comparable.label = "none" }  // nil is written as null
      #expect(back == comparable, "\(String(decoding: written, as: UTF8.self))")
      #expect(try Stamps(decode: JSON(jsonData: written)) == back)
    }
  }

  @Test("all nil round-trips: encoded as nulls, decoded as nils, bytes and JSON alike")
  func allNil() throws {
    let empty = try Stamps(jsonString: "{}")
    let written = try empty.jsonData()
    let json = try JSON(jsonData: written)
    for key in Self.keys { #expect(json[JSON.Index(stringLiteral: key)] == .null, "\(key)") }
    var expected = empty
    expected.label = "none"
    #expect(try Stamps(jsonData: written) == expected)
    #expect(try Stamps(decode: json) == expected)
  }

  @Test("a value of the wrong type is still an error, and null for a non-optional one too")
  func wrongTypes() throws {
    for (key, bad) in [
      ("seconds", #""soon""#), ("iso", "12"), ("rfc", "true"), ("site", "5"), ("cents", #""x""#),
      ("either", "[]"),
    ] {
      let text = #"{"\#(key)": \#(bad)}"#
      for (name, result) in Self.decodings(text) {
        #expect(throws: (any Error).self, "\(name): \(text)") { try result.get() }
      }
    }
    struct Required: JSONCodable {
      var at: Date
      static func specificOptions() -> [String: SpecificOption] {
        ["at": .transform(DateTransform.secondsSince1970)]
      }
    }
    #expect(throws: JSON.Error.self) { try Required(jsonString: #"{"at": null}"#) }
    #expect(throws: JSON.Error.self) { try Required(decode: ["at": nil]) }
    #expect(throws: JSON.Error.self) { try Required(jsonString: "{}") }
  }
}
