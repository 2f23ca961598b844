import AutoMap
import Foundation
import Testing

struct UntypedAccount: JSONCodable, Equatable {
  var id: Int
  var name: String
  var admin: Bool
  var balance: Decimal
  var tags: [String]
  var limit: UInt64?
}

@Suite("Untyped graphs: [String: Any], NSNumber, NSNull")
struct JSONObjectTests {
  @Test("JSONSerialization's graphs convert exactly: booleans stay booleans, integers stay exact")
  func fromJSONSerialization() throws {
    let text = #"""
      {"t": true, "f": false, "one": 1, "zero": 0, "half": 1.5, "max": 18446744073709551615,
       "min": -9223372036854775808, "null": null, "list": [1, "a", [false], {}], "s": "é\n"}
      """#
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
    let json = try JSON(jsonObject: object)
    #expect(json == (try JSON(jsonString: text)))
    #expect(json["t"] == .bool(true) && json["one"] == 1 && json["zero"] == 0)
    guard case .number(let max) = json["max"], case .number(let min) = json["min"] else {
      Issue.record("numbers expected: \(json)")
      return
    }
    #expect(max.uint64Value == UInt64.max && min.int64Value == Int64.min)
  }

  @Test("Swift and Foundation values alike; NSNumber(value: true) is a bool, 1 is a number")
  func nativeValues() throws {
    let graph: [String: Any] = [
      "bool": true, "nsBool": NSNumber(value: false), "nsOne": NSNumber(value: 1),
      "int8": Int8(-3), "uint": UInt64.max, "double": 0.1,
      "decimal": Decimal(string: "12345678901234567890.5")!,
      "nsString": NSString(string: "x"), "nothing": Optional<Int>.none as Any,
      "some": Optional(2) as Any,
      "nsNull": NSNull(), "nsArray": NSArray(array: [1, "b"]),
      "nested": ["k": [1, 2]] as [String: Any],
    ]
    let json = try JSON(jsonObject: graph)
    let expected = try JSON(
      jsonString: #"""
        {"bool": true, "decimal": 12345678901234567890.5, "double": 0.1, "int8": -3,
         "nested": {"k": [1, 2]}, "nothing": null, "nsArray": [1, "b"], "nsBool": false,
         "nsNull": null, "nsOne": 1, "nsString": "x", "some": 2, "uint": 18446744073709551615}
        """#)
    #expect(json == expected)
    // Members in the order of their keys' bytes: dictionaries have no order of their own.
    #expect(json.object?.keys.map { $0 } == expected.object?.keys.sorted())
    #expect(try JSON(jsonObject: NSNumber(value: true)) == .bool(true))
    #expect(try JSON(jsonObject: NSNumber(value: 1)) == 1)
  }

  @Test("what has no JSON form is an error at its place; cycles and deep graphs are bounded")
  func refusals() throws {
    let cases: [(Any, String)] = [
      (["when": Date(timeIntervalSince1970: 0)] as [String: Any], "when"),
      (["list": [1, Double.nan]] as [String: Any], "list[1]"),
      ([["a": Double.infinity]] as [Any], "[0].a"),
      ([1: "one"] as NSDictionary, ""),
      (Data([1]), ""),
    ]
    for (value, path) in cases {
      let error = #expect(throws: JSON.Error.self) { try JSON(jsonObject: value) }
      #expect(error?.kind == .typeMismatch)
      #expect(error?.path == path, "\(String(describing: error))")
    }
    // (Foundation containers that contain themselves: Trust/ObjectGraphAttackTests.swift.)
    var deep: Any = 1
    for _ in 0..<2_000 { deep = [deep] }
    let tooDeep = #expect(throws: JSON.Error.self) { try JSON(jsonObject: deep) }
    #expect(tooDeep?.kind == .tooDeep(limit: JSON.maximumDepth))
  }

  @Test("models decode from [String: Any] and encode to one that JSONSerialization writes")
  func models() throws {
    let graph: [String: Any] = [
      "id": 7, "name": "Ada", "admin": NSNumber(value: true),
      "balance": NSDecimalNumber(string: "0.10"),
      "tags": NSArray(array: ["a", "b"]), "limit": UInt64.max,
    ]
    let account = try UntypedAccount(jsonObject: graph)
    #expect(
      account
        == UntypedAccount(
          id: 7, name: "Ada", admin: true, balance: Decimal(string: "0.10")!, tags: ["a", "b"],
          limit: .max))
    let object = try #require(try account.jsonObject as? [String: Any])
    #expect(object["admin"] as? Bool == true && type(of: object["admin"]!) == Bool.self)
    #expect(object["limit"] as? UInt64 == UInt64.max)
    #expect(object["id"] as? Int == 7)
    #expect(try UntypedAccount(jsonObject: object) == account)
    let written = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    #expect(try UntypedAccount(jsonData: written) == account)
    // A wrong value names its place, as from text.
    let error = #expect(throws: JSON.Error.self) {
      try UntypedAccount(jsonObject: [
        "id": "7", "name": "Ada", "admin": true, "balance": 1, "tags": [],
      ])
    }
    #expect(error?.path == "id")
    #expect(error?.description == (try? decodingErrorDescription()))
  }

  /// The same wrong value decoded from text: the messages must agree.
  private func decodingErrorDescription() throws -> String? {
    do {
      _ = try UntypedAccount(
        jsonString: #"{"admin": true, "balance": 1, "id": "7", "name": "Ada", "tags": []}"#)
      return nil
    } catch let error as JSON.Error {
      return error.description
    }
  }

  @Test("random models survive the round trip through an untyped graph")
  func roundTrips() throws {
    var generator = DiffRandom(seed: 31)
    for _ in 0..<2_000 {
      let model = Leaves(
        text: randomString(&generator), maybeText: generator.chance(50) ? nil : "x",
        number: Int(bitPattern: UInt(generator.next())), maybeNumber: nil,
        ratio: Double(bitPattern: generator.next() & ~(0x7FF << 52)) * 1e300,
        maybeRatio: generator.chance(50) ? nil : -0.0, flag: generator.chance(50),
        maybeFlag: generator.chance(50) ? nil : true, wide: Int64(bitPattern: generator.next()),
        narrow: Int32(truncatingIfNeeded: generator.next()))
      let object = try model.jsonObject
      #expect(try Leaves(jsonObject: object) == model)
      #expect(try JSON(jsonObject: object) == model.json)
      #expect(JSONSerialization.isValidJSONObject(object))
    }
  }

  @Test("containers held in many places: converted in each, within a bound, never for ever")
  func sharedContainers() throws {
    // One container in two places converts in both.
    let shared = NSMutableArray(array: [1, "a"])
    let twice = NSMutableArray(array: [shared, shared])
    #expect(try JSON(jsonObject: twice) == [[1, "a"], [1, "a"]])
    // Each level holds the one below twice: 2^40 values. An error, at once.
    var level = NSMutableArray(array: [1])
    for _ in 0..<40 { level = NSMutableArray(array: [level, level]) }
    let start = Date()
    #expect(throws: JSON.Error.self) { try JSON(jsonObject: level) }
    #expect(Date().timeIntervalSince(start) < 30)
    // A tree larger than the bound, with nothing shared, converts.
    let large = NSMutableArray(array: Array(repeating: 7, count: JSON.maximumSharedValues + 10))
    #expect(try JSON(jsonObject: large).count == JSON.maximumSharedValues + 10)
  }
}
