import AutoMap
import Foundation
import Testing

// A byte `Decoder` session keeps the child decoders (nested containers, `Codable` property
// values, enum payloads) whose value ended and that nothing else holds, for the next values.
// Attacked here: `Codable` code that keeps a child decoder or a nested container strongly or
// weakly and reads through it during later values, the coding path a reused child reports,
// and values with more nested objects than the session keeps.

/// A `Codable` property value, read by a child decoder. It keeps its decoder, by `v % 4`:
/// strongly, weakly, through a nested container, or not at all. Before it reads, it reads
/// through everything the values before kept: each must give its own value's number, refuse
/// (its session ended) or be gone, never show another value's bytes.
private struct KeptLeaf: Codable, Equatable {
  final class Log: @unchecked Sendable {
    var paths: [String] = []
    var strong: [(decoder: any Decoder, v: Int, path: String)] = []
    var containers: [(container: KeyedDecodingContainer<AnyKey>, w: Int)] = []
    weak var weak: AnyObject?
    var weakV = 0
    var weakPath = ""
    /// Reads through something kept that gave another value's number.
    var wrongReads: [String] = []
    var lateReads = 0
  }
  @TaskLocal static var log: Shared<Log>?
  var v: Int
  var w: Int

  init(v: Int) { (self.v, self.w) = (v, v * 2) }

  init(from decoder: any Decoder) throws {
    let path = decoder.codingPath.map(\.stringValue).joined(separator: ".")
    Self.log?.withLock { log in
      log.paths.append(path)
      var kept = log.strong
      if let weak = log.weak as? any Decoder { kept.append((weak, log.weakV, log.weakPath)) }
      for (decoder, v, path) in kept {
        // A decoder taken for another value would tell that value's path.
        let now = decoder.codingPath.map(\.stringValue).joined(separator: ".")
        if now != path { log.wrongReads.append("a decoder of \(path) moved to \(now)") }
        guard let late = try? decoder.container(keyedBy: AnyKey.self).decode(Int.self, forKey: .v)
        else { continue }
        log.lateReads += 1
        if late != v { log.wrongReads.append("a decoder of \(v) read \(late)") }
      }
      for (container, w) in log.containers {
        guard let late = try? container.decode(Int.self, forKey: AnyKey("w")) else { continue }
        log.lateReads += 1
        if late != w { log.wrongReads.append("a container of \(w) read \(late)") }
      }
    }
    let container = try decoder.container(keyedBy: AnyKey.self)
    v = try container.decode(Int.self, forKey: .v)
    let nested = try container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("n"))
    w = try nested.decode(Int.self, forKey: AnyKey("w"))
    Self.log?.withLock { log in
      switch v % 4 {
      case 0: log.strong.append((decoder, v, path))
      case 1: (log.weak, log.weakV, log.weakPath) = (decoder as AnyObject, v, path)
      case 2: log.containers.append((nested, w))
      default: break
      }
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: AnyKey.self)
    try container.encode(v, forKey: .v)
    var nested = container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("n"))
    try nested.encode(w, forKey: AnyKey("w"))
  }
}

extension AnyKey {
  fileprivate static let v = AnyKey("v")
}

/// Leaves in an array and a dictionary: one `Codable` value, read by one session.
private struct KeptBranch: Codable, Equatable {
  var leaves: [KeptLeaf]
  var pair: [String: KeptLeaf]
}

/// Each branch is read by a session of its own, on the model's reader: the root and its
/// session are reused, and with them the children the branch before left.
private struct KeptBox: JSONCodable, Equatable {
  var branch = KeptBranch(leaves: [], pair: [:])
}

private struct KeptTree: JSONCodable, Equatable {
  var boxes: [KeptBox] = []
}

/// Nested as deep as asked: more children in one value than a session keeps.
private indirect enum KeptChain: Codable, JSONCodable, Equatable {
  case link(KeptChain, tag: Int)
  case end(KeptLeaf)

  static func make(_ depth: Int, _ seed: Int) -> KeptChain {
    (0..<depth).reduce(.end(KeptLeaf(v: seed))) { .link($0, tag: $1 + seed) }
  }
}

/// An enum in each layout: its payload is a child decoder each value.
private enum KeptExternal: Codable, JSONCodable, Equatable {
  case tap(x: Int, y: Int)
  case leaf(KeptLeaf)
  case none
}

private enum KeptInternal: Codable, JSONCodable, Equatable {
  case tap(x: Int, y: Int)
  case leaf(l: KeptLeaf)
  case none
  static let caseLayout = JSON.CaseLayout.internalTag("type")
}

