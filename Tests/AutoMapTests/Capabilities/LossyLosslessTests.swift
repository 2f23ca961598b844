import AutoMap
import Foundation
import Testing

struct Tagged: JSONCodable, Equatable {
  let id: Int
}

struct LossyModel: JSONCodable, Equatable {
  var items: [Tagged]
  var scores: [Int]
  var byName: [String: Tagged]
  var unique: Set<Int>
  var maybe: Tagged?
  var maybeList: [Tagged]?

  static func specificOptions() -> [String: SpecificOption] {
    [
      "items": .lossy, "scores": .lossy, "byName": .lossy, "unique": .lossy, "maybe": .lossy,
      "maybeList": .lossy,
    ]
  }
}

struct StrictModel: JSONCodable {
  var items: [Tagged]
}

struct LosslessModel: JSONCodable, Equatable {
  var count: Int
  var ratio: Double
  var name: String
  var flag: Bool
  var maybe: Int?
  var list: [Int]

  static func specificOptions() -> [String: SpecificOption] {
    [
      "count": .lossless, "ratio": .lossless, "name": .lossless, "flag": .lossless,
      "maybe": .lossless, "list": .lossless,
    ]
  }
}

struct BadLossy: JSONCodable {
  var count: Int
  static func specificOptions() -> [String: SpecificOption] { ["count": .lossy] }
}

@Suite(".lossy and .lossless")
struct LossyLosslessTests {
  @Test("lossy collections leave out elements that fail; a lossy optional becomes nil")
  func lossy() throws {
    let model = try decodeAllWays(
      LossyModel.self,
      #"""
      {"items": [{"id": 1}, {}, {"id": "x"}, {"id": 4}], "scores": [1, "two", 3.5, 4],
       "byName": {"a": {"id": 1}, "b": {"id": null}}, "unique": [1, 1, "z", 2],
       "maybe": {"id": "oops"}, "maybeList": [{"id": 9}, 7]}
      """#)
    #expect(model.items == [Tagged(id: 1), Tagged(id: 4)])
    #expect(model.scores == [1, 4])
    #expect(model.byName == ["a": Tagged(id: 1)])
    #expect(model.unique == [1, 2])
    #expect(model.maybe == nil)
    #expect(model.maybeList == [Tagged(id: 9)])
  }

  @Test("without .lossy one bad element fails the model, naming it")
  func strict() {
    let error = decodingError(StrictModel.self, #"{"items": [{"id": 1}, {}]}"#)
    #expect(error?.path == "items[1].id")
  }

  @Test("lossy never hides malformed text")
  func lossyMalformed() {
    let error = #expect(throws: JSON.Error.self) {
      try LossyModel(
        jsonString: #"{"items": [{"id": 1}, {"id": 2,}], "scores": [], "byName": {}, "unique": []}"#
      )
    }
    #expect(error?.kind == .malformed(offset: 31, line: 1, column: 32))
  }

  @Test(".lossy on a property it cannot apply to is refused at first use")
  func lossyMisused() {
    let error = #expect(throws: JSON.Error.self) { try BadLossy(jsonString: #"{"count": 1}"#) }
    #expect(
      error?.description.contains("applies to arrays, sets, dictionaries and optionals") == true)
  }

  @Test("lossless accepts the other scalar spellings")
  func lossless() throws {
    let model = try decodeAllWays(
      LosslessModel.self,
      #"{"count": "42", "ratio": "2.5", "name": 123, "flag": "true", "maybe": "-7", "list": ["1", 2, "3"]}"#
    )
    #expect(
      model
        == LosslessModel(
          count: 42, ratio: 2.5, name: "123", flag: true, maybe: -7, list: [1, 2, 3]))
    let numbers = try LosslessModel(
      jsonString: #"{"count": 1, "ratio": 1, "name": true, "flag": 0, "list": []}"#)
    #expect(numbers.name == "true")
    #expect(numbers.flag == false)
  }

  @Test(
    "lossless is not lossy: text that is not the value is still an error",
    arguments: [
      (#"{"count": "12abc", "ratio": 1, "name": "", "flag": true, "list": []}"#, "count"),
      (#"{"count": " 12", "ratio": 1, "name": "", "flag": true, "list": []}"#, "count"),
      (#"{"count": "1.5", "ratio": 1, "name": "", "flag": true, "list": []}"#, "count"),
      (#"{"count": 1, "ratio": 1, "name": "", "flag": "yes", "list": []}"#, "flag"),
      (#"{"count": 1, "ratio": 1, "name": "", "flag": 2, "list": []}"#, "flag"),
      (#"{"count": 1, "ratio": 1, "name": [], "flag": true, "list": []}"#, "name"),
    ])
  func losslessRefuses(text: String, path: String) {
    let error = decodingError(LosslessModel.self, text)
    #expect(error?.path == path)
    #expect(error?.kind == .typeMismatch)
  }
}
