@_spi(Testing) import AutoMap
import Foundation
import Testing

// A case container's `allKeys` (the one case key synthesized `init(from:)` asks for) is built
// once per key type and name and then shared. Attacked here: names that are one key to `==`
// but not the same bytes, key types that refuse a name another accepts, class keys, more names
// than the table holds, and threads filling it at once.

/// The case key as `init(from:)` saw it: its bytes, and whether any key came at all.
private func seenKey<Key: CodingKey>(_ decoder: any Decoder, _: Key.Type) throws -> String {
  let container = try decoder.container(keyedBy: Key.self)
  guard let key = container.allKeys.first else { return "none" }
  return hex(key.stringValue)
}

/// Keeps whatever name it is given, as `AnyKey` does.
private struct KeptName: CodingKey {
  let stringValue: String
  init(stringValue: String) { self.stringValue = stringValue }
  var intValue: Int? { nil }
  init?(intValue _: Int) { nil }
}

/// Knows no name that starts with "t"; counts the names it was asked for.
private struct NoT: CodingKey {
  static let asked = Shared([String: Int]())
  let stringValue: String
  init?(stringValue: String) {
    Self.asked.withLock { $0[stringValue, default: 0] += 1 }
    guard !stringValue.hasPrefix("t") else { return nil }
    self.stringValue = stringValue
  }
  var intValue: Int? { nil }
  init?(intValue _: Int) { nil }
}

/// A class key that counts the keys made, by name.
private final class CountedKey: CodingKey, @unchecked Sendable {
  static let made = Shared([String: Int]())
  let stringValue: String
  init(stringValue: String) {
    self.stringValue = stringValue
    Self.made.withLock { $0[stringValue, default: 0] += 1 }
  }
  var intValue: Int? { nil }
  init?(intValue _: Int) { nil }
}

private enum SeenExternal: JSONCodable, Codable, Equatable {
  case seen(String)
  init(from decoder: any Decoder) throws { self = .seen(try seenKey(decoder, KeptName.self)) }
  func encode(to _: any Encoder) throws {}
}

private enum SeenInternal: JSONCodable, Codable, Equatable {
  case seen(String)
  static let caseLayout = JSON.CaseLayout.internalTag("type")
  init(from decoder: any Decoder) throws { self = .seen(try seenKey(decoder, KeptName.self)) }
  func encode(to _: any Encoder) throws {}
}

private enum SeenAdjacent: JSONCodable, Codable, Equatable {
  case seen(String)
  static let caseLayout = JSON.CaseLayout.adjacentTag("type", content: "value")
  init(from decoder: any Decoder) throws { self = .seen(try seenKey(decoder, KeptName.self)) }
  func encode(to _: any Encoder) throws {}
}

private enum SeenNoT: JSONCodable, Codable, Equatable {
  case seen(String)
  init(from decoder: any Decoder) throws { self = .seen(try seenKey(decoder, NoT.self)) }
  func encode(to _: any Encoder) throws {}
}

private enum SeenCounted: JSONCodable, Codable, Equatable {
  case seen(ObjectIdentifier?)
  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CountedKey.self)
    self = .seen(container.allKeys.first.map(ObjectIdentifier.init))
  }
  func encode(to _: any Encoder) throws {}
}

/// Takes either spelling of "é" (by `==`, as a synthesized key's `switch` does) and answers
/// with its own, the decomposed one: the key is not the document's bytes.
private struct SpelledKey: CodingKey {
  let stringValue: String
  init?(stringValue: String) {
    guard stringValue == "e\u{301}" else { return nil }
    self.stringValue = "e\u{301}"
  }
  var intValue: Int? { nil }
  init?(intValue _: Int) { nil }
}

/// An enum whose `init(from:)` says what its case container answers for the case key
/// `allKeys` gave: whether it `contains` it, and whether the payload's `"a"` reads under it.
/// `encode` writes that payload under the layout's name (the untagged layout learns from it
/// what the case needs).
private protocol SpelledCase: JSONCodable, Codable, Equatable {
  static func seen(_ said: String) -> Self
}

extension SpelledCase {
  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: SpelledKey.self)
    guard let key = container.allKeys.first else {
      self = Self.seen("no key")
      return
    }
    let payload = try? container.nestedContainer(keyedBy: KeptName.self, forKey: key)
    let read = (try? payload?.decode(Int.self, forKey: KeptName(stringValue: "a"))) != nil
    self = Self.seen("contains \(container.contains(key)), payload \(read)")
  }

  func encode(to encoder: any Encoder) throws {
    guard case .untagged(let names) = Self.caseLayout, let name = names.first else { return }
    var container = encoder.container(keyedBy: KeptName.self)
    var payload = container.nestedContainer(
      keyedBy: KeptName.self, forKey: KeptName(stringValue: name))
    try payload.encode(1, forKey: KeptName(stringValue: "a"))
  }
}