private enum KeptAdjacent: Codable, JSONCodable, Equatable {
  case tap(x: Int, y: Int)
  case leaf(KeptLeaf)
  case none
  static let caseLayout = JSON.CaseLayout.adjacentTag("t", content: "c")
}

private struct KeptGestures: JSONCodable, Equatable {
  var external: [KeptExternal] = []
  var `internal`: [KeptInternal] = []
  var adjacent: [KeptAdjacent] = []
}

@Suite("The byte Decoder's child decoders, reused along one session")
struct DecoderChildReuseTests {
  private static func tree(_ count: Int) -> KeptTree {
    KeptTree(
      boxes: (0..<count).map { index in
        KeptBox(
          branch: KeptBranch(
            leaves: (0..<3).map { KeptLeaf(v: index * 3 + $0) },
            pair: ["only": KeptLeaf(v: 1000 + index)]))
      })
  }

  @Test("child decoders kept strongly, weakly or through a container refuse later values")
  func keptChildren() throws {
    let text = try Self.tree(40).jsonString()
    let reference = try KeptTree(decode: JSON(jsonString: text))
    #expect(reference == Self.tree(40))
    for decode in [
      { try KeptTree(jsonString: text) }, { try KeptTree(jsonData: Data(text.utf8)) },
      { try [KeptTree](jsonString: "[\(text), \(text)]")[1] },
    ] {
      let log = Shared(KeptLeaf.Log())
      let tree = try KeptLeaf.$log.withValue(log) { try decode() }
      #expect(tree == reference)
      #expect(log.withLock { $0.wrongReads } == [])
      #expect(log.withLock { $0.strong.count + $0.containers.count } >= 80)
    }
  }

  @Test("a reused child decoder reports its own coding path, as the reference's does")
  func codingPaths() throws {
    let text = try Self.tree(12).jsonString()
    let byteLog = Shared(KeptLeaf.Log())
    let referenceLog = Shared(KeptLeaf.Log())
    let tree = try KeptLeaf.$log.withValue(byteLog) { try KeptTree(jsonString: text) }
    let reference = try KeptLeaf.$log.withValue(referenceLog) {
      try KeptTree(decode: JSON(jsonString: text))
    }
    #expect(tree == reference)
    let paths = byteLog.withLock { $0.paths }
    #expect(paths.count == 12 * 4)
    #expect(paths.first == "leaves.Index 0")
    #expect(paths.last == "pair.only")
    #expect(paths == referenceLog.withLock { $0.paths })
  }

  @Test("enums of every tag, many in one reader, and chains deeper than the spares: alike")
  func manyValues() throws {
    let leaves = (0..<300).map { KeptLeaf(v: $0) }
    let gestures = KeptGestures(
      external: leaves.map {
        $0.v % 3 == 0 ? .tap(x: $0.v, y: -$0.v) : $0.v % 3 == 1 ? .leaf($0) : .none
      },
      internal: leaves.map {
        $0.v % 3 == 0 ? .tap(x: $0.v, y: 1) : $0.v % 3 == 1 ? .leaf(l: $0) : .none
      },
      adjacent: leaves.map {
        $0.v % 3 == 0 ? .tap(x: 1, y: $0.v) : $0.v % 3 == 1 ? .leaf($0) : .none
      })
    let text = try gestures.jsonString()
    #expect(agreedDecoding(KeptGestures.self, text) == .success(gestures))
    // Each chain has more nested objects than a session keeps; short ones in between take
    // the spares the long ones left.
    let chains = (0..<12).map { KeptChain.make($0 % 2 == 0 ? 40 : 2, $0) }
    let chainText = try chains.jsonString()
    #expect(try [KeptChain](decode: JSON(jsonString: chainText)) == chains)
    #expect(try [KeptChain](jsonString: chainText) == chains)
    #expect(try [KeptChain](jsonData: Data(chainText.utf8)) == chains)
    // A value that fails half-way leaves its children linked; the next ones read alike.
    var broken = chainText
    if let first = broken.range(of: #""tag":4"#) {
      broken.replaceSubrange(first, with: #""tag":"4""#)
    }
    #expect(broken != chainText)
    let fromJSON = #expect(throws: JSON.Error.self) {
      try [KeptChain](decode: JSON(jsonString: broken))
    }
    let fromBytes = #expect(throws: JSON.Error.self) { try [KeptChain](jsonString: broken) }
    #expect(fromBytes?.description == fromJSON?.description)
    #expect(try [KeptChain](jsonString: chainText) == chains)
  }
}
