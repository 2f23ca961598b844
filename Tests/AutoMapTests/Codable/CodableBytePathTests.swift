@_spi(Testing) import AutoMap
import Foundation
import Testing

// Issue 19: `Codable` properties and enums with payloads are read and written straight over
// the bytes (no `JSON` tree), and agree with the `JSON` path, the reference, on every input.

/// Records which `Decoder` and `Encoder` ran it: the byte path must be the one taken.
private struct PathProbe: Codable, Equatable {
  var decodedBy = ""
  init() {}
  init(from decoder: any Decoder) throws {
    decodedBy = "\(type(of: decoder))"
    _ = try decoder.container(keyedBy: AnyKey.self)
  }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: AnyKey.self)
    try container.encode("\(type(of: encoder))", forKey: AnyKey("by"))
  }
}

/// A key of any name, for hand-written `Codable` code in the byte-path suites.
struct AnyKey: CodingKey {
  let stringValue: String
  init(_ string: String) { stringValue = string }
  init?(stringValue: String) { self.stringValue = stringValue }
  var intValue: Int? { nil }
  init?(intValue: Int) { nil }
}

struct Coin: Codable, Equatable {
  var amount: Double
  var currency: String
  var cents: Int?
  var tags: [String]?
}

private struct Bill: JSONCodable, Equatable {
  var id = 0
  var total = Coin(amount: 0, currency: "")
  var lines: [Coin] = []
  var discount: Coin?
  var nested: [[Coin?]]?
}

private struct ProbeHolder: JSONCodable, Equatable {
  var probe = PathProbe()
}

/// An external-tag enum whose payload records which `Decoder` read it.
private enum ProbeCase: Codable, JSONCodable, Equatable {
  case probe(PathProbe)
  case other
}

/// An enum whose own `init(from:)` reads two keys of one object: the byte path shows synthesized
/// code one case key, so this one gives up there and the reference reads it, with one result.
private enum TwoKeyed: Codable, JSONCodable, Equatable {
  case pair(Int, Int)
  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: AnyKey.self)
    let keys = container.allKeys.map(\.stringValue).sorted()
    guard keys == ["a", "b"] else {
      throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "\(keys)"))
    }
    self = .pair(
      try container.decode(Int.self, forKey: AnyKey("a")),
      try container.decode(Int.self, forKey: AnyKey("b")))
  }
  func encode(to encoder: any Encoder) throws {
    guard case .pair(let a, let b) = self else { return }
    var container = encoder.container(keyedBy: AnyKey.self)
    try container.encode(a, forKey: AnyKey("a"))
    try container.encode(b, forKey: AnyKey("b"))
  }
}

protocol MotionLayout: Sendable { static var layout: JSON.CaseLayout { get } }
enum MotionExternal: MotionLayout { static var layout: JSON.CaseLayout { .externalTag } }
enum MotionInternal: MotionLayout { static var layout: JSON.CaseLayout { .internalTag("type") } }
enum MotionAdjacent: MotionLayout {
  static var layout: JSON.CaseLayout { .adjacentTag("type", content: "value") }
}

indirect enum Motion<Layout: MotionLayout>: Codable, JSONCodable, Equatable {
  case tap(x: Int, y: Int)
  case swipe(dx: Double, dy: Double, fingers: Int?)
  case pinch(scale: Double)
  case stop
  case group(members: [Motion])
  case coin(pay: Coin? = nil)
  static var caseLayout: JSON.CaseLayout { Layout.layout }

  static func == (a: Self, b: Self) -> Bool {
    (try? a.jsonString(options: .sortedKeys)) == (try? b.jsonString(options: .sortedKeys))
  }
}

// Hostile `Codable` code: containers asked twice and of the wrong kind, a decoder kept after
// its value was decoded, keys written twice, writes after the parent went on.
private final class Kept: @unchecked Sendable {
  static let shared = Kept()
  private let lock = NSLock()
  private var decoders: [any Decoder] = []
  private var containers: [KeyedEncodingContainer<AnyKey>] = []
  func keep(_ decoder: any Decoder) { lock.withLock { decoders.append(decoder) } }
  func keep(_ container: KeyedEncodingContainer<AnyKey>) {
    lock.withLock { containers.append(container) }
  }
  func takeAll() -> ([any Decoder], [KeyedEncodingContainer<AnyKey>]) {
    lock.withLock {
      defer {
        decoders = []
        containers = []
      }
      return (decoders, containers)
    }
  }
}

private struct Hostile: Codable, Equatable {
  var a: Int
  var b: String
  var again: Int
  var lossy: [Int]

  init(a: Int, b: String, again: Int, lossy: [Int]) {
    (self.a, self.b, self.again, self.lossy) = (a, b, again, lossy)
  }

