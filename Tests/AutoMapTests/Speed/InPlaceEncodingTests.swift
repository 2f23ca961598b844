import AutoMap
import Foundation
import Testing

// Arrays and dictionaries are encoded in place, read through the value's own memory rather
// than copied out of it: what they write must not change, and a value encoded from several
// threads at once is only read.

/// A model whose collections take the in-place writers.
private struct Collections: JSONCodable, Equatable {
  var scores: [String: Int] = [:]
  var nested: [String: [String: Double]] = [:]
  var grid: [[Int]] = []
  var rings: [[Double]] = []
  var names: [String] = []
  var leaves: [Leaves] = []
}

@Suite("Collections encoded in place")
struct InPlaceEncodingTests {
  private static func sample(_ seed: Int) -> Collections {
    var value = Collections()
    for index in 0..<120 {
      value.scores["key \(index * 7919 % 1000 + seed)"] = index
      value.nested["outer \(index % 9)", default: [:]]["inner \(index)"] = Double(index) / 8
    }
    value.grid = (0..<30).map { row in (0..<row).map { $0 * row - seed } }
    value.rings = (0..<20).map { row in (0..<row).map { Double($0) / 3 } }
    value.names = (0..<50).map { "name \($0)" }
    value.leaves = (0..<10).map { Leaves(text: "leaf \($0)", number: $0 + seed) }
    return value
  }

  /// Without `.sortedKeys`, a string-keyed dictionary's members come in the dictionary's own
  /// order: that of its `keys`.
  @Test func dictionaryOrder() throws {
    let value = Self.sample(3)
    let json = try JSON(jsonData: value.jsonData())
    guard case .object(let object) = json, case .object(let scores)? = object["scores"] else {
      Issue.record("not an object: \(json)")
      return
    }
    #expect(scores.keys == Array(value.scores.keys))
    #expect(try Collections(jsonData: value.jsonData()) == value)
    // Sorted keys: by their bytes.
    let sorted = try JSON(jsonData: value.jsonData(options: .sortedKeys))
    guard case .object(let sortedObject) = sorted,
      case .object(let sortedScores)? = sortedObject["scores"]
    else {
      Issue.record("not an object: \(sorted)")
      return
    }
    #expect(
      sortedScores.keys == value.scores.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
  }

  /// The same value encoded from many tasks at once gives the same bytes every time, and is
  /// unchanged after.
  @Test func concurrentEncoding() async throws {
    let value = Self.sample(5)
    let expected = try value.jsonData()
    let results = try await withThrowingTaskGroup(of: Bool.self) { group in
      for _ in 0..<8 {
        group.addTask {
          for _ in 0..<25 where try value.jsonData() != expected { return false }
          return true
        }
      }
      return try await group.reduce(into: [Bool]()) { $0.append($1) }
    }
    #expect(results == Array(repeating: true, count: 8))
    #expect(value == Self.sample(5))
  }
}
