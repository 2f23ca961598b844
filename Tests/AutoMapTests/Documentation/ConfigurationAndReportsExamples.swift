import AutoMap
import Foundation
import Testing

// The code of Sources/AutoMap/AutoMap.docc/ConfigurationAndReports.md (see
// GettingStartedExamples.swift).

enum ConfigurationArticle {
  struct Order: JSONCodable {
    var orderID: Int
    var placedAt: Date
    var receipt: Data
  }

  struct Point: JSONCodable { var x: Int; var y: Int }

  enum Status: String, JSONCodable, JSONFallbackCase {
    case active, unknown
    static let fallbackCase = Status.unknown
  }

  struct Profile: JSONCodable {
    var status: Status
    var tags: [String]
    var age: Int
    static func specificOptions() -> [String: SpecificOption] { ["tags": .lossy, "age": .nonNil] }
  }
}

extension ConfigurationArticle {
  @Suite("Documentation: Configuration and reports")
  struct Examples {
    @Test("A configuration for one call, or for a scope")
    func configuration() throws {
      let data = Data(#"{"order_id": 1, "placed_at": 1714566600, "receipt": "AQI-"}"#.utf8)
      // docc:begin
      var legacy = JSON.Configuration()
      legacy.dateTransform = .secondsSince1970  // Date properties without an option
      legacy.keyStyle = .snakeCase  // every model in the call
      legacy.dataEncoding = .base64URL  // Data: .base64 (default), .base64URL, .hex
      legacy.nonFiniteNumbers = .strings()  // "NaN", "Infinity", "-Infinity"

      let order = try Order(jsonData: data, configuration: legacy)  // also jsonString:, decode:
      let text = try order.jsonString(configuration: legacy)  // also json(configuration:)

      let (first, second) = try JSON.withConfiguration(legacy) {  // every AutoMap call inside
        (try Order(jsonData: data), try [Order](jsonString: "[\(text)]"))
      }
      // docc:end
      #expect(order.orderID == 1 && order.placedAt == Date(timeIntervalSince1970: 1_714_566_600))
      #expect(order.receipt == Data([1, 2, 62]))  // "-" is base64URL for 62
      #expect(text == #"{"order_id":1,"placed_at":1714566600.0,"receipt":"AQI-"}"#)
      #expect(first.orderID == 1 && second.map(\.orderID) == [1])
    }

    @Test("A configuration that reads comments and trailing commas")
    func reading() throws {
      // docc:begin
      let lenient = JSON.Configuration(reading: [.comments, .trailingCommas])
      let ids = try [Int](jsonString: "[1, 2, /* 3 */]", configuration: lenient)  // [1, 2]
      // docc:end
      #expect(ids == [1, 2])
      #expect(throws: JSON.Error.self) { try [Int](jsonString: "[1, 2, /* 3 */]") }
    }

    @Test("Every problem in one error")
    func collectsAllErrors() throws {
      let error = #expect(throws: JSON.Error.self) {
        // docc:begin
        let all = JSON.Configuration(collectsAllErrors: true)
        do {
          _ = try [Point](
            jsonString: #"[{"x": 1, "y": "2"}, {"x": 3}, {"x": null, "y": 4}]"#, configuration: all)
        } catch let error as JSON.Error {
          print(error)  // 3 problems:
          // at [0].y: expected Int, found string "2"
          // at [1].y: missing key "y" for Point.y (Int)
          // at [2].x: expected Int for Point.x, found null
          print(error.problemCount)  // 3; error.problems lists them (100 at most)
          throw error
        }
        // docc:end
      }
      #expect(error?.problemCount == 3)
      #expect(error?.problems.map(\.path) == ["[0].y", "[1].y", "[2].x"])
    }

    @Test("What options stood in for")
    func substitutions() throws {
      let data = Data(#"{"status": "on-leave", "tags": ["a", 2], "age": "old"}"#.utf8)
      // docc:begin
      let (profile, substituted) = try JSON.recordingSubstitutions { try Profile(jsonData: data) }
      for substitution in substituted { print(substitution) }
      // at status: "on-leave" names no case of Status; used its fallback case .unknown
      // at tags[1]: expected String, found number 2; left out (.lossy)
      // at age: expected Int, found string "old"; used .nonNil
      // docc:end
      #expect(profile.status == .unknown && profile.tags == ["a"] && profile.age == 0)
      #expect(substituted.map(\.path) == ["status", "tags[1]", "age"])
      #expect(substituted.map(\.kind) == [.fallbackCase, .lossyElement, .nonNil])
    }
  }
}
