import AutoMap
import Foundation
import Testing

enum SalesRegion: String, JSONCodable, JSONKeyRepresentable, JSONFallbackCase, JSONCaseAliases {
  case eu, us, other
  static let fallbackCase = SalesRegion.other
  static let aliases: [SalesRegion: [String]] = [.eu: ["europe"]]
}

enum Slot: Int, JSONCodable, JSONKeyRepresentable { case first = 1, second = 2 }

struct Stockroom: JSONCodable, Equatable {
  var byShelf: [Int: String]
  var big: [Int64: Int]
  var unsigned: [UInt: Bool]
  var owners: [UUID: String]
  var regions: [SalesRegion: Int]
  var slots: [Slot: [String]]
  var nested: [Int: [Int8: Int?]]?
}

struct LossyKeys: JSONCodable, Equatable {
  var counts: [Int: Int]
  var fallback: [Int: Int]
  static func specificOptions() -> [String: SpecificOption] {
    ["counts": .lossy, "fallback": .defaultValue([0: 0])]
  }
}

/// A key type whose text forgets case: `"A"` and `"a"` are two keys with one name.
struct CaselessKey: JSONKeyRepresentable {
  let text: String
  init(_ text: String) { self.text = text }
  init(jsonKey: String) { text = jsonKey }
  var jsonKey: String { text.lowercased() }
}

@Suite("Dictionaries with Int, UUID and enum keys")
struct DictionaryKeyTests {
  static let uuid = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"