private enum SpelledExternal: SpelledCase {
  case seen(String)
}

private enum SpelledInternal: SpelledCase {
  case seen(String)
  static let caseLayout = JSON.CaseLayout.internalTag("type")
}

private enum SpelledAdjacent: SpelledCase {
  case seen(String)
  static let caseLayout = JSON.CaseLayout.adjacentTag("type", content: "value")
}

/// Untagged, its one case named in each spelling.
private enum SpelledUntagged: SpelledCase {
  case seen(String)
  static let caseLayout = JSON.CaseLayout.untagged(["\u{E9}"])
}

private enum SpelledUntaggedDecomposed: SpelledCase {
  case seen(String)
  static let caseLayout = JSON.CaseLayout.untagged(["e\u{301}"])
}

/// Untagged, as `SpelledUntagged`, but its `init(from:)` throws where that one records (a
/// trial that swallowed an error is left to the reference): so the untagged byte trial's case
/// container is asked for the key `allKeys` gave. It throws a missing key, not a type
/// mismatch, so that the plan's check of its cases takes the name for a case.
/// `asksContains`: whether it asks `contains` (and then reads no payload), or opens the
/// payload only; each question must be answered by bytes.
private protocol StrictSpelled: JSONCodable, Codable, Equatable {
  static var asksContains: Bool { get }
  static func read(_ value: Int) -> Self
}

extension StrictSpelled {
  static var caseLayout: JSON.CaseLayout { .untagged(["\u{E9}"]) }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: SpelledKey.self)
    let missing = DecodingError.keyNotFound(
      KeptName(stringValue: "a"), .init(codingPath: [], debugDescription: "no case key"))
    guard let key = container.allKeys.first else { throw missing }
    if Self.asksContains {
      guard container.contains(key) else { throw missing }
      self = .read(0)
    } else {
      let payload = try container.nestedContainer(keyedBy: KeptName.self, forKey: key)
      self = .read(try payload.decode(Int.self, forKey: KeptName(stringValue: "a")))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: KeptName.self)
    var payload = container.nestedContainer(
      keyedBy: KeptName.self, forKey: KeptName(stringValue: "\u{E9}"))
    try payload.encode(1, forKey: KeptName(stringValue: "a"))
  }
}

private enum StrictOpening: StrictSpelled {
  case read(Int)
  static var asksContains: Bool { false }
}

private enum StrictContains: StrictSpelled {
  case read(Int)
  static var asksContains: Bool { true }
}

/// The value every entry point agrees on, if they agree on one.
private func agreed<T: JSONDecodable & Equatable>(_: T.Type, _ text: String) -> T? {
  try? agreedDecoding(T.self, text)?.get()
}

/// The bytes `seenKey` shows for `name`.
private func hex(_ name: String) -> String {
  name.utf8.map { String($0, radix: 16) }.joined(separator: " ")
}

@Suite("Case keys built once and shared")
struct CaseKeysTests {
  /// Names that `==` takes for one: precomposed and combining accents, and the Kelvin sign.
  private static let spellings = [("\u{E9}", "e\u{301}"), ("\u{212A}", "K")]

