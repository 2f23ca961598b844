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
    let seed: UInt64 = 0x0B57_1A7E
    var random = DiffRandom(seed: seed)
    let interesting: [UInt8] =
      Array(#"{}[]":,\"0123456789.eE+-tfn "#.utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xFF]
    var truncations = 0
    var failures = 0
    for round in 0..<3000 {
      var bytes = valid
      switch round % 4 {
      case 0: bytes = Array(bytes.prefix(random.below(bytes.count)))
      case 1:
        for _ in 0...random.below(4) { bytes[random.below(bytes.count)] = random.pick(interesting) }
      case 2: bytes.insert(random.pick(interesting), at: random.below(bytes.count + 1))
      default: bytes.remove(at: random.below(bytes.count))
      }
      let context = "seed \(seed), round \(round): \(String(decoding: bytes, as: UTF8.self))"
      // The byte path against the `JSON` path. A failing byte path is decoded again through
      // `JSON`, so failures agree by construction: what this compares is that every error is
      // a `JSON.Error` and that whatever the byte path accepts, it reads as `JSON` values do.
      let viaBytes = EntryOutcome { try User(jsonData: Data(bytes)) }
      let viaJSON = EntryOutcome { try User(decode: JSON(jsonData: Data(bytes))) }
      #expect(viaBytes == viaJSON, "\(context)")
      #expect(viaBytes.description?.hasPrefix("not a JSON.Error") != true, "\(context)")
      let array = Data(Array("[".utf8) + bytes + Array(", ".utf8) + valid + Array("]".utf8))
      let arrayViaBytes = EntryOutcome { try [User](jsonData: array) }
      let arrayViaJSON = EntryOutcome { try [User](decode: JSON(jsonData: array)) }
      #expect(arrayViaBytes == arrayViaJSON, "[\(context), valid]")
      if case .failure = viaBytes { failures += 1 }
      if round % 4 == 0 {
        // A strict prefix of an object is never a document: malformed, within it.
        truncations += 1
        guard case .malformed(let offset, _, _)? = viaBytes.kind else {
          Issue.record("a truncation gave \(viaBytes), \(context)")
          continue
        }
        #expect(offset <= bytes.count, "\(context)")
      }
    }
    #expect(truncations == 750)
    #expect(failures > truncations, "seed \(seed): most other mutations are invalid too")
  }

  @Test("deep nesting in models is bounded, not a stack overflow")
  func deepModels() {
    struct Node: JSONDecodable { let next: [Node] }
    #expect((try? Node(jsonString: #"{"next": [{"next": []}]}"#))?.next.count == 1)  // observed: bytes from now on
    let deep = String(repeating: #"{"next": ["#, count: 100_000)
    let error = #expect(throws: JSON.Error.self) { try Node(jsonString: deep) }
    #expect(error?.kind == .tooDeep(limit: 512))
    let deepArrays = String(repeating: "[", count: 100_000)
    let arrays = #expect(throws: JSON.Error.self) { try [[[[[[Int]]]]]](jsonString: deepArrays) }
    #expect(arrays?.kind == .tooDeep(limit: 512))
  }
}