  init(from decoder: any Decoder) throws {
    Kept.shared.keep(decoder)
    let first = try decoder.container(keyedBy: AnyKey.self)
    let second = try decoder.container(keyedBy: AnyKey.self)  // the same object again
    b = try second.decode(String.self, forKey: AnyKey("b"))
    a = try first.decode(Int.self, forKey: AnyKey("a"))
    again = try second.decode(Int.self, forKey: AnyKey("a"))  // asked twice
    // The wrong kind, caught: the reference throws too, and goes on.
    _ = try? decoder.unkeyedContainer()
    var list = try first.nestedUnkeyedContainer(forKey: AnyKey("list"))
    var lossy: [Int] = []
    while !list.isAtEnd {
      if let value = try? list.decode(Int.self) {
        lossy.append(value)
      } else {
        _ = try list.decode(String.self)
      }
    }
    self.lossy = lossy
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: AnyKey.self)
    try container.encode(a, forKey: AnyKey("a"))
    var nested = container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("n"))
    try container.encode(b, forKey: AnyKey("b"))
    try nested.encode(again, forKey: AnyKey("late"))  // after the parent went on
    Kept.shared.keep(container)
    var again = encoder.container(keyedBy: AnyKey.self)
    try again.encode(lossy, forKey: AnyKey("list"))
    if a == 2 { try again.encode(3, forKey: AnyKey("a")) }  // a key written twice
  }
}

private struct HostileHolder: JSONCodable, Equatable {
  var hostile = Hostile(a: 0, b: "", again: 0, lossy: [])
  var after = 0
}

/// Decodes `text` from bytes, from a `String` and from `JSON`: the three agree (value or
/// error); returns the `JSON` path's result. (Shared by the `Codable` suites.)
func agree<T: JSONDecodable & Equatable>(
  _: T.Type, _ text: String, sourceLocation: SourceLocation = #_sourceLocation
) -> Result<T, JSON.Error> {
  func run(_ body: () throws -> T) -> Result<T, JSON.Error> {
    Result { try body() }.mapError { $0 as? JSON.Error ?? JSON.Error.custom("\($0)") }
  }
  let reference = run { try T(decode: JSON(jsonString: text)) }
  for _ in 0..<2 {  // the first use and a later one
    for other in [run { try T(jsonData: Data(text.utf8)) }, run { try T(jsonString: text) }] {
      switch (reference, other) {
      case (.success(let a), .success(let b)):
        #expect(a == b, "\(text)", sourceLocation: sourceLocation)
      case (.failure(let a), .failure(let b)):
        #expect(a.description == b.description, "\(text)", sourceLocation: sourceLocation)
      default:
        Issue.record("\(text): \(reference) vs \(other)", sourceLocation: sourceLocation)
      }
    }
  }
  return reference
}

/// Writes `value` as bytes and through `JSON`, with every writing option: the same text, or
/// the same error. (Shared by the byte-path suites.)
func agreeWriting<T: JSONEncodable>(
  _ value: T, sourceLocation: SourceLocation = #_sourceLocation
) {
  for options: JSON.WritingOptions in [[], [.sortedKeys], [.omitNulls], [.prettyPrinted]] {
    let reference = Result { try value.json.jsonString(options: options) }
    for _ in 0..<2 {
      let bytes = Result { try value.jsonString(options: options) }
      switch (reference, bytes) {
      case (.success(let a), .success(let b)):
        #expect(a == b, "\(options)", sourceLocation: sourceLocation)
      case (.failure(let a), .failure(let b)):
        #expect("\(a)" == "\(b)", sourceLocation: sourceLocation)
      default: Issue.record("\(reference) vs \(bytes)", sourceLocation: sourceLocation)
      }
    }
  }
}

