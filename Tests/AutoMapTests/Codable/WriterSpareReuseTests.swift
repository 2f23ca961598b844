import AutoMap
import Foundation
import Testing

// A writer keeps the root `Encoder` of a finished `Codable` value, with its session, and the
// probe of an untagged enum value, for the next value. Attacked here: `Codable` code that
// keeps what it was given in every way it can (the encoder, strongly or weakly; a nested keyed
// or unkeyed container; an encoder made after its session failed) and writes through it while
// the next values are written.

/// What the values before kept (every access under the lock of its `Shared`).
private final class Kept: @unchecked Sendable {
  var encoders: [any Encoder] = []
  weak var weakEncoder: AnyObject?
  var keyed: [KeyedEncodingContainer<AnyKey>] = []
  var unkeyed: [any UnkeyedEncodingContainer] = []

  /// Writes through everything kept: none of it may reach the value being written.
  func meddle() {
    for encoder in encoders {
      var late = encoder.container(keyedBy: AnyKey.self)
      try? late.encode(-1, forKey: AnyKey("late"))
    }
    if let encoder = weakEncoder as? any Encoder {
      var late = encoder.container(keyedBy: AnyKey.self)
      try? late.encode(-2, forKey: AnyKey("weak"))
    }
    for var container in keyed { try? container.encode(-3, forKey: AnyKey("deep")) }
    for var container in unkeyed { try? container.encode(-4) }
  }
}

/// Value `a` keeps, by `a % 6`: its encoder, its encoder weakly, a nested keyed container, a
/// nested unkeyed container, an encoder made after its session failed (`superEncoder`), or
/// nothing.
private struct Keeper: Codable, Equatable {
  @TaskLocal static var kept: Shared<Kept>?
  @TaskLocal static var writers: Shared<[String]>?
  var a: Int

  init(a: Int) { self.a = a }

  init(from decoder: any Decoder) throws {
    a = try decoder.container(keyedBy: AnyKey.self).decode(Int.self, forKey: AnyKey("a"))
  }

  func encode(to encoder: any Encoder) throws {
    Self.writers?.withLock { $0.append("\(type(of: encoder))") }
    Self.kept?.withLock { $0.meddle() }
    var keyed = encoder.container(keyedBy: AnyKey.self)
    try keyed.encode(a, forKey: AnyKey("a"))
    var nested = keyed.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("n"))
    try nested.encode(a, forKey: AnyKey("b"))
    var list = keyed.nestedUnkeyedContainer(forKey: AnyKey("l"))
    try list.encode(a)
    // The session fails here (the reference writes this value); what it hands out after
    // writes into an ended session of its own.
    let late = a % 6 == 4 ? keyed.superEncoder(forKey: AnyKey("s")) : nil
    guard let kept = Self.kept else { return }
    switch a % 6 {
    case 0: kept.withLock { $0.encoders.append(encoder) }
    case 1: kept.withLock { $0.weakEncoder = encoder as AnyObject }
    case 2: kept.withLock { $0.keyed.append(nested) }
    case 3: kept.withLock { $0.unkeyed.append(list) }
    default: if let late { kept.withLock { $0.encoders.append(late) } }
    }
  }
}

/// Each box's item is written by a root encoder of its own, on the model's writer.
private struct KeeperBox: JSONCodable, Equatable {
  var item = Keeper(a: 0)
}

private struct KeeperHolder: JSONCodable, Equatable {
  var boxes: [KeeperBox] = []
}

extension ProcessWideState {
  @Suite("The byte Encoder's roots, reused along one writer")
  struct ByteEncoderRootReuseTests {
    @Test(
      "encoders and containers kept past their value, and written later: text as the reference's")
    func keptEverything() throws {
      ProcessWideState.expectInside()
      let holder = KeeperHolder(boxes: (0..<48).map { KeeperBox(item: Keeper(a: $0)) })
      let reference = try holder.json.jsonString()
      #expect(reference.hasPrefix(#"{"boxes":[{"item":{"a":0,"n":{"b":0},"l":[0]}},"#))
      let kept = Shared(Kept())
      let writers = Shared<[String]>([])
      try Keeper.$kept.withValue(kept) { () throws in
        try Keeper.$writers.withValue(writers) { () throws in
          #expect(try holder.jsonString() == reference)
          #expect(try holder.jsonData() == Data(reference.utf8))
        }
      }
      // Per document: 8 encoders kept (`a % 6 == 0`), 8 made after a failure and 8 more by the
      // reference that writes those values again.
      #expect(kept.withLock { $0.encoders.count } == 2 * 24)
      // Every value but the ones that fail (`superEncoder`) is written by the byte encoder once.
      let expected = (0..<48).flatMap { a in
        a % 6 == 4 ? ["ByteEncoder", "JSONValueEncoder"] : ["ByteEncoder"]
      }
      #expect(writers.withLock { Array($0.prefix(48 + 8)) } == expected)
      #expect(try KeeperHolder(jsonString: reference) == holder)
    }
  }
}

/// An untagged enum whose `encode(to:)` keeps, by `x % 4`, its encoder (the probe), its
/// encoder weakly, its payload's container, or nothing; and first writes through everything
/// kept before. A probe the writer reused while something held it would note those writes
/// and leave the value to the reference.
private enum ProbeKeeper: Codable, JSONCodable, Equatable {
  case point(x: Int, y: Int)
  static let caseLayout = JSON.CaseLayout.untagged(["point"])

