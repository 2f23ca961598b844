@_spi(Testing) import AutoMap
import Foundation
import Testing

// A byte decoder or encoder keeps the keyed containers it hands out, one per key type (and case
// name), and hands the same one out for its next values, unless `Codable` code kept a copy
// (the container's box then has another reference: the container is let go and its link to
// the decoder cut). Attacked here: containers kept by `Codable` code and used later, on this
// thread and another, while the same decoders read later values; more key types than a
// decoder keeps; one key type at every level of a recursive enum.

/// What `Codable` code kept, and what the kept containers answered later.
private final class Keeps: @unchecked Sendable {
  private let lock = NSLock()
  private var asks: [() -> String] = []
  private var log: [String] = []
  private var rounds = 0
  func keep(_ ask: @escaping () -> String) { lock.withLock { asks.append(ask) } }
  /// Asks every kept container; returns the answers.
  @discardableResult
  func ask() -> [String] {
    let asks = lock.withLock {
      rounds += 1
      return self.asks
    }
    let answers = asks.map { $0() }
    lock.withLock { log += answers }
    return answers
  }
  var count: Int { lock.withLock { asks.count } }
  /// How many times the kept containers were asked: once per `init(from:)` or `encode(to:)`.
  var asked: Int { lock.withLock { rounds } }
}

/// An enum whose `init(from:)` keeps the payload container of every other `dot` (a `dot` in
/// between hands its decoder's kept container out again, unkept: the next `dot` is given the
/// same one), and asks the ones kept before while each value is read.
private enum KeepingShape: Codable, JSONCodable, Equatable {
  case dot(x: Int)
  case line(x: Int, y: Int)
  case label(text: String)

  @TaskLocal static var keeps: Keeps?

  private enum CodingKeys: String, CodingKey { case dot, line, label }
  private enum DotKeys: String, CodingKey { case x }
  private enum LineKeys: String, CodingKey { case x, y }
  private enum LabelKeys: String, CodingKey { case text }

  init(from decoder: any Decoder) throws {
    let keeps = Self.keeps
    keeps?.ask()
    let container = try decoder.container(keyedBy: CodingKeys.self)
    guard let key = container.allKeys.first else {
      throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no case"))
    }
    switch key {
    case .dot:
      let payload = try container.nestedContainer(keyedBy: DotKeys.self, forKey: .dot)
      let x = try payload.decode(Int.self, forKey: .x)
      if x % 6 == 0 {
        keeps?.keep {
          "\(x): " + ((try? payload.decode(Int.self, forKey: .x)).map(String.init) ?? "refused")
        }
      }
      self = .dot(x: x)
    case .line:
      let payload = try container.nestedContainer(keyedBy: LineKeys.self, forKey: .line)
      self = .line(
        x: try payload.decode(Int.self, forKey: .x), y: try payload.decode(Int.self, forKey: .y))
    case .label:
      let payload = try container.nestedContainer(keyedBy: LabelKeys.self, forKey: .label)
      self = .label(text: try payload.decode(String.self, forKey: .text))
    }
  }

  func encode(to encoder: any Encoder) throws {
    Self.keeps?.ask()  // the containers kept from earlier values, written while this one is
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .dot(let x):
      var payload = container.nestedContainer(keyedBy: DotKeys.self, forKey: .dot)
      try payload.encode(x, forKey: .x)
      if x % 6 == 0, let keeps = Self.keeps {
        // Written later: the text of whatever value is then being written must not change.
        keeps.keep {
          var late = payload
          return (try? late.encode(-1, forKey: .x)) == nil ? "refused" : "wrote"
        }
      }
    case .line(let x, let y):
      var payload = container.nestedContainer(keyedBy: LineKeys.self, forKey: .line)
      try payload.encode(x, forKey: .x)
      try payload.encode(y, forKey: .y)
    case .label(let text):
      var payload = container.nestedContainer(keyedBy: LabelKeys.self, forKey: .label)
      try payload.encode(text, forKey: .text)
    }
  }

  static func sample(_ count: Int) -> [KeepingShape] {
    (0..<count).map { index in
      switch index % 3 {
      case 0: return .dot(x: index)
      case 1: return .line(x: index, y: -index)
      default: return .label(text: "l\(index)")
      }
    }
  }
}

/// The same enum in the other tag layouts (synthesized `Codable`).
private enum InternalShape: Codable, JSONCodable, Equatable {
  case dot(x: Int)
  case line(x: Int, y: Int)
  static let caseLayout = JSON.CaseLayout.internalTag("type")
}

private enum AdjacentShape: Codable, JSONCodable, Equatable {
  case dot(x: Int)
  case line(x: Int, y: Int)
  static let caseLayout = JSON.CaseLayout.adjacentTag("type", content: "value")
}

