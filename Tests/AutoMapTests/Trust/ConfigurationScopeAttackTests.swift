import AutoMap
import Foundation
import Testing

// Review of `Configuration/` and `Reporting/` (issue 20): scopes nested deep, each with its
// own handler or settings; a handler that opens scopes of its own; data and date settings
// given bad input; the hint an error gives for a non-finite spelling.

/// Which handlers saw a substitution, in order, from any thread.
final class ScopeTrail: @unchecked Sendable {  // every access under `lock`
  private let lock = NSLock()
  private var seen: [Int] = []
  func note(_ scope: Int) { lock.withLock { seen.append(scope) } }
  var scopes: [Int] { lock.withLock { seen } }
}

struct ScopedBlob: JSONCodable, Equatable {
  var bytes: Data
  var when: Date?
}

/// `Data` and `Date` inside a `Codable` value: read through AutoMap's `Decoder`s.
struct ScopedCodableBlob: Codable, Equatable {
  var bytes: Data
  var when: Date?
}

struct HoldsScopedBlob: JSONCodable, Equatable {
  var blob: ScopedCodableBlob
}

struct ScopedRatio: JSONCodable, Equatable {
  var ratio: Double
}

@Suite("Configuration and reporting scopes under attack")
struct ConfigurationScopeAttackTests {
  static let depth = 1000

  /// Opens `depth` scopes, each with a handler noting its number, then runs `body`.
  static func nested<R>(
    _ depth: Int, _ trail: ScopeTrail, _ body: () throws -> R, level: Int = 0
  ) rethrows -> R {
    guard level < depth else { return try body() }
    return try JSON.withConfiguration(.init(onSubstitution: { _ in trail.note(level) })) {
      try nested(depth, trail, body, level: level + 1)
    }
  }