  @Test("keys map to their text both ways, on every path")
  func roundTrip() throws {
    let text = #"""
      {"byShelf": {"1": "tea", "-12": "coffee", "0": "", "9223372036854775807": "max"},
       "big": {"-9223372036854775808": 1}, "unsigned": {"18446744073709551615": true},
       "owners": {"e621e1f8-c36c-495a-93fc-0c247a3e6e5f": "ada"},
       "regions": {"eu": 1, "us": 2}, "slots": {"2": ["b"], "1": []},
       "nested": {"7": {"-128": null, "127": 3}}}
      """#
    let inventory = try #require(outcomeOnEveryPath(Stockroom.self, text).value)
    #expect(inventory.byShelf == [1: "tea", -12: "coffee", 0: "", Int.max: "max"])
    #expect(inventory.big == [Int64.min: 1])
    #expect(inventory.unsigned == [UInt.max: true])
    #expect(inventory.owners == [try #require(UUID(uuidString: Self.uuid)): "ada"])
    #expect(inventory.regions == [.eu: 1, .us: 2])
    #expect(inventory.slots == [.second: ["b"], .first: []])
    #expect(inventory.nested == [7: [-128: nil, 127: 3]])
    let written = try textOnEveryPath(inventory)
    #expect(
      written == #"{"big":{"-9223372036854775808":1},"byShelf":{"-12":"coffee","0":"","1":"tea","#
        + #""9223372036854775807":"max"},"nested":{"7":{"-128":null,"127":3}},"#
        + #""owners":{"\#(Self.uuid)":"ada"},"regions":{"eu":1,"us":2},"#
        + #""slots":{"1":[],"2":["b"]},"unsigned":{"18446744073709551615":true}}"#)
    #expect(outcomeOnEveryPath(Stockroom.self, written).value == inventory)
  }

  @Test(
    "an Int key in any but its canonical form is an error naming the key",
    arguments: [
      "abc", "1.5", "+1", " 1", "1 ", "01", "00", "-0", "", "-", "1e2", "0x10", "١", "1_000",
      "9223372036854775808", "-9223372036854775809", "99999999999999999999999",
    ])
  func badIntKeys(key: String) {
    let outcome = outcomeOnEveryPath([Int: Int].self, #"{"1": 1, \#(JSON.string(key)): 2}"#)
    #expect(outcome.kind == .typeMismatch, "\(key)")
    let range = key.count > 18 && Int(key) == nil ? " (out of range)" : ""
    let name = JSON.string(key).description
    #expect(
      outcome.description?.hasSuffix(": expected an Int key, found \(name)\(range)") == true,
      "\(outcome)")
    let plain = ["abc"].contains(key)
    #expect(
      outcome.description?.hasPrefix(plain ? "at \(key):" : "at [\(name)]:") == true,
      "\(outcome)")
  }

  @Test("the path of a bad key inside a model ends in that key")
  func pathsInModels() {
    let text = #"""
      {"byShelf": {"1": "x", "1.5": "y"}, "big": {}, "unsigned": {}, "owners": {},
       "regions": {}, "slots": {}}
      """#
    #expect(
      outcomeOnEveryPath(Stockroom.self, text).description
        == #"at byShelf["1.5"]: expected an Int key, found "1.5""#)
    let unsigned = text.replacingOccurrences(
      of: #""unsigned": {}"#, with: #""unsigned": {"-1": true}"#
    )
    .replacingOccurrences(of: #", "1.5": "y""#, with: "")
    #expect(
      outcomeOnEveryPath(Stockroom.self, unsigned).description
        == #"at unsigned["-1"]: expected a UInt key, found "-1" (out of range)"#)
    let uuid = text.replacingOccurrences(
      of: #""owners": {}"#, with: #""owners": {"{\#(Self.uuid)}": ""}"#
    )
    .replacingOccurrences(of: #", "1.5": "y""#, with: "")
    #expect(
      outcomeOnEveryPath(Stockroom.self, uuid).description
        == #"at owners["{\#(Self.uuid)}"]: expected a UUID key, found "{\#(Self.uuid)}""#)
    let slot = text.replacingOccurrences(of: #""slots": {}"#, with: #""slots": {"3": []}"#)
      .replacingOccurrences(of: #", "1.5": "y""#, with: "")
    #expect(
      outcomeOnEveryPath(Stockroom.self, slot).description
        == #"at slots["3"]: 3 is not a raw value of Slot"#)
    let value = text.replacingOccurrences(of: #""1.5": "y""#, with: #""2": 5"#)
    #expect(
      outcomeOnEveryPath(Stockroom.self, value).description
        == #"at byShelf["2"]: expected String, found number 5"#)
  }

  @Test("integer keys at every width's limits")
  func limits() {
    #expect(
      outcomeOnEveryPath([Int8: Int].self, #"{"127": 1, "-128": 2}"#).value == [127: 1, -128: 2])
    #expect(
      outcomeOnEveryPath([Int8: Int].self, #"{"128": 1}"#).description
        == #"at ["128"]: expected an Int8 key, found "128" (out of range)"#)
    #expect(
      outcomeOnEveryPath([UInt64: Int].self, #"{"18446744073709551616": 1}"#).kind == .typeMismatch)
    #expect(
      outcomeOnEveryPath([UInt8: Int].self, #"{"-0": 1}"#).description
        == #"at ["-0"]: expected a UInt8 key, found "-0""#)
  }

  @Test("enum keys: raw values, aliases and the fallback apply; names of one key: the last wins")
  func enumKeys() {
    #expect(
      outcomeOnEveryPath([SalesRegion: Int].self, #"{"europe": 1, "mars": 2}"#).value
        == [.eu: 1, .other: 2])
    #expect(
      outcomeOnEveryPath([SalesRegion: Int].self, #"{"mars": 1, "venus": 2}"#).value == [.other: 2])
    // A repeated key keeps its last value at its first position: "eu" is 3, then "europe" 2.
    #expect(
      outcomeOnEveryPath([SalesRegion: Int].self, #"{"eu": 1, "europe": 2, "eu": 3}"#).value
        == [.eu: 2])
    #expect(
      outcomeOnEveryPath([SalesRegion: Int].self, #"{"europe": 2, "eu": 1, "eu": 3}"#).value
        == [.eu: 3])
    #expect(
      outcomeOnEveryPath([SalesRegion: Int].self, #"{"eu": 1, "europe": 2}"#).value == [.eu: 2])
    #expect(
      outcomeOnEveryPath([Slot: Int].self, #"{"01": 1}"#).description
        == #"at ["01"]: expected an Int key, found "01""#)
    #expect(
      outcomeOnEveryPath(
        [UUID: Int].self,
        #"{"\#(Self.uuid.lowercased())": 1, "\#(Self.uuid)": 2}"#
      ).value?.values.first == 2)
  }

  @Test("wrong JSON types, empty objects, .lossy and .defaultValue")
  func shapes() {
    #expect(outcomeOnEveryPath([Int: Int].self, "{}").value == [:])
    #expect(
      outcomeOnEveryPath([Int: Int].self, "[1]").description
        == "at the root: expected Dictionary<Int, Int>, found array of 1")
    #expect(outcomeOnEveryPath([Int: Int].self, #"{"1": null}"#).kind == .missingValue)
    let lossy = #"{"counts": {"1": 1, "a": 2, "3": "x", "-0": 4, "5": 5}, "fallback": {"x": 1}}"#
    #expect(
      outcomeOnEveryPath(LossyKeys.self, lossy).value
        == LossyKeys(counts: [1: 1, 5: 5], fallback: [0: 0]))
  }

  @Test("two keys with one name make one member, as the bytes written read back")
  func keysWithOneName() throws {
    // A member name held twice would be two members in a `JSON` object (which no parse
    // makes): the object keeps the name once, with the value read back from the bytes.
    let dictionary = [CaselessKey("A"): 1, CaselessKey("a"): 2, CaselessKey("b"): 3]
    let tree = try dictionary.json
    #expect(tree.count == 2)
    #expect(try JSON(jsonData: dictionary.jsonData()) == tree)
    guard case .object(var object) = tree else {
      Issue.record("not an object")
      return
    }
    #expect(object.removeValue(forKey: "a") != nil)
    #expect(object["a"] == nil && object.count == 1)
  }
}