extension ProcessWideState {
  @Suite("Codable values straight over bytes agree with the JSON path", .serialized)
  struct CodableBytePathTests {
    @Test("bytes are read by the byte Decoder and written by the byte Encoder")
    func pathTaken() throws {
      ProcessWideState.expectInside()
      let text = #"{"probe": {"x": 1}}"#
      _ = try ProbeHolder(jsonString: text)  // the first use observes the reflection
      #expect(try ProbeHolder(jsonString: text).probe.decodedBy == "ByteDecoder")
      #expect(try ProbeHolder(decode: JSON(jsonString: text)).probe.decodedBy == "JSONValueDecoder")
      _ = try ProbeHolder().jsonString()
      #expect(try ProbeHolder().jsonString() == #"{"probe":{"by":"ByteEncoder"}}"#)
      #expect(try ProbeHolder().json.jsonString() == #"{"probe":{"by":"JSONValueEncoder"}}"#)
      // Enums with payloads too, in every layout but the untagged one.
      _ = try Motion<MotionInternal>(jsonString: #"{"type": "stop"}"#)
      let inside = try Motion<MotionInternal>(
        jsonString: #"{"type": "coin", "pay": {"amount": 1, "currency": "E"}}"#)
      #expect(inside == .coin(pay: Coin(amount: 1, currency: "E")))
      // The external tag: the case key's payload is read in place.
      let probeText = #"[{"probe": {"_0": {}}}, "other"]"#
      _ = try [ProbeCase](jsonString: probeText)  // the first use observes the reflection
      let probed = try [ProbeCase](jsonString: probeText)
      guard case .probe(let probe) = probed.first else {
        Issue.record("\(probed)")
        return
      }
      #expect(probe.decodedBy == "ByteDecoder")
      #expect(throws: JSON.Error.self) {
        try ProbeCase(jsonString: #"{"probe": {"_0": {}}, "other": {}}"#)
      }
      // A repeated case key: the reference decides (the last occurrence is the one key).
      let repeated = #"{"other": {"x": 1}, "other": {}}"#
      #expect(try ProbeCase(jsonString: repeated) == ProbeCase(decode: JSON(jsonString: repeated)))
    }

    @Test("an enum's own init(from:) that reads other keys than one case key gets the whole object")
    func handWrittenEnum() throws {
      for text in [#"{"a": 1, "b": 2}"#, #"{"b": 2, "a": 1}"#, #"[{"a": 1, "b": 2}]"#] {
        let wrapped = text.hasPrefix("[") ? text : "[\(text)]"
        #expect(try [TwoKeyed](jsonString: wrapped) == [.pair(1, 2)])
        #expect(try [TwoKeyed](decode: JSON(jsonString: wrapped)) == [.pair(1, 2)])
      }
      #expect(throws: JSON.Error.self) { try TwoKeyed(jsonString: #"{"a": 1}"#) }
    }

    @Test("Codable properties: every entry point agrees, values and errors")
    func properties() throws {
      let inputs = [
        #"{"id": 1, "total": {"amount": 1.5, "currency": "EUR"}, "lines": []}"#,
        #"{"id": 1, "total": {"currency": "EUR", "amount": 2}, "lines": [{"amount": 1, "currency": "X", "cents": 3, "tags": ["a", "b"]}], "discount": null}"#,
        #" { "id": 2, "lines" : [ { "currency" : "X" , "amount" : -0.0 , "cents" : null } ] , "total" : { "amount" : 1e3 , "currency" : "\u00e9" } , "discount" : { "amount" : 7 , "currency" : "Y", "extra": [1, {"a": null}] } } "#,
        #"{"id": 1, "total": {"amount": 1, "currency": "E"}, "nested": [[null, {"amount": 1, "currency": "Z"}], []]}"#,
        // Unusual documents, which the reference decides.
        #"{"id": 1, "total": {"amount": 1, "currency": "E", "currency": "F"}}"#,
        #"{"id": 1, "total": {"amount": 1, "\u0063urrency": "E"}}"#,
        #"{"id": 1, "total": {"amount": 1}}"#,
        #"{"id": 1, "total": {"amount": "1", "currency": "E"}}"#,
        #"{"id": 1, "total": {"amount": 1, "currency": "E"}, "lines": [{"amount": 1, "currency": 2}]}"#,
        #"{"id": 1, "total": {"amount": 1, "currency": "E"}, "lines": {}}"#,
        #"{"id": 1, "total": [], "lines": []}"#,
        #"{"id": 1, "total": {"amount": 1, "currency": "E"}, "lines": [{"amount": 1, "currency": "E"},]}"#,
        #"{"id": 1, "total": {"amount": 1, "currency": "E", "tags": ["\#u{FF}"]}}"#,
        #"{"id": 1, "total": {"amount": 1, "currency": "E", "cents": 1.5}}"#,
        #"{"id": 1, "total": {"amount": 1, "currency": "E", "cents": 9223372036854775808}}"#,
        #"{"id": 1, "total": {"amount": 1, "currency": "E"}, "discount": {"amount": 1, "currency": "E"}, "discount": null}"#,
      ]
      var outcomes: Set<String> = []
      for input in inputs {
        switch agree(Bill.self, input) {
        case .success(let value):
          outcomes.insert("ok")
          agreeWriting(value)
        case .failure(let error): outcomes.insert(error.path)
        }
      }
      #expect(outcomes.isSuperset(of: ["ok", "total.currency", "lines[0].currency"]))
      // Values that only the reference writes: non-finite numbers, many keys.
      agreeWriting(Bill(total: Coin(amount: .infinity, currency: "E")))
      agreeWriting(Bill(lines: [Coin(amount: 1, currency: "\u{0}\"\\")], discount: nil))
    }

    @Test("enums with payloads in every tagged layout: every entry point agrees")
    func enums() throws {
      func check<L: MotionLayout>(_: L.Type, _ inputs: [String]) -> Set<String> {
        var outcomes: Set<String> = []
        for input in inputs {
          switch agree(Motion<L>.self, input) {
          case .success(let value):
            outcomes.insert("ok")
            agreeWriting(value)
            agreeWriting([value, value])
          case .failure(let error): outcomes.insert(error.path)
          }
        }
        return outcomes
      }
      let external = check(
        MotionExternal.self,
        [
          #"{"tap": {"x": 1, "y": 2}}"#, #"{"stop": {}}"#, #""stop""#, #"{"stop": {"extra": 1}}"#,
          #"{"swipe": {"dx": 1, "dy": 2, "fingers": null}}"#,
          #"{"group": {"members": [{"tap": {"y": 2, "x": 1}}, "stop", {"pinch": {"scale": 2}}]}}"#,
          #"{"coin": {}}"#, #"{"coin": {"pay": {"amount": 1, "currency": "E"}}}"#,
          #"{"tap": {"x": 1, "y": 2}, "stop": {}}"#, #"{"tap": {"x": 1, "y": 2, "x": 3}}"#,
          #"{"tap": {"x": 1}}"#, #"{"nope": {}}"#, #""nope""#, #"{}"#, "[]", "1",
          #"{"group": {"members": [{"tap": {"x": "1", "y": 2}}]}}"#,
        ])
      #expect(external.isSuperset(of: ["ok", "tap.y", "group.members[0].tap.x"]))
      let `internal` = check(
        MotionInternal.self,
        [
          #"{"type": "tap", "x": 1, "y": 2}"#, #"{"x": 1, "y": 2, "type": "tap"}"#,
          #"{"type": "stop"}"#, #"{"type": "stop", "extra": [1, 2]}"#,
          #"{"type": "group", "members": [{"type": "pinch", "scale": 1.5}, {"type": "stop"}]}"#,
          #"{"type": "coin", "pay": null}"#, #"{"type": "tap", "x": 1}"#,
          #"{"type": "tap", "x": 1, "y": 2, "type": "stop"}"#, #"{"type": 1}"#, #"{"x": 1}"#,
          #"{"type": "nope"}"#, #""tap""#,
          #"{"type": "group", "members": [{"type": "tap", "x": 1, "y": "2"}]}"#,
        ])
      #expect(`internal`.isSuperset(of: ["ok", "y", "type", "members[0].y"]))
      let adjacent = check(
        MotionAdjacent.self,
        [
          #"{"type": "tap", "value": {"x": 1, "y": 2}}"#,
          #"{"value": {"x": 1, "y": 2}, "type": "tap"}"#,
          #"{"type": "stop"}"#, #"{"type": "stop", "value": {}}"#, #"{"type": "stop", "other": 1}"#,
          #"{"type": "group", "value": {"members": [{"type": "stop"}, {"type": "pinch", "value": {"scale": 2}}]}}"#,
          #"{"type": "tap", "value": {"x": 1}}"#, #"{"type": "tap", "value": [1, 2]}"#,
          #"{"type": "tap"}"#, #"{"value": {}}"#,
          #"{"type": "tap", "value": {"x": 1, "y": 2}, "value": {}}"#,
        ])
      #expect(adjacent.isSuperset(of: ["ok", "value.y", "type"]))
    }

    @Test("hostile Codable code gets what it would from the reference, and never a freed byte")
    func hostile() throws {
      let texts = [
        #"{"hostile": {"a": 1, "b": "x", "list": [1, "two", 3]}, "after": 4}"#,
        #"{"after": 4, "hostile": {"list": [], "b": "x", "a": 2}}"#,
        #"{"hostile": {"a": 1, "b": "x", "list": [true]}}"#,
      ]
      for text in texts {
        if case .success(let value) = agree(HostileHolder.self, text) {
          agreeWriting(value)
        }
      }
      agreeWriting(HostileHolder(hostile: Hostile(a: 2, b: "y", again: 3, lossy: [1])))
      // What the hostile code kept: using it now is an error, never a read of freed memory.
      let (decoders, containers) = Kept.shared.takeAll()
      #expect(!decoders.isEmpty && !containers.isEmpty)
      for decoder in decoders {
        do {
          let container = try decoder.container(keyedBy: AnyKey.self)
          _ = try? container.decode(Int.self, forKey: AnyKey("a"))
          _ = container.allKeys
        } catch {}
        if var list = try? decoder.unkeyedContainer() { _ = try? list.decode(Int.self) }
      }
      for var container in containers { try? container.encode(1, forKey: AnyKey("late")) }
    }
  }
}
