import AutoMap
import Foundation
import Testing

// The code of Sources/AutoMap/AutoMap.docc/Enums.md (see GettingStartedExamples.swift).

enum EnumsArticle {
  // docc:begin
  enum Status: String, JSONCodable, JSONFallbackCase, JSONCaseAliases {
    case active, cancelled, unknown
    static let fallbackCase = Status.unknown  // any value it does not know
    static let aliases: [Status: [String]] = [.cancelled: ["canceled"]]  // more values for a case
  }
  // docc:end

  // docc:begin
  enum Weekday: JSONCodable, CaseIterable { case monday, tuesday }  // by case name: "monday"
  // docc:end

  // docc:begin
  enum Region: String, JSONCodable, JSONKeyRepresentable { case eu, us }  // enum keys

  struct Inventory: JSONCodable {
    var byShelf: [Int: String]  // {"1": "tea", "12": "coffee"}, as JSONEncoder writes Int keys
    var owners: [UUID: String]
    var byRegion: [Region: Int]  // {"eu": 3}
  }
  // docc:end

  // docc:begin
  enum Shape: JSONCodable, Codable {
    case circle(radius: Double)
    case rect(width: Double, height: Double)
    case point(Double, Double)
    case none
  }
  // docc:end

  // docc:begin
  enum Message: JSONCodable, Codable {
    case text(body: String)
    case ping
    static let caseLayout = JSON.CaseLayout.internalTag("type")
  }
  // docc:end

  // docc:begin
  enum Limit: JSONCodable, Codable {  // "none", 10, [1, 5], {"min": 1, "max": 5} or "1-5"
    case none
    case count(Int)
    case between(Int, Int)
    case bounds(min: Int, max: Int)
    case written(String)
    static let caseLayout = JSON.CaseLayout.untagged([
      "none", "count", "between", "bounds", "written",
    ])
  }
  // docc:end
}

extension EnumsArticle.Shape: Equatable {}
extension EnumsArticle.Message: Equatable {}
extension EnumsArticle.Limit: Equatable {}

extension EnumsArticle {
  @Suite("Documentation: Enums")
  struct Examples {
    @Test("A fallback case and aliases")
    func resilient() throws {
      // docc:begin
      let statuses = try [Status](jsonString: #"["active", "archived", "canceled"]"#)
      // [.active, .unknown, .cancelled]
      let text = try Status.cancelled.jsonString()  // "cancelled": the raw value
      // docc:end
      #expect(statuses == [.active, .unknown, .cancelled] && text == #""cancelled""#)
      let error = #expect(throws: JSON.Error.self) {
        // docc:begin
        try Status(jsonString: "3")  // at the root: expected String, found number 3
        // docc:end
      }
      #expect(error?.description.contains("expected String, found number 3") == true)
      #expect(try [Weekday](jsonString: #"["tuesday"]"#) == [.tuesday])
    }

    @Test("Keys that are not strings")
    func keys() throws {
      let inventory = try Inventory(
        jsonString: #"""
          {"byShelf": {"1": "tea", "12": "coffee"},
           "owners": {"e621e1f8-c36c-495a-93fc-0c247a3e6e5f": "ada"}, "byRegion": {"eu": 3}}
          """#)
      #expect(inventory.byShelf == [1: "tea", 12: "coffee"] && inventory.byRegion == [.eu: 3])
      #expect(inventory.owners.values.first == "ada")
      let error = #expect(throws: JSON.Error.self) {
        // docc:begin
        try [Int: Int](jsonString: #"{"01": 1}"#)  // at ["01"]: expected an Int key, found "01"
        // docc:end
      }
      #expect(error?.description.contains(#"found "01""#) == true)
    }

    @Test("Enums with payloads, externally tagged by default")
    func payloads() throws {
      // docc:begin
      let circle = try Shape.circle(radius: 1).jsonString()  // {"circle":{"radius":1.0}}
      let point = try Shape.point(1, 2).jsonString()  // {"point":{"_0":1.0,"_1":2.0}}
      let none = try Shape.none.jsonString()  // {"none":{}}
      // docc:end
      #expect(circle == #"{"circle":{"radius":1.0}}"#)
      #expect(point == #"{"point":{"_0":1.0,"_1":2.0}}"#)
      #expect(none == #"{"none":{}}"#)
      #expect(try Shape(jsonString: point) == .point(1, 2))
      let error = #expect(throws: JSON.Error.self) {
        // docc:begin
        try Shape(jsonString: #"{"rect": {"width": 1}}"#)
        // at rect.height: missing key "height" (in Shape.rect)
        // docc:end
      }
      #expect(error?.path == "rect.height")
    }

    @Test("An internal tag")
    func internalTag() throws {
      // docc:begin
      let message = try Message(jsonString: #"{"type": "text", "body": "hi"}"#)
      // .text(body: "hi")
      let ping = try Message.ping.jsonString()  // {"type":"ping"}
      // docc:end
      #expect(message == .text(body: "hi"))
      #expect(ping == #"{"type":"ping"}"#)
    }

    @Test("Untagged: the first listed case that maps")
    func untagged() throws {
      // docc:begin
      let limits = try [Limit](jsonString: #"["none", 10, [1, 5], {"min": 1, "max": 5}, "1-5"]"#)
      // [.none, .count(10), .between(1, 5), .bounds(min: 1, max: 5), .written("1-5")]
      let range = try Limit.between(1, 5).jsonString()  // [1,5]
      // docc:end
      #expect(
        limits == [.none, .count(10), .between(1, 5), .bounds(min: 1, max: 5), .written("1-5")])
      #expect(range == "[1,5]")
      #expect(try Limit.none.jsonString() == #""none""#)
      let error = #expect(throws: JSON.Error.self) { try Limit(jsonString: "null") }
      #expect(error?.description.contains("no case of Limit matches null") == true)
    }
  }
}
