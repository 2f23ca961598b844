import AutoMap
import Foundation
import Testing

/// Decodes `text` on every path inside `configuration`'s scope, and through the
/// `configuration:` entry points, and expects one outcome from all of them.
@discardableResult
func configuredOutcome<T: JSONDecodable & Equatable>(
  _: T.Type, _ text: String, _ configuration: JSON.Configuration,
  sourceLocation: SourceLocation = #_sourceLocation
) -> EntryOutcome<T> {
  let scoped = JSON.withConfiguration(configuration) {
    outcomeOnEveryPath(T.self, text, sourceLocation: sourceLocation)
  }
  let direct: [(String, EntryOutcome<T>)] = [
    (
      "jsonData:configuration:",
      EntryOutcome { try T(jsonData: Data(text.utf8), configuration: configuration) }
    ),
    (
      "jsonString:configuration:",
      EntryOutcome { try T(jsonString: text, configuration: configuration) }
    ),
    (
      "decode:configuration:",
      EntryOutcome { try T(decode: JSON(jsonString: text), configuration: configuration) }
    ),
  ]
  for (entry, outcome) in direct {
    #expect(
      outcome == scoped, "\(entry) disagrees: \(outcome) vs \(scoped)",
      sourceLocation: sourceLocation)
  }
  return scoped
}

/// The text `value` encodes to on every path with `configuration`, sorted keys.
func configuredText<T: JSONEncodable>(
  _ value: T, _ configuration: JSON.Configuration, sourceLocation: SourceLocation = #_sourceLocation
) throws -> String {
  let viaJSON = try value.json(configuration: configuration).jsonString(options: [.sortedKeys])
  let viaString = try value.jsonString(options: [.sortedKeys], configuration: configuration)
  let viaData = String(
    decoding: try value.jsonData(options: [.sortedKeys], configuration: configuration),
    as: UTF8.self)
  let scoped = try JSON.withConfiguration(configuration) { try textOnEveryPath(value) }
  #expect(viaJSON == viaString, sourceLocation: sourceLocation)
  #expect(viaData == viaString, sourceLocation: sourceLocation)
  #expect(scoped == viaString, sourceLocation: sourceLocation)
  return viaString
}

@Suite("Per-call configuration")
struct ConfigurationTests {
  @Test("a call's date transform applies to every Date without an option, on every path")
  func dates() throws {
    let seconds = JSON.Configuration(dateTransform: .secondsSince1970)
    let text = #"{"createdAt": 1714566600, "seen": [0, 1714566600], "expiresAt": null, "fixed": 0}"#
    let value = Stamped(createdAt: mayDay, seen: [epoch, mayDay], expiresAt: nil, fixed: epoch)
    #expect(configuredOutcome(Stamped.self, text, seconds) == .value(value))
    #expect(
      try configuredText(value, seconds)
        == #"{"createdAt":1714566600.0,"expiresAt":null,"fixed":0.0,"seen":[0.0,1714566600.0]}"#)
    // Without the configuration the same text is an error: the default is untouched.
    #expect(outcomeOnEveryPath(Stamped.self, text).description?.contains("createdAt") == true)
    #expect(try textOnEveryPath(value).contains(#""createdAt":"2024-05-01T12:30:00Z""#))
  }

  @Test("a call's key style selects the plan for that style, for every model in the call")
  func keyStyle() throws {
    let snake = JSON.Configuration(keyStyle: .snakeCase)
    let text = #"{"user_id": 7, "display_name": "Ada", "avatar": "yv4="}"#
    let account = StyledAccount(userID: 7, displayName: "Ada", avatar: Data([0xCA, 0xFE]))
    #expect(configuredOutcome(StyledAccount.self, text, snake) == .value(account))
    #expect(configuredOutcome([StyledAccount].self, "[\(text)]", snake) == .value([account]))
    #expect(
      try configuredText(account, snake) == #"{"avatar":"yv4=","display_name":"Ada","user_id":7}"#)
  }

  @Test(
    "data encodings: base64, base64url, hex",
    arguments: [
      (JSON.DataEncoding.base64, "+/8A", "+/8A"), (.base64URL, "-_8A", "-_8A"),
      (.hex, "fbff00", "FBFF00"),
    ])
  func dataEncodings(encoding: JSON.DataEncoding, written: String, alsoRead: String) throws {
    let call = JSON.Configuration(dataEncoding: encoding)
    let bytes = Data([0xFB, 0xFF, 0x00])
    #expect(configuredOutcome(Data.self, "\"\(written)\"", call) == .value(bytes))
    #expect(configuredOutcome(Data.self, "\"\(alsoRead)\"", call) == .value(bytes))
    #expect(try configuredText([bytes], call) == "[\"\(written)\"]")
    #expect(configuredOutcome(Data.self, #""zz!""#, call).kind == .typeMismatch)
  }