  @Test("each spelling of a name gets a key of its own bytes, in every tag layout")
  func spellings() throws {
    for (first, second) in Self.spellings {
      for name in [first, second, first, second] {
        let external = "{\"\(name)\": {}}"
        #expect(try [SeenExternal](jsonString: "[\(external)]") == [.seen(hex(name))])
        #expect(agreed(SeenExternal.self, external) == .seen(hex(name)))
        let internalText = "{\"type\": \"\(name)\"}"
        #expect(try [SeenInternal](jsonString: "[\(internalText)]") == [.seen(hex(name))])
        #expect(
          agreed(SeenInternal.self, internalText) == .seen(hex(name)))
        let adjacent = "{\"type\": \"\(name)\", \"value\": {}}"
        #expect(try [SeenAdjacent](jsonString: "[\(adjacent)]") == [.seen(hex(name))])
        #expect(
          agreed(SeenAdjacent.self, adjacent) == .seen(hex(name)))
      }
    }
  }

  /// A session keeps the case names it met, by their first 16 bytes and count. Attacked:
  /// names at 15, 16 and 17 bytes that differ only in their last byte, names that share 16
  /// bytes, escaped and non-ASCII spellings, and more names than a session keeps, each met
  /// several times in one array.
  @Test("case names met again keep their own bytes")
  func caseNamesMetAgain() throws {
    let sixteen = String(repeating: "n", count: 16)
    var names = [
      "a", "b", "ab", "ba", String(repeating: "n", count: 15), sixteen, sixteen + "a",
      sixteen + "b", String(sixteen.dropLast()) + "o", "\u{E9}", "e\u{301}", "tap", "swipe",
    ]
    names += (0..<10).map { "case\($0)" }
    let order = (0..<(names.count * 3)).map { names[($0 * 7) % names.count] }
    let expected = order.map { SeenExternal.seen(hex($0)) }
    let external = order.map { "{\"\($0)\": {}}" }.joined(separator: ",")
    #expect(try [SeenExternal](jsonString: "[\(external)]") == expected)
    // Escaped: `\u0074ap` is "tap", made from its resolved bytes.
    let escaped = order.map { $0 == "tap" ? "\\u0074ap" : $0 }
    let internalText = escaped.map { "{\"type\": \"\($0)\"}" }.joined(separator: ",")
    #expect(
      try [SeenInternal](jsonString: "[\(internalText)]")
        == order.map { SeenInternal.seen(hex($0)) })
    let adjacent = escaped.map { "{\"type\": \"\($0)\", \"value\": {}}" }.joined(separator: ",")
    #expect(
      try [SeenAdjacent](jsonString: "[\(adjacent)]")
        == order.map { SeenAdjacent.seen(hex($0)) })
  }

  /// A key that `==` takes for the document's case name but that is other bytes: the case
  /// container answers for it as the reference does, on every entry point and in every layout.
  @Test("a case key of other bytes than the name: every entry point answers alike")
  func otherSpelling() {
    /// What every entry point agrees `T` says of `text`, if they agree.
    func said<T: SpelledCase>(_: T.Type, _ text: String) -> String? {
      agreed(T.self, text).map { "\($0)" }
    }
    for name in ["\u{E9}", "e\u{301}"] {
      // The key's own spelling is the decomposed one: only that document has its case
      // (compared by bytes: `==` takes the two spellings for one).
      let expected =
        name.utf8.elementsEqual("e\u{301}".utf8)
        ? "contains true, payload true" : "contains false, payload false"
      for _ in 0..<2 {
        let external = said(SpelledExternal.self, "{\"\(name)\": {\"a\": 1}}")
        let internalTag = said(SpelledInternal.self, "{\"type\": \"\(name)\", \"a\": 1}")
        let adjacent = said(
          SpelledAdjacent.self, "{\"type\": \"\(name)\", \"value\": {\"a\": 1}}")
        #expect(external != nil && external == internalTag && internalTag == adjacent, "\(name)")
        #expect(external == "seen(\"\(expected)\")", "\(name)")
      }
    }
    // Untagged: the case's name is the layout's, not the document's.
    let precomposed = agreed(SpelledUntagged.self, #"{"a": 1}"#)
    let decomposed = agreed(SpelledUntaggedDecomposed.self, #"{"a": 1}"#)
    #expect(precomposed == .seen("contains false, payload false"))
    #expect(decomposed == .seen("contains true, payload true"))
    // The case's name (precomposed) is not the key's bytes: no case maps, on every entry
    // point, in an array of them too, once the plan is warm.
    func refused<T: StrictSpelled>(_: T.Type) {
      for _ in 0..<2 {
        // No case maps; the plan itself is valid (the name is taken for a case).
        guard case .failure(let error)? = agreedDecoding(T.self, #"{"a": 1}"#) else {
          Issue.record("\(T.self) decoded, or its entry points disagree")
          return
        }
        #expect(error.kind != .invalidModel, "\(error)")
        let many = #"[{"a": 1}, {"a": 2}]"#
        #expect(throws: JSON.Error.self) { try [T](jsonString: many) }
        #expect(throws: JSON.Error.self) { try [T](jsonData: Data(many.utf8)) }
      }
    }
    refused(StrictOpening.self)
    refused(StrictContains.self)
  }

  @Test("a key type that refuses a name gets no key, whatever another type was given")
  func refusedName() throws {
    let text = #"[{"tap": {}}, {"swipe": {}}, {"tap": {}}]"#
    for _ in 0..<3 {
      #expect(
        try [SeenExternal](jsonString: text) == [
          .seen(hex("tap")), .seen(hex("swipe")), .seen(hex("tap")),
        ])
      #expect(
        try [SeenNoT](jsonString: text) == [.seen("none"), .seen(hex("swipe")), .seen("none")])
    }
    #expect(agreed(SeenNoT.self, #"{"tap": {}}"#) == .seen("none"))
  }

  @Test("class keys are made again for each value, never shared")
  func classKeys() throws {
    let text = "[" + Array(repeating: #"{"tap": {}}"#, count: 5).joined(separator: ",") + "]"
    let before = CountedKey.made.current["tap", default: 0]
    let values = try [SeenCounted](jsonString: text) + [SeenCounted](jsonData: Data(text.utf8))
    #expect(CountedKey.made.current["tap", default: 0] - before >= 10)
    let identities = values.compactMap { value -> ObjectIdentifier? in
      guard case .seen(let identity) = value else { return nil }
      return identity
    }
    #expect(identities.count == 10)
  }

  @Test("more names than the table holds: each value its own key")
  func manyNames() throws {
    let names =
      (0..<1_200).map { "case\($0)" } + (0..<40).map { "a name long enough for the heap \($0)" }
    let text = "[" + names.map { "{\"\($0)\": {}}" }.joined(separator: ",") + "]"
    for _ in 0..<2 {
      #expect(try [SeenExternal](jsonString: text) == names.map { .seen(hex($0)) })
      #expect(try [SeenExternal](jsonData: Data(text.utf8)) == names.map { .seen(hex($0)) })
    }
  }

  @Test("threads filling the table at once each get their own keys")
  func threads() async throws {
    let outcomes = await withTaskGroup(of: Bool.self) { group in
      for task in 0..<8 {
        group.addTask {
          let names = (0..<300).map { "t\(task)n\($0 % 150)" }
          let text = "[" + names.map { "{\"\($0)\": {}}" }.joined(separator: ",") + "]"
          let expected = names.map { SeenExternal.seen(hex($0)) }
          let refused = names.map { _ in SeenNoT.seen("none") }
          for _ in 0..<4 {
            guard (try? [SeenExternal](jsonString: text)) == expected,
              (try? [SeenNoT](jsonString: text)) == refused
            else { return false }
          }
          return true
        }
      }
      var outcomes: [Bool] = []
      for await outcome in group { outcomes.append(outcome) }
      return outcomes
    }
    #expect(outcomes == Array(repeating: true, count: 8))
  }
}