private enum UntaggedShape: Codable, JSONCodable, Equatable {
  case dot(x: Int)
  case line(x: Int, y: Int)
  static let caseLayout = JSON.CaseLayout.untagged(["line", "dot"])
}

/// Twelve cases, each payload with key types of its own: more than a decoder keeps.
private enum ManyKeys: Codable, JSONCodable, Equatable {
  case c0(a: Int), c1(a: Int), c2(a: Int), c3(a: Int), c4(a: Int), c5(a: Int)
  case c6(a: Int), c7(a: Int), c8(a: Int), c9(a: Int), c10(a: Int), c11(a: Int)

  static func make(_ index: Int) -> ManyKeys {
    [c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11][index % 12](index)
  }
}

/// One key type at every level.
private indirect enum KeptChain: Codable, JSONCodable, Equatable {
  case link(depth: Int, next: KeptChain)
  case end(depth: Int)

  static func of(_ depth: Int) -> KeptChain {
    (0..<depth).reduce(KeptChain.end(depth: depth)) { next, level in
      .link(depth: depth - 1 - level, next: next)
    }
  }
}

/// A `Codable` leaf that, in one value, reads the container the leaf before it kept, and
/// writes into it: the reference's containers still work there (its text shows the write).
private struct PeekLeaf: Codable, Equatable {
  var v: Int
  var previous: Int?

  init(v: Int) { self.v = v }

  final class Log: @unchecked Sendable {
    var decoding: [KeyedDecodingContainer<AnyKey>] = []
    var encoding: [KeyedEncodingContainer<AnyKey>] = []
  }
  @TaskLocal static var log: Log?

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: AnyKey.self)
    v = try container.decode(Int.self, forKey: AnyKey("v"))
    if let log = Self.log {
      previous = log.decoding.last.flatMap { try? $0.decode(Int.self, forKey: AnyKey("v")) }
      log.decoding.append(container)
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: AnyKey.self)
    try container.encode(v, forKey: AnyKey("v"))
    if let log = Self.log {
      if var last = log.encoding.last { try? last.encode(v, forKey: AnyKey("next")) }
      log.encoding.append(container)
    }
  }
}

/// The leaves in one `Codable` property: one session for them all.
private struct PeekBranch: Codable, Equatable {
  var leaves: [PeekLeaf]
}

private struct PeekBox: JSONCodable, Equatable {
  var branch = PeekBranch(leaves: [])
}

@Suite("Keyed containers kept by byte decoders and encoders")
struct KeptContainerTests {
  @Test("this system's keyed containers can be kept, in debug and release builds")
  func observable() {
    #expect(AutoMapTesting.keepsContainers.decoding)
    #expect(AutoMapTesting.keepsContainers.encoding)
  }

  @Test("an array of enum values makes its containers once, not once per value")
  func madeOnce() throws {
    let shapes = KeepingShape.sample(300)
    let text = try shapes.json.jsonString()
    let before = AutoMapTesting.containersMade
    #expect(try [KeepingShape](jsonString: text) == shapes)
    let decoded = AutoMapTesting.containersMade - before
    #expect(try shapes.jsonString() == text)
    let encoded = AutoMapTesting.containersMade - before - decoded
    // Three case containers and three payload containers, on a few decoders; 600 if none was
    // kept.
    #expect(decoded > 0 && decoded <= 24, "\(decoded)")
    #expect(encoded > 0 && encoded <= 24, "\(encoded)")

    func made<T: Codable & JSONCodable & Equatable>(_ values: [T]) throws -> Int {
      let text = try values.json.jsonString()
      #expect(try values.jsonString() == text)  // the plans, made on first use
      #expect(try [T](jsonString: text) == values)
      let start = AutoMapTesting.containersMade
      #expect(try values.jsonString() == text)
      #expect(try [T](jsonString: text) == values)
      return AutoMapTesting.containersMade - start
    }
    let internals = (0..<200).map { $0 % 2 == 0 ? InternalShape.dot(x: $0) : .line(x: $0, y: 1) }
    let adjacents = (0..<200).map { $0 % 2 == 0 ? AdjacentShape.dot(x: $0) : .line(x: $0, y: 1) }
    // An untagged enum is written after a probe notes its payload: the probe keeps its
    // containers too (read, the cases are tried through containers of their own).
    let untagged = (0..<200).map { $0 % 2 == 0 ? UntaggedShape.dot(x: $0) : .line(x: $0, y: 1) }
    for count in [try made(internals), try made(adjacents)] {
      #expect(count > 0 && count <= 24, "\(count)")
    }
    #expect(try made(untagged) > 0)
    let untaggedEncoded = AutoMapTesting.containersMade
    _ = try untagged.jsonString()
    #expect(AutoMapTesting.containersMade - untaggedEncoded <= 8)
  }