  /// What the values before kept, and the encoders each value was written by.
  final class Kept: @unchecked Sendable {
    var encoders: [any Encoder] = []
    weak var weakEncoder: AnyObject?
    var payloads: [KeyedEncodingContainer<PointCodingKeys>] = []
    var writers: [String] = []
  }
  @TaskLocal static var kept: Shared<Kept>?

  enum CodingKeys: CodingKey { case point }
  enum PointCodingKeys: CodingKey { case x, y }

  func encode(to encoder: any Encoder) throws {
    guard case .point(let x, let y) = self else { return }
    Self.kept?.withLock { kept in
      kept.writers.append("\(type(of: encoder))")
      for encoder in kept.encoders + [kept.weakEncoder as? any Encoder].compactMap({ $0 }) {
        var late = encoder.container(keyedBy: CodingKeys.self)
        _ = late.nestedContainer(keyedBy: PointCodingKeys.self, forKey: .point)
      }
      for var payload in kept.payloads { try? payload.encode(-1, forKey: .y) }
    }
    var container = encoder.container(keyedBy: CodingKeys.self)
    var payload = container.nestedContainer(keyedBy: PointCodingKeys.self, forKey: .point)
    try payload.encode(x, forKey: .x)
    try payload.encode(y, forKey: .y)
    Self.kept?.withLock { kept in
      switch x % 4 {
      case 0: kept.encoders.append(encoder)
      case 1: kept.weakEncoder = encoder as AnyObject
      case 2: kept.payloads.append(payload)
      default: break
      }
    }
  }
}

private struct ProbeKeeperBox: JSONCodable, Equatable {
  var point = ProbeKeeper.point(x: 0, y: 0)
}

extension ProcessWideState {
  @Suite("The untagged enums' probe, reused along one writer")
  struct UntaggedProbeReuseTests {
    @Test("encoders and containers of the probe kept and written later: none reaches the next")
    func keptProbe() throws {
      ProcessWideState.expectInside()
      let boxes = (0..<40).map { ProbeKeeperBox(point: .point(x: $0, y: -$0)) }
      let reference = try boxes.json.jsonString()
      #expect(reference.hasPrefix(#"[{"point":{"x":0,"y":0}},{"point":{"x":1,"y":-1}},"#))
      let kept = Shared(ProbeKeeper.Kept())
      try ProbeKeeper.$kept.withValue(kept) { () throws in
        #expect(try boxes.jsonString() == reference)
        #expect(try boxes.jsonString() == reference)
      }
      // Each value probed once, then written from what the probe noted: nothing kept from an
      // earlier value made a probe unsure.
      let writers = kept.withLock { $0.writers }
      #expect(writers == Array(repeating: "UntaggedProbe", count: 80))
      #expect(try [ProbeKeeperBox](jsonString: reference) == boxes)
    }
  }
}

/// A payload value whose `encode(to:)` runs while the probe's notes are written out, and
/// writes many members through the payload container its enum kept: into the probe being
/// read.
private struct ProbeMeddler: Codable, Equatable {
  final class Stash: @unchecked Sendable {
    var container: KeyedEncodingContainer<AnyKey>?
  }
  @TaskLocal static var stash: Stash?
  var v: Int

  init(v: Int) { self.v = v }

  init(from decoder: any Decoder) throws {
    v = try decoder.container(keyedBy: AnyKey.self).decode(Int.self, forKey: AnyKey("v"))
  }

  func encode(to encoder: any Encoder) throws {
    if var kept = Self.stash?.container {
      for index in 0..<200 { try? kept.encode(index, forKey: AnyKey("k\(index)")) }
    }
    var container = encoder.container(keyedBy: AnyKey.self)
    try container.encode(v, forKey: AnyKey("v"))
  }
}

private enum ProbeStasher: Codable, JSONCodable, Equatable {
  case pair(m: ProbeMeddler, s: String, t: String)
  static let caseLayout = JSON.CaseLayout.untagged(["pair"])

  init(from decoder: any Decoder) throws {
    let payload = try decoder.container(keyedBy: AnyKey.self)
      .nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("pair"))
    self = .pair(
      m: try payload.decode(ProbeMeddler.self, forKey: AnyKey("m")),
      s: try payload.decode(String.self, forKey: AnyKey("s")),
      t: try payload.decode(String.self, forKey: AnyKey("t")))
  }

  func encode(to encoder: any Encoder) throws {
    guard case .pair(let m, let s, let t) = self else { return }
    var container = encoder.container(keyedBy: AnyKey.self)
    var payload = container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("pair"))
    try payload.encode(m, forKey: AnyKey("m"))
    try payload.encode(s, forKey: AnyKey("s"))
    try payload.encode(t, forKey: AnyKey("t"))
    ProbeMeddler.stash?.container = payload
  }
}

private struct ProbeStasherBox: JSONCodable, Equatable {
  var e = ProbeStasher.pair(m: ProbeMeddler(v: 0), s: "", t: "")
}

extension ProcessWideState.UntaggedProbeReuseTests {
  @Test(
    "a payload that writes into the probe while its notes are written out: the reference's text")
  func probeWrittenWhileRead() throws {
    let boxes = (0..<6).map { index in
      ProbeStasherBox(
        e: .pair(
          m: ProbeMeddler(v: index), s: "a first string \(index), long enough for the heap",
          t: "a second string \(index), long enough for the heap"))
    }
    let reference = try boxes.json.jsonString()
    let stash = ProbeMeddler.Stash()
    try ProbeMeddler.$stash.withValue(stash) { () throws in
      for _ in 0..<5 {
        stash.container = nil
        #expect(try boxes.jsonString() == reference)
      }
    }
    #expect(try [ProbeStasherBox](jsonString: reference) == boxes)
  }
}
