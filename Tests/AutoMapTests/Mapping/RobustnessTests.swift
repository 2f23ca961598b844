import AutoMap
import Foundation
import Testing

/// Models used only here, so that their first use happens inside the concurrent test.
struct ConcurrentFirstUse: JSONCodable, Equatable {
  let id: Int
  let tags: [String]
  let child: ConcurrentChild?
}

struct ConcurrentChild: JSONCodable, Equatable {
  var name: String
}

@Suite("Robustness")
struct RobustnessTests {
  @Test("concurrent first use builds one plan and decodes correctly everywhere")
  func concurrentFirstUse() async throws {
    let text = #"{"id": 1, "tags": ["a"], "child": {"name": "c"}}"#
    let expected = ConcurrentFirstUse(id: 1, tags: ["a"], child: ConcurrentChild(name: "c"))
    try await withThrowingTaskGroup(of: ConcurrentFirstUse.self) { group in
      for task in 0..<16 {
        group.addTask {
          task % 2 == 0
            ? try ConcurrentFirstUse(jsonString: text)
            : try ConcurrentFirstUse(decode: JSON(jsonString: text))
        }
      }
      for try await decoded in group { #expect(decoded == expected) }
    }
    #expect(try expected.jsonString() == #"{"id":1,"tags":["a"],"child":{"name":"c"}}"#)
  }

  @Test("corrupted, truncated and shuffled input fails with JSON.Error, never a crash")
  func mutations() throws {
    let valid = Array(
      #"{"id": 7, "name": "Ada \u00e9", "admin": true, "website": null, "scores": [1.5, -2e3], "friends": [{"id": 8, "name": "B", "admin": false, "scores": [], "friends": []}]}"#
        .utf8)
    #expect(try User(jsonData: Data(valid)).id == 7)
    var random = SystemRandomNumberGenerator()
    let interesting: [UInt8] =
      Array(#"{}[]":,\"0123456789.eE+-tfn "#.utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xFF]
    var failures = 0
    for round in 0..<3000 {
      var bytes = valid
      switch round % 4 {
      case 0: bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &random)))
      case 1:
        for _ in 0..<Int.random(in: 1...4, using: &random) {
          bytes[Int.random(in: 0..<bytes.count, using: &random)] =
            interesting.randomElement(using: &random) ?? 0
        }
      case 2:
        bytes.insert(
          interesting.randomElement(using: &random) ?? 0,
          at: Int.random(in: 0...bytes.count, using: &random))
      default:
        bytes.remove(at: Int.random(in: 0..<bytes.count, using: &random))
      }
      do {
        _ = try User(jsonData: Data(bytes))
        _ = try [User](jsonData: Data(bytes))
      } catch is JSON.Error {
        failures += 1
      }
    }
    #expect(failures > 1000, "most mutations are invalid and are reported")
  }

  @Test("deep nesting in models is bounded, not a stack overflow")
  func deepModels() {
    struct Node: JSONDecodable { let next: [Node] }
    #expect((try? Node(jsonString: #"{"next": [{"next": []}]}"#))?.next.count == 1)  // observed: bytes from now on
    let deep = String(repeating: #"{"next": ["#, count: 100_000)
    let error = #expect(throws: JSON.Error.self) { try Node(jsonString: deep) }
    #expect(error?.kind == .tooDeep(limit: 512))
    let deepArrays = String(repeating: "[", count: 100_000)
    #expect(throws: JSON.Error.self) { try [[[[[[Int]]]]]](jsonString: deepArrays) }
  }
}