  @Test("payload containers kept by init(from:): their own value or a refusal, here and elsewhere")
  func keptWhileDecoding() async throws {
    let shapes = KeepingShape.sample(90)
    let text = try shapes.json.jsonString()
    let keeps = Keeps()
    let values = try KeepingShape.$keeps.withValue(keeps) { try [KeepingShape](jsonString: text) }
    #expect(values == shapes)
    let again = try KeepingShape.$keeps.withValue(keeps) { try [KeepingShape](jsonString: text) }
    #expect(again == shapes)
    // Each value read once: a kept container asked fails no later value's session (the
    // reference would read that value again).
    #expect(keeps.asked == 2 * 90)
    #expect(keeps.count == 2 * 15)
    // A kept container answers with its own value (a reference container, or a byte one whose
    // decoder was never reused) or refuses; never with a later value.
    func check(_ answers: [String]) {
      #expect(answers.count == 30)
      for answer in answers {
        let parts = answer.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(parts.count == 2 && (parts[1] == "refused" || parts[1] == parts[0]), "\(answer)")
      }
    }
    check(keeps.ask())
    check(await Task.detached { keeps.ask() }.value)
  }

  @Test("payload containers kept by encode(to:) and written during later values: no text changes")
  func keptWhileEncoding() async throws {
    let shapes = KeepingShape.sample(90)
    let reference = try shapes.json.jsonString()
    let keeps = Keeps()
    try KeepingShape.$keeps.withValue(keeps) { () throws in
      // Each value is written once, from bytes: a container of an earlier value, written
      // into, fails no later value's session (the reference would write that value again,
      // and keep its container once more).
      #expect(try shapes.jsonString() == reference)
      #expect(try shapes.jsonData() == Data(reference.utf8))
    }
    #expect(keeps.asked == 2 * 90)
    #expect(keeps.count == 2 * 15)
    #expect(keeps.ask().allSatisfy { $0 == "refused" || $0 == "wrote" })
    _ = await Task.detached { keeps.ask() }.value
    #expect(try shapes.jsonString() == reference)
  }

  @Test("a container kept and used again in its own value: the value the reference gives")
  func usedInItsValue() throws {
    let box = PeekBox(branch: PeekBranch(leaves: (0..<6).map { PeekLeaf(v: $0) }))
    let text = try box.jsonString()
    #expect(text == #"{"branch":{"leaves":[{"v":0},{"v":1},{"v":2},{"v":3},{"v":4},{"v":5}]}}"#)
    #expect(try PeekBox(jsonString: text) == box)  // the model's plan, made on first use
    // Each leaf's decoder is reused for the next (its container, kept, is cut): the byte path
    // cannot read the leaf before, and gives the value to the reference, which can.
    let decoded = try PeekLeaf.$log.withValue(PeekLeaf.Log()) { try PeekBox(jsonString: text) }
    let reference = try PeekLeaf.$log.withValue(PeekLeaf.Log()) {
      try PeekBox(decode: JSON(jsonString: text))
    }
    #expect(reference.branch.leaves.map(\.previous) == [nil, 0, 1, 2, 3, 4])
    #expect(decoded == reference)
    let written = try PeekLeaf.$log.withValue(PeekLeaf.Log()) { try box.jsonString() }
    let referenceText = try PeekLeaf.$log.withValue(PeekLeaf.Log()) { try box.json.jsonString() }
    #expect(referenceText.contains(#"{"v":0,"next":1}"#))
    #expect(written == referenceText)
  }

  @Test("more key types than a decoder keeps: every value, many times over")
  func manyKeyTypes() throws {
    let values = (0..<240).map { ManyKeys.make($0) }
    let reference = try values.json.jsonString()
    for _ in 0..<3 {
      #expect(try values.jsonString() == reference)
      #expect(try [ManyKeys](jsonString: reference) == values)
    }
    // The keys past the first eight are made for each value.
    let before = AutoMapTesting.containersMade
    _ = try [ManyKeys](jsonString: reference)
    #expect(AutoMapTesting.containersMade - before >= 240 / 12 * 4)
  }

  @Test("one key type at every level of a recursive enum: each level its own container")
  func recursive() throws {
    let chains = (0..<20).map { KeptChain.of($0 % 7) }
    let reference = try chains.json.jsonString()
    for _ in 0..<3 {
      #expect(try chains.jsonString() == reference)
      #expect(try [KeptChain](jsonString: reference) == chains)
    }
    #expect(try [KeptChain](decode: JSON(jsonString: reference)) == chains)
  }
}
