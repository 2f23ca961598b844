@_spi(Testing) import AutoMap
import Foundation
import Testing

// Models only these tests use: no suite running beside them can observe their reflection
// between a forgetting and a first use (see `ProcessWideState`).

/// A subclass of the shared `Animal` (Mapping/Fixtures.swift) with a reflection of its own:
/// inherited and merged options.
private final class FirstUseHound: Animal {
  var pack = ""
  override class func specificOptions() -> [String: SpecificOption] {
    super.specificOptions().merging(["pack": "pack_name"]) { $1 }
  }
}

private struct FirstUseProfile: JSONCodable, Equatable {
  var firstName: String
  var age: Int
}

private struct FirstUsePoint: JSONCodable, Equatable {
  var x: Int
  var y: Int
}

extension ProcessWideState {
  /// A model's first use from bytes goes through `JSON` values and the real `init(decode:)`;
  /// once that has been seen to be the reflection default, bytes go straight into memory.
  /// Each test here runs both and compares them.
  @Suite("First uses and later uses agree")
  struct FirstUseTests {
    /// `body` on a first use (every model's reflection forgotten), then on a later use (the
    /// first one observed it).
    static func firstAndLater<T>(_ body: () throws -> T) rethrows -> (first: T, later: T) {
      ProcessWideState.forgetReflection()
      let first = try body()
      let later = try body()
      return (first, later)
    }

    /// The paths of the problems `body` throws, or what it did instead.
    static func problemPaths(_ body: () throws -> Any) -> [String] {
      do {
        return ["no error: \(try body())"]
      } catch let error as JSON.Error {
        return error.problems.map(\.path)
      } catch {
        return ["not a JSON.Error: \(error)"]
      }
    }

    @Test("a class with inherited and merged options, from text and from bytes")
    func classes() throws {
      let text = #"{"name": "Rex", "leg_count": 3, "pack_name": "north"}"#
      let decodes = [
        { try FirstUseHound(jsonString: text) }, { try FirstUseHound(jsonData: Data(text.utf8)) },
      ]
      for decode in decodes {
        let (first, later) = try Self.firstAndLater(decode)
        for hound in [first, later] {
          #expect(hound.name == "Rex" && hound.legs == 3 && hound.pack == "north")
        }
      }
    }

    @Test("case-insensitive keys match any ASCII case, and only that")
    func caseInsensitive() throws {
      let text = #"{"FIRSTNAME": "Ada", "Age": 36}"#
      let (first, later) = try Self.firstAndLater {
        try FirstUseProfile(jsonData: Data(text.utf8), keyStyle: .caseInsensitive)
      }
      #expect(first == FirstUseProfile(firstName: "Ada", age: 36))
      #expect(later == first)
      let snake = #"{"first_name": "Ada", "age": 36}"#
      let errors = Self.firstAndLater {
        #expect(throws: JSON.Error.self) {
          try FirstUseProfile(jsonString: snake, keyStyle: .caseInsensitive)
        }
      }
      #expect(errors.first?.kind == .missingValue)
      #expect(errors.first?.path == "firstName")
      #expect(errors.later?.description == errors.first?.description)
    }

    @Test("collected problems are the same on a first use and later")
    func collectedProblems() {
      let text = #"[{"x": "a", "y": "b"}, 7, {"x": 1, "y": 2}, {"y": null}]"#
      let all = JSON.Configuration(collectsAllErrors: true)
      let (first, later) = Self.firstAndLater {
        Self.problemPaths { try [FirstUsePoint](jsonData: Data(text.utf8), configuration: all) }
      }
      #expect(first == ["[0].x", "[0].y", "[1]", "[3].x", "[3].y"])
      #expect(later == first)
    }

    @Test("encoding writes the same bytes on a first use and later")
    func encoding() throws {
      let hound = FirstUseHound()
      hound.name = "Rex"
      hound.pack = "north"
      let expected = #"{"leg_count":4,"name":"Rex","pack_name":"north"}"#
      for encode in [
        { try hound.jsonString(options: .sortedKeys) },
        { String(decoding: try hound.jsonData(options: .sortedKeys), as: UTF8.self) },
      ] {
        let (first, later) = try Self.firstAndLater(encode)
        #expect(first == expected)
        #expect(later == expected)
      }
    }
  }
}
