import AutoMap
import Foundation
import Testing

/// Codable through its AutoMap mapping.
struct Customer: CodableByMapping, DefaultInitable, Equatable {
  static let keyStyle = JSON.KeyStyle.snakeCase
  var userID = 0
  var displayName = ""
  var theme = "light"
  var balance = Price(0)
  static func specificOptions() -> [String: SpecificOption] { ["userID": "uid"] }
}

/// `JSONCodable, Codable` without the marker: the compiler's synthesized Codable.
struct Synthesized: JSONCodable, Codable, Equatable {
  var userID: Int
  static func specificOptions() -> [String: SpecificOption] { ["userID": "uid"] }
}

class BridgedPet: CodableByMapping, DefaultInitable {
  var name = ""
  required init() {}
}

final class Hound: BridgedPet {
  var breed = ""
}

/// How deeply nested a property list's arrays are, read with Foundation alone.
private struct PlistDepth: Decodable {
  var depth = 0
  init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    if !container.isAtEnd { depth = try container.decode(PlistDepth.self).depth }
    depth += 1
  }
}

@Suite("Codable both ways")
struct CodableBridgeTests {
  @Test("a CodableByMapping model encodes and decodes through Foundation with its mapping")
  func foundationUsesTheMapping() throws {
    let account = Customer(userID: 7, displayName: "Ada", theme: "dark", balance: Price(5, "USD"))
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let data = try encoder.encode(account)
    #expect(
      String(decoding: data, as: UTF8.self)
        == #"{"balance":{"amount":5,"currency":"USD"},"display_name":"Ada","theme":"dark","uid":7}"#
    )
    #expect(try JSONDecoder().decode(Customer.self, from: data) == account)
    #expect(try JSON(jsonData: data) == account.json)
    // Declared defaults for absent keys, as AutoMap gives them.
    let partial = try JSONDecoder().decode(Customer.self, from: Data(#"{"uid": 1}"#.utf8))
    #expect(partial == Customer(userID: 1))
    // Any Codable API: property lists, arrays of models.
    let plist = try PropertyListEncoder().encode([account, partial])
    #expect(try PropertyListDecoder().decode([Customer].self, from: plist) == [account, partial])
  }

  @Test("Foundation's errors carry the full coding path and AutoMap's message")
  func foundationErrors() throws {
    struct Outer: Codable { var accounts: [Customer] }
    let text = #"{"accounts": [{"uid": 1}, {"uid": "seven"}]}"#
    do {
      _ = try JSONDecoder().decode(Outer.self, from: Data(text.utf8))
      Issue.record("decoded")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.codingPath.map(\.stringValue) == ["accounts", "Index 1", "uid"])
      #expect(context.debugDescription == #"at uid: expected Int, found string "seven""#)
      #expect(context.underlyingError is JSON.Error)
    }
  }

