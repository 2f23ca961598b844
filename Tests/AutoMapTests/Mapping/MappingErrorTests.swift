import AutoMap
import Foundation
import Testing

struct Unmappable: JSONCodable {
  let name: String
  let callback: () -> Void
}

struct LetInDefaultInitable: JSONCodable, DefaultInitable {
  let id: Int
  init() { id = 0 }
}

struct BadOptions: JSONCodable {
  var name: String
  static func specificOptions() -> [String: SpecificOption] { ["nmae": "n"] }
}

struct WrongDefault: JSONCodable {
  var count: Int
  static func specificOptions() -> [String: SpecificOption] { ["count": .defaultValue("zero")] }
}

struct Status: JSONCodable, Equatable {
  let id: Int
  let user: Owner
  struct Owner: JSONCodable, Equatable { let id: Int8 }
}

@Suite("Mapping errors")
struct MappingErrorTests {
  @Test("errors name the path and say what was expected and found")
  func paths() throws {
    let error = decodingError(
      [Status].self, #"[{"id": 1, "user": {"id": 1}}, {"id": 2, "user": {"id": 300}}]"#)
    #expect(error?.path == "[1].user.id")
    #expect(error?.description == "at [1].user.id: expected Int8, found number 300 (out of range)")
    let missing = decodingError(Status.self, #"{"user": {"id": 1}}"#)
    #expect(missing?.path == "id")
    #expect(missing?.kind == .missingValue)
    #expect(missing?.description.contains("missing key \"id\" for Status.id (Int)") == true)
    let fraction = decodingError(Status.self, #"{"id": 1.5, "user": {"id": 1}}"#)
    #expect(fraction?.description.contains("not an integer") == true)
    let null = decodingError(Status.self, #"{"id": null, "user": {"id": 1}}"#)
    #expect(null?.description.contains("found null") == true)
  }

  @Test("malformed text inside a model is a syntax error with position")
  func malformed() {
    let error = #expect(throws: JSON.Error.self) {
      try Status(jsonString: #"{"id": 1, "user": {"id": 1,}}"#)
    }
    #expect(error?.kind == .malformed(offset: 27, line: 1, column: 28))
  }

  @Test("an unmappable property type names model, property and type; never crashes")
  func unmappable() {
    let error = #expect(throws: JSON.Error.self) { try Unmappable(jsonString: #"{"name": "x"}"#) }
    #expect(error?.kind == .invalidModel)
    #expect(error?.description.contains("Unmappable.callback") == true)
    #expect(error?.description.contains("() -> ()") == true)
  }

  @Test("a let in a DefaultInitable struct is refused with what to change")
  func letRule() {
    let error = #expect(throws: JSON.Error.self) {
      try LetInDefaultInitable(jsonString: #"{"id": 5}"#)
    }
    #expect(error?.description.contains("Declare it `var`") == true)
  }

  @Test("options are checked at first use")
  func optionValidation() {
    let unknown = #expect(throws: JSON.Error.self) { try BadOptions(jsonString: #"{"name": "x"}"#) }
    #expect(unknown?.description.contains("names \"nmae\", which is not a stored property") == true)
    let wrong = #expect(throws: JSON.Error.self) { try WrongDefault(jsonString: "{}") }
    #expect(
      wrong?.description.contains("has .defaultValue(zero) of type String, not Int") == true,
      "\(String(describing: wrong))")
  }

  @Test("a failed decode releases what it built")
  func noLeaks() throws {
    final class Tracked: JSONDecodable, DefaultInitable {
      nonisolated(unsafe) static var live = 0
      var value = 0
      required init() { Tracked.live += 1 }
      deinit { Tracked.live -= 1 }
    }
    struct Holder: JSONDecodable {
      let first: Tracked
      let list: [Tracked]
      let last: Int
    }
    for _ in 0..<3 {
      #expect(throws: JSON.Error.self) {
        try Holder(
          jsonString: #"{"first": {"value": 1}, "list": [{"value": 2}, {"value": 3}], "last": "x"}"#
        )
      }
    }
    #expect(Tracked.live == 0)
  }
}