/// The table itself, with names made to meet in one slot (a hash never chooses that).
@Suite("The shared table of case keys", .serialized)
struct CaseKeyTableTests {
  private func names<Key: CodingKey>(_: Key.Type, _ name: String, home: Int) -> [String] {
    AutoMapTesting.caseKeys(Key.self, named: name, home: home).map(\.stringValue)
  }

  @Test(
    "a name another key type put in the slot is not taken for this type's", arguments: [7, 1_023])
  func typeChecked(home: Int) {
    AutoMapTesting.forgetCaseKeys()
    for _ in 0..<2 {
      #expect(names(KeptName.self, "tap", home: home) == ["tap"])
      #expect(names(NoT.self, "tap", home: home) == [])
    }
  }

  @Test("a spelling `==` takes for a name in the slot gets keys of its own bytes")
  func bytesChecked() {
    for (first, second) in [("\u{E9}", "e\u{301}"), ("\u{212A}", "K")] {
      AutoMapTesting.forgetCaseKeys()
      for name in [first, second, first, second] {
        let keys = names(KeptName.self, name, home: 100)
        #expect(keys.map { Array($0.utf8) } == [Array(name.utf8)])
      }
    }
  }

  @Test("names past the slots a home may use are built, from any home")
  func fullSlots() {
    AutoMapTesting.forgetCaseKeys()
    let all = (0..<9).map { "n\($0)" }
    for _ in 0..<3 {
      for home in [0, 1_021] {
        for name in all { #expect(names(KeptName.self, name, home: home) == [name]) }
      }
    }
  }

  @Test("names a key refuses, and long names, are not kept: a document cannot fill memory")
  func notKept() {
    AutoMapTesting.forgetCaseKeys()
    let short = String(repeating: "a", count: 64)
    let long = String(repeating: "a", count: 65)
    for name in ["tz", short, long] {
      let before = NoT.asked.current[name, default: 0]
      for _ in 0..<3 { _ = names(NoT.self, name, home: 200) }
      let kept = name == short
      #expect(NoT.asked.current[name, default: 0] - before == (kept ? 1 : 3), "\(name.count)")
    }
  }

  @Test("class keys are built each time")
  func classKeys() {
    AutoMapTesting.forgetCaseKeys()
    let before = CountedKey.made.current["x", default: 0]
    for _ in 0..<3 { #expect(names(CountedKey.self, "x", home: 50) == ["x"]) }
    #expect(CountedKey.made.current["x", default: 0] - before == 3)
  }
}