  @Test("1000 nested scopes with a handler each: every handler once, innermost first")
  func deeplyNestedHandlers() throws {
    let trail = ScopeTrail()
    let (note, recorded) = try JSON.recordingSubstitutions {
      try Self.nested(Self.depth, trail) { try LenientNote(jsonString: #"{"text": "t"}"#) }
    }
    #expect(note == LenientNote(text: "t", level: 1))
    #expect(trail.scopes == Array((0..<Self.depth).reversed()))
    #expect(recorded.count == 1)
    #expect(recorded.first?.path == "level")
  }

  @Test("1000 nested scopes: the innermost setting wins, and each scope's own comes back")
  func deeplyNestedSettings() throws {
    func nested(_ level: Int) throws -> [Double] {
      guard level < Self.depth else { return [] }
      let transform: DateTransform = level % 2 == 0 ? .secondsSince1970 : .millisecondsSince1970
      return try JSON.withConfiguration(.init(dateTransform: transform)) {
        let inner = try nested(level + 1)
        // After the scopes inside returned: this scope's transform again.
        let blob = try ScopedBlob(jsonString: #"{"bytes": "", "when": 2000}"#)
        return inner + [try #require(blob.when).timeIntervalSince1970]
      }
    }
    let seconds = try nested(0)
    #expect(seconds.count == Self.depth)
    for (index, value) in seconds.enumerated() {
      let level = Self.depth - 1 - index
      #expect(value == (level % 2 == 0 ? 2000 : 2), "scope \(level)")
    }
  }

  @Test("a handler that opens scopes and decodes in them: called once, never by itself")
  func handlerOpensScopes() throws {
    let trail = ScopeTrail()
    let outer = JSON.Configuration(onSubstitution: { _ in
      trail.note(0)
      // The handler's own decode, three scopes deep, with a handler of its own.
      let inner = ScopeTrail()
      _ = try? Self.nested(3, inner) { try LenientNote(jsonString: #"{"text": "inside"}"#) }
      trail.note(inner.scopes.count)
    })
    let notes = try [LenientNote](
      jsonString: #"[{"text": "a"}, {"text": "b", "level": 2}, {"text": "c"}]"#,
      configuration: outer)
    #expect(notes.map(\.level) == [1, 2, 1])
    #expect(trail.scopes == [0, 3, 0, 3])
  }

  @Test(
    "bad data in every encoding: an error at the value's path on every entry point",
    arguments: [
      (JSON.DataEncoding.base64, "not base64!"), (.base64, "AQI"), (.base64, "AQID\n"),
      (.base64URL, "a+b/"), (.base64URL, "A"), (.hex, "abc"),
      (.hex, "zz"), (.hex, "0x12"), (.hex, "\u{e9}\u{e9}"),
    ])
  func badData(encoding: JSON.DataEncoding, text: String) throws {
    let call = JSON.Configuration(dataEncoding: encoding)
    let member = #"{"bytes": \#(try JSON.string(text).jsonString())}"#
    let model = "\(member)"
    let holder = #"{"blob": \#(member)}"#
    _ = try? ScopedBlob(decode: JSON(jsonString: model))  // the byte path from here on
    _ = try? HoldsScopedBlob(decode: JSON(jsonString: holder))
    let errors = [
      #expect(throws: JSON.Error.self) { try ScopedBlob(jsonString: model, configuration: call) },
      #expect(throws: JSON.Error.self) {
        try ScopedBlob(decode: JSON(jsonString: model), configuration: call)
      },
      #expect(throws: JSON.Error.self) {
        try HoldsScopedBlob(jsonString: holder, configuration: call)
      },
      #expect(throws: JSON.Error.self) {
        try HoldsScopedBlob(decode: JSON(jsonString: holder), configuration: call)
      },
    ]
    for error in errors { #expect(error?.kind == .typeMismatch) }
    #expect(errors[0]?.path == "bytes" && errors[1]?.description == errors[0]?.description)
    #expect(errors[2]?.path == "blob.bytes" && errors[3]?.description == errors[2]?.description)
  }

  @Test("data round-trips in every encoding, through a model and a Codable value")
  func dataRoundTrips() throws {
    let samples = [Data(), Data([0]), Data([0xFB, 0xFF]), Data((0...255).map { UInt8($0) })]
    for encoding in [JSON.DataEncoding.base64, .base64URL, .hex] {
      let call = JSON.Configuration(dataEncoding: encoding)
      for bytes in samples {
        let blob = ScopedBlob(bytes: bytes, when: nil)
        let text = try blob.jsonString(configuration: call)
        #expect(try blob.json(configuration: call) == JSON(jsonString: text))
        #expect(try ScopedBlob(jsonString: text, configuration: call) == blob)
        let holder = HoldsScopedBlob(blob: ScopedCodableBlob(bytes: bytes, when: nil))
        let held = try holder.jsonString(configuration: call)
        #expect(try holder.json(configuration: call) == JSON(jsonString: held))
        #expect(try HoldsScopedBlob(jsonString: held, configuration: call) == holder)
        #expect(try HoldsScopedBlob(decode: JSON(jsonString: held), configuration: call) == holder)
      }
    }
  }

  @Test(
    "bad dates under each transform: an error, the same on every entry point",
    arguments: [
      (DateTransform.secondsSince1970, #""12""#), (.secondsSince1970, #""NaN""#),
      (.millisecondsSince1970, "true"), (.millisecondsSince1970, "1e400"),
      (DateTransform.default, #""2024-02-30T00:00:00Z""#), (.default, "86400"),
      (.default, #""""#),
    ])
  func badDates(transform: DateTransform, value: String) throws {
    let call = JSON.Configuration(dateTransform: transform, nonFiniteNumbers: .strings())
    let holder = #"{"blob": {"bytes": "", "when": \#(value)}}"#
    _ = try? HoldsScopedBlob(decode: JSON(jsonString: #"{"blob": {"bytes": ""}}"#))
    let bytes = #expect(throws: JSON.Error.self) {
      try HoldsScopedBlob(jsonString: holder, configuration: call)
    }
    #expect(bytes?.path == "blob.when")
    if value != "1e400" {  // `JSON(jsonString:)` refuses a number beyond Double's range
      let values = #expect(throws: JSON.Error.self) {
        try HoldsScopedBlob(decode: JSON(jsonString: holder), configuration: call)
      }
      #expect(values?.description == bytes?.description)
    }
  }

  @Test("a call that sets .error for non-finite numbers gets the hint of one that sets none")
  func nonFiniteHintUnderError() throws {
    let text = #"{"ratio": "nan"}"#
    _ = try? ScopedRatio(decode: JSON(jsonString: #"{"ratio": 1}"#))
    let plain = #expect(throws: JSON.Error.self) { try ScopedRatio(jsonString: text) }
    let error = #expect(throws: JSON.Error.self) {
      try ScopedRatio(jsonString: text, configuration: .init(nonFiniteNumbers: .error))
    }
    let values = #expect(throws: JSON.Error.self) {
      try ScopedRatio(
        decode: JSON(jsonString: text), configuration: .init(nonFiniteNumbers: .error))
    }
    #expect(plain?.message.contains("nonFiniteNumbers = .strings()") == true)
    #expect(error?.description == plain?.description)
    #expect(values?.description == plain?.description)
    // A call that reads other spellings names them.
    let python = JSON.Configuration(
      nonFiniteNumbers: .strings(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "NAN"))
    let other = #expect(throws: JSON.Error.self) {
      try ScopedRatio(jsonString: text, configuration: python)
    }
    #expect(other?.message.contains(#"only as "inf", "-inf" and "NAN""#) == true)
  }

  @Test("every task in a group sees the scope; a detached task inside sees none")
  func tasksAndScopes() async throws {
    let call = JSON.Configuration(dateTransform: .millisecondsSince1970)
    let text = #"{"bytes": "", "when": 5000}"#
    let seconds = try await JSON.withConfiguration(call) {
      try await withThrowingTaskGroup(of: Double.self) { group in
        for _ in 0..<16 {
          group.addTask { try ScopedBlob(jsonString: text).when?.timeIntervalSince1970 ?? -1 }
        }
        group.addTask {
          // Detached: the default transform, which reads ISO 8601 strings, not numbers.
          await Task.detached { (try? ScopedBlob(jsonString: text)) == nil ? -2 : -3 }.value
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
    }
    #expect(seconds.sorted() == [-2] + Array(repeating: 5, count: 16))
  }
}