  @Test("without the marker a JSONCodable, Codable type keeps the synthesized Codable")
  func synthesisIsKept() throws {
    let value = Synthesized(userID: 3)
    #expect(String(decoding: try JSONEncoder().encode(value), as: UTF8.self) == #"{"userID":3}"#)
    #expect(try value.jsonString() == #"{"uid":3}"#)
    #expect(try JSONDecoder().decode(Synthesized.self, from: Data(#"{"userID":3}"#.utf8)) == value)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(Synthesized.self, from: Data(#"{"uid":3}"#.utf8))
    }
  }

  @Test("classes: no extra code, a subclass decodes and encodes as itself")
  func classes() throws {
    let data = Data(#"{"name": "Rex", "breed": "collie"}"#.utf8)
    let dog = try JSONDecoder().decode(Hound.self, from: data)
    #expect(dog.name == "Rex" && dog.breed == "collie")
    let animal: BridgedPet = dog
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    #expect(
      String(decoding: try encoder.encode(animal), as: UTF8.self)
        == #"{"breed":"collie","name":"Rex"}"#)
    let base = try JSONDecoder().decode(BridgedPet.self, from: data)
    #expect(type(of: base) == BridgedPet.self && base.name == "Rex")
  }

  @Test("JSON decodes from JSONDecoder exactly: integers at the limits, doubles, nesting")
  func jsonFromFoundation() throws {
    let text = """
      {"min": -9223372036854775808, "max": 9223372036854775807, "umax": 18446744073709551615,
       "pi": 3.141592653589793, "tiny": 5e-324, "neg0": -0.0, "s": "é\\n\\"", "t": true, "n": null,
       "a": [1, [2, {"b": []}], {}], "o": {"z": 1, "a": 2}}
      """
    let decoded = try JSONDecoder().decode(JSON.self, from: Data(text.utf8))
    let parsed = try JSON(jsonString: text)
    #expect(decoded == parsed)
    #expect(Int64(decoded["min"]) == .min && UInt64(decoded["umax"]) == .max)
    #expect(Double(decoded["tiny"]) == .leastNonzeroMagnitude)
    #expect(decoded["o"].members.map(\.key) == ["a", "z"])  // Foundation gives no order: sorted
    // And back: JSONEncoder writes the same document.
    let again = try JSON(jsonData: JSONEncoder().encode(decoded))
    #expect(again == parsed)
    #expect(Int64(again["min"]) == .min && UInt64(again["umax"]) == .max)
  }

  @Test("JSON too deep for Foundation's coders is an error, never a stack overflow")
  func deepJSONThroughFoundation() throws {
    var deep: JSON = [1]
    for _ in 0..<5_000 { deep = [deep] }
    #expect(throws: EncodingError.self) { try JSONEncoder().encode(deep) }
    #expect(throws: EncodingError.self) { try PropertyListEncoder().encode(deep) }
    var shallow: JSON = [1]
    for _ in 0..<100 { shallow = ["a": shallow] }
    let data = try JSONEncoder().encode(shallow)
    #expect(try JSONDecoder().decode(JSON.self, from: data) == shallow)
    // JSONDecoder refuses such text itself, before `JSON(from:)` runs. A property list
    // decoder has no depth limit (`PlistDepth` reads 2 000 levels), so there AutoMap's own
    // bound is what stops `JSON(from:)`.
    let plist = { (depth: Int) in
      Data(
        (#"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0">"#
          + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth)
          + "</plist>").utf8)
    }
    #expect(try PropertyListDecoder().decode(PlistDepth.self, from: plist(2_000)).depth == 2_000)
    let error = #expect(throws: DecodingError.self) {
      try PropertyListDecoder().decode(JSON.self, from: plist(2_000))
    }
    guard case .dataCorrupted(let context)? = error else {
      Issue.record("expected dataCorrupted, got \(String(describing: error))")
      return
    }
    // The bound's own error reaches the caller, at the level where the bound was passed.
    let cause = try #require(context.underlyingError as? JSON.Error)
    #expect(cause.kind == .tooDeep(limit: JSON.maximumDepth))
    #expect(context.codingPath.count == JSON.maximumDepth)
    #expect(context.debugDescription.contains("nesting deeper than 512"))
    #expect(throws: Never.self) {
      try PropertyListDecoder().decode(JSON.self, from: plist(JSON.maximumDepth - 1))
    }
  }

  @Test("JSON through property lists, and a missing value cannot be encoded")
  func jsonElsewhere() throws {
    let value: JSON = ["a": [1, 2.5, "x", true], "b": ["c": -3]]
    let plist = try PropertyListEncoder().encode(value)
    #expect(try PropertyListDecoder().decode(JSON.self, from: plist) == value)
    let missing = value["nope"]
    #expect(throws: EncodingError.self) { try JSONEncoder().encode([missing]) }
    struct Box: JSONCodable { var payload: JSON }
    // A JSON inside a Codable type inside a model goes through AutoMap's own coders.
    struct Event: Codable, Equatable { var name: String; var payload: JSON }
    struct Log: JSONCodable, Equatable { var events: [Event] }
    let log = Log(events: [Event(name: "e", payload: ["n": 9007199254740993, "d": 0.1])])
    #expect(try Log(jsonString: log.jsonString()) == log)
    #expect(
      try log.jsonString() == #"{"events":[{"name":"e","payload":{"n":9007199254740993,"d":0.1}}]}"#
    )
  }
}
