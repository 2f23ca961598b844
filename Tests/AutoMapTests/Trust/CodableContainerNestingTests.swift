import AutoMap
import Foundation
import Testing

// Review of `Codable/` (issue 20): an `encode(to:)` that nests containers in a loop, instead
// of recursing through values, is not counted by the per-value nesting bound. Each nested
// container used to add a box and a path node (and, on the byte path, an encoder) to a chain
// as long as the loop: dropping it recursed once per link and overflowed the stack.

/// Nests `levels` containers of `kind` inside one another in a loop, in one `encode(to:)`.
struct LoopNestingEncodable: Encodable {
  enum Kind: String, CaseIterable, Sendable { case unkeyed, keyed, superEncoder, mixed }
  enum Key: String, CodingKey { case next }
  var levels: Int
  var kind: Kind

  func encode(to encoder: any Encoder) throws {
    switch kind {
    case .unkeyed:
      var container = encoder.unkeyedContainer()
      for _ in 0..<levels { container = container.nestedUnkeyedContainer() }
      try container.encode(1)
    case .keyed:
      var container = encoder.container(keyedBy: Key.self)
      for _ in 0..<levels {
        container = container.nestedContainer(keyedBy: Key.self, forKey: .next)
      }
      try container.encode(1, forKey: .next)
    case .superEncoder:
      var current = encoder
      for _ in 0..<levels {
        var container = current.container(keyedBy: Key.self)
        current = container.superEncoder()
      }
      var single = current.singleValueContainer()
      try single.encode(1)
    case .mixed:
      var keyed = encoder.container(keyedBy: Key.self)
      for _ in 0..<levels / 2 {
        var unkeyed = keyed.nestedUnkeyedContainer(forKey: .next)
        keyed = unkeyed.nestedContainer(keyedBy: Key.self)
      }
      try keyed.encode(1, forKey: .next)
    }
  }
}

struct HoldsLoopNesting: JSONEncodable {
  var item: LoopNestingEncodable
}

/// Keeps the encoder it is given, to nest containers in it after `encode(to:)` returned.
final class KeptEncoder: @unchecked Sendable {  // every access under `lock`
  private let lock = NSLock()
  private var kept: (any Encoder)?
  func keep(_ encoder: any Encoder) { lock.withLock { kept = encoder } }
  func take() -> (any Encoder)? {
    lock.withLock {
      defer { kept = nil }
      return kept
    }
  }
}

let keptLoopEncoder = KeptEncoder()

struct KeepsItsEncoder: Encodable {
  func encode(to encoder: any Encoder) throws {
    keptLoopEncoder.keep(encoder)
    var container = encoder.unkeyedContainer()
    try container.encode(1)
  }
}

struct HoldsKeeper: JSONEncodable {
  var item = KeepsItsEncoder()
}

@Suite("Containers nested in a loop by one encode(to:)", .serialized)
struct CodableContainerNestingTests {
  /// Deeper than a stack holds when each link is dropped by a recursive release (100 000
  /// overflowed it before the fix, in a debug build).
  static let levels = 150_000

  @Test(
    "nested past the depth limit in a loop: an error, not a stack overflow",
    arguments: LoopNestingEncodable.Kind.allCases)
  func loopNesting(kind: LoopNestingEncodable.Kind) throws {
    let value = HoldsLoopNesting(item: LoopNestingEncodable(levels: Self.levels, kind: kind))
    let viaJSON = #expect(throws: JSON.Error.self) { try value.json }
    let viaBytes = #expect(throws: JSON.Error.self) { try value.jsonString() }
    for error in [viaJSON, viaBytes] {
      #expect(error?.kind == .unencodable)
      #expect(error?.message.contains("nesting deeper than \(JSON.maximumDepth)") == true)
    }
    #expect(viaJSON?.description == viaBytes?.description)
    if kind == .unkeyed {  // the byte path is slow to refuse each level: one kind is enough
      let viaData = #expect(throws: JSON.Error.self) { try value.jsonData() }
      #expect(viaBytes?.description == viaData?.description)
    }
  }

  @Test("nested up to the depth limit in a loop: written, the same through every entry point")
  func loopNestingAtTheLimit() throws {
    // The holder's object and the item's outer array take two levels.
    let value = HoldsLoopNesting(
      item: LoopNestingEncodable(levels: JSON.maximumDepth - 2, kind: .unkeyed))
    let text = try value.jsonString()
    #expect(try value.json == JSON(jsonString: text))
    #expect(text.hasSuffix("[1" + String(repeating: "]", count: JSON.maximumDepth - 1) + "}"))
    let deeper = HoldsLoopNesting(
      item: LoopNestingEncodable(levels: JSON.maximumDepth, kind: .unkeyed))
    #expect(throws: JSON.Error.self) { try deeper.jsonString() }
    #expect(throws: JSON.Error.self) { try deeper.json }
  }

  @Test(
    "an encoder kept after encode(to:) returned, nested in a loop: no stack overflow",
    arguments: [false, true])
  func keptEncoderLoop(throughJSON: Bool) throws {
    let text = throughJSON ? try HoldsKeeper().json.jsonString() : try HoldsKeeper().jsonString()
    #expect(text == #"{"item":[1]}"#)
    let encoder = try #require(keptLoopEncoder.take())
    var container = encoder.unkeyedContainer()
    for _ in 0..<Self.levels { container = container.nestedUnkeyedContainer() }
    try? container.encode(2)
    // The value was written long ago: nothing changed it.
    #expect(try HoldsKeeper().jsonString() == #"{"item":[1]}"#)
    _ = keptLoopEncoder.take()
  }
}