  @Test("base64url reads padded text, refuses the standard alphabet; hex refuses odd lengths")
  func dataEdges() {
    let url = JSON.Configuration(dataEncoding: .base64URL)
    #expect(configuredOutcome(Data.self, #""yv4=""#, url) == .value(Data([0xCA, 0xFE])))
    #expect(configuredOutcome(Data.self, #""+/8A""#, url).kind == .typeMismatch)
    let hex = JSON.Configuration(dataEncoding: .hex)
    #expect(
      configuredOutcome(Data.self, #""abc""#, hex).description
        == #"at the root: expected hexadecimal data, found string "abc""#)
    #expect(configuredOutcome(Data.self, #""""#, hex) == .value(Data()))
  }

  @Test("settings left nil keep the enclosing call's; a call's setting wins over the enclosing one")
  func nesting() throws {
    let outer = JSON.Configuration(dateTransform: .secondsSince1970, dataEncoding: .hex)
    let inner = JSON.Configuration(dateTransform: .millisecondsSince1970)
    let (date, data) = try JSON.withConfiguration(outer) {
      (try Date(decode: 1000, configuration: inner), try Data(decode: "cafe", configuration: inner))
    }
    #expect(date == Date(timeIntervalSince1970: 1))
    #expect(data == Data([0xCA, 0xFE]))
    // Outside every scope: the defaults again.
    #expect(throws: JSON.Error.self) { try Date(decode: 1000) }
  }

  /// That `DateTransform.default` is the fallback, assigned, is checked by
  /// `DefaultDateTransformTests`, which runs serialized with the other process-wide tests.
  @Test("a configured call never changes the fallback of calls that set no date transform")
  func globalFallback() throws {
    // Decoding through a configured call never changes the global default.
    _ = try Date(decode: 5, configuration: .init(dateTransform: .secondsSince1970))
    #expect(try Date(decode: "1970-01-01T00:00:05Z") == Date(timeIntervalSince1970: 5))
    #expect(
      try Date(decode: "1970-01-01T00:00:05Z", configuration: .init(keyStyle: .snakeCase))
        == Date(timeIntervalSince1970: 5))
  }

  @Test("concurrent calls with different date configurations never cross")
  func concurrency() async throws {
    let seconds = JSON.Configuration(dateTransform: .secondsSince1970)
    let milliseconds = JSON.Configuration(dateTransform: .millisecondsSince1970)
    let text = #"{"createdAt": 86400, "seen": [86400], "expiresAt": 86400, "fixed": 0}"#
    let crossings = await withTaskGroup(of: Int.self) { group in
      for iteration in 0..<1000 {
        group.addTask {
          let bySeconds = iteration % 2 == 0
          let configuration = bySeconds ? seconds : milliseconds
          let expected = Date(timeIntervalSince1970: bySeconds ? 86400 : 86.4)
          guard
            let decoded = try? Stamped(jsonString: text, configuration: configuration),
            decoded.createdAt == expected, decoded.seen == [expected],
            decoded.expiresAt == expected,
            let written = try? [Date(timeIntervalSince1970: 86400)].jsonString(
              configuration: configuration),
            written == (bySeconds ? "[86400.0]" : "[86400000.0]")
          else { return 1 }
          // Within a scope as well, with a task hop inside it.
          let scoped: Date? = await JSON.withConfiguration(configuration) {
            await Task.yield()
            return try? Date(decode: 86400)
          }
          return scoped == (bySeconds ? expected : Date(timeIntervalSince1970: 86.4)) ? 0 : 1
        }
      }
      return await group.reduce(0, +)
    }
    #expect(crossings == 0)
  }
}

/// A class for updates in place.
final class StampedBox: JSONCodable, DefaultInitable {
  var createdAt = Date(timeIntervalSince1970: 0)
  var userID = 0
  required init() {}
}

@Suite("Per-call configuration of updates")
struct ConfiguredUpdateTests {
  let call = JSON.Configuration(dateTransform: .secondsSince1970, keyStyle: .snakeCase)

  @Test("update(from:configuration:) applies the call's settings to a struct, as decoding does")
  func structs() throws {
    let text = #"{"created_at": 1714566600, "seen": [0], "expires_at": null, "fixed": 0}"#
    let decoded = try Stamped(jsonString: text, configuration: call)
    let start = Stamped(createdAt: epoch, seen: [], expiresAt: mayDay, fixed: mayDay)
    var updated = start
    try updated.update(from: JSON(jsonString: text), configuration: call)
    #expect(updated == decoded)
    var fromBytes = start
    try fromBytes.update(fromJSONData: Data(text.utf8), configuration: call)
    #expect(fromBytes == decoded)
    // Without the configuration, a number is no ISO 8601 date: an error, and nothing changes.
    var untouched = start
    #expect(throws: JSON.Error.self) {
      try untouched.update(from: JSON(jsonString: #"{"createdAt": 1714566600}"#))
    }
    #expect(untouched == start)
  }

  @Test("a class updates in place with the call's settings, and collects every problem")
  func classes() throws {
    let box = StampedBox()
    try box.update(from: ["created_at": 1_714_566_600, "user_id": 7], configuration: call)
    #expect(box.createdAt == mayDay)
    #expect(box.userID == 7)
    try box.update(fromJSONData: Data(#"{"user_id": 8}"#.utf8), configuration: call)
    #expect(box.userID == 8)
    let collecting = JSON.Configuration(collectsAllErrors: true)
    let error = try #require(throws: JSON.Error.self) {
      try box.update(from: ["createdAt": "x", "userID": "y"], configuration: collecting)
    }
    #expect(error.problems.map(\.path) == ["createdAt", "userID"])
    #expect(box.userID == 8)
  }
}
