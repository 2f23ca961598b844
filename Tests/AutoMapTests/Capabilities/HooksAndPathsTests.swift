import AutoMap
import Foundation
import Testing

/// DefaultInitable, so that `initials`, which the JSON never has, keeps its default.
struct Validated: JSONCodable, DefaultInitable, Equatable {
  var name = ""
  var age = 0
  var initials = ""

  mutating func didDecode() throws {
    guard age >= 0 else { throw JSON.Error.custom("age must not be negative") }
    initials = String(name.prefix(1))
  }
}

class ValidatedBase: JSONCodable, DefaultInitable {
  var count = 0
  required init() {}
  func didDecode() throws {
    guard count < 100 else { throw JSON.Error.custom("count too large") }
  }
}

final class ValidatedChild: ValidatedBase {
  var label = ""
  override func didDecode() throws {
    try super.didDecode()
    guard !label.isEmpty else { throw JSON.Error.custom("label must not be empty") }
  }
}

struct Inventory: JSONCodable, Equatable {
  var apples: Int
  var pears: Int
  var note: String?
}

final class Counter: JSONCodable, DefaultInitable {
  var hits = 0
  var name = ""
  required init() {}
}

enum Color: JSONCodable, CaseIterable, Equatable { case red, green, darkBlue }
enum Suit: String, JSONCodable, CaseIterable { case hearts = "H", spades = "S" }

@Suite("Hooks, designated paths, updates, enums")
struct HooksAndPathsTests {
  @Test("didDecode runs after population and can fail the decode with the model's path")
  func didDecode() throws {
    let value = try decodeAllWays(Validated.self, #"{"name": "Ada", "age": 36}"#)
    #expect(value.initials == "A")
    let error = decodingError(
      [Validated].self, #"[{"name": "A", "age": 1}, {"name": "B", "age": -1}]"#)
    #expect(error?.path == "[1]")
    #expect(error?.description == "at [1]: age must not be negative")
  }

  @Test("classes override didDecode")
  func classHook() throws {
    #expect(try ValidatedChild(jsonString: #"{"count": 1, "label": "x"}"#).label == "x")
    let empty = #expect(throws: JSON.Error.self) {
      try ValidatedChild(jsonString: #"{"count": 1}"#)
    }
    #expect(empty?.description.contains("label must not be empty") == true)
    let large = #expect(throws: JSON.Error.self) {
      try ValidatedChild(jsonString: #"{"count": 100, "label": "x"}"#)
    }
    #expect(large?.description.contains("count too large") == true)
  }

  @Test("a designated path maps only the value there")
  func designatedPath() throws {
    let text =
      #"{"meta": {"whatever": [1, {"x": null}]}, "data": {"users": [{"id": 1}, {"id": 2}]}, "tail": true}"#
    #expect(
      try [Tagged](jsonString: text, at: ["data", "users"]) == [Tagged(id: 1), Tagged(id: 2)])
    #expect(try Tagged(jsonData: Data(text.utf8), at: ["data", "users", 1]) == Tagged(id: 2))
    #expect(try Int(jsonString: text, at: ["data", "users", 0, "id"]) == 1)
    let missing = #expect(throws: JSON.Error.self) {
      try Tagged(jsonString: text, at: ["data", "users", 5])
    }
    #expect(missing?.path == "data.users[5]")
    let wrong = #expect(throws: JSON.Error.self) {
      try Tagged(jsonString: text, at: ["tail", "x"])
    }
    #expect(wrong?.path == "tail")
  }

  @Test("the rest of the document must still be valid JSON")
  func designatedPathValidates() {
    let error = #expect(throws: JSON.Error.self) {
      try Tagged(jsonString: #"{"data": {"id": 1}, "rest": [1, 2,]}"#, at: ["data"])
    }
    #expect(error?.kind == .malformed(offset: 34, line: 1, column: 35))
  }

  @Test("update changes only the keys present, all or nothing")
  func update() throws {
    var inventory = Inventory(apples: 1, pears: 2, note: "n")
    try inventory.update(from: ["apples": 5])
    #expect(inventory == Inventory(apples: 5, pears: 2, note: "n"))
    try inventory.update(fromJSONString: #"{"note": null, "pears": 7}"#)
    #expect(inventory == Inventory(apples: 5, pears: 7, note: nil))
    let error = #expect(throws: JSON.Error.self) {
      try inventory.update(from: ["apples": 9, "pears": "many"])
    }
    #expect(error?.path == "pears")
    #expect(
      inventory == Inventory(apples: 5, pears: 7, note: nil), "a failed update changes nothing")
  }

  @Test("update works on a class through a let reference")
  func updateClass() throws {
    let counter = try Counter(jsonString: #"{"hits": 1, "name": "a"}"#)
    try counter.update(fromJSONData: Data(#"{"hits": 2}"#.utf8))
    #expect(counter.hits == 2)
    #expect(counter.name == "a")
    #expect(throws: JSON.Error.self) { try counter.update(from: ["hits": "x"]) }
    #expect(counter.hits == 2)
  }

  @Test("enums without raw values map by case name")
  func caseNames() throws {
    #expect(try [Color](jsonString: #"["red", "darkBlue"]"#) == [.red, .darkBlue])
    #expect(try [Color.green, .darkBlue].jsonString() == #"["green","darkBlue"]"#)
    let error = #expect(throws: JSON.Error.self) { try Color(jsonString: #""purple""#) }
    #expect(
      error?.description.contains(#""purple" is not a case of Color (red, green, darkBlue)"#)
        == true)
    #expect(try Suit(jsonString: #""S""#) == .spades, "with raw values, the raw value wins")
    #expect(throws: JSON.Error.self) { try Suit(jsonString: #""spades""#) }
  }
}
