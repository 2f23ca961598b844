import AutoMap
import Foundation
import Testing

// A byte `Encoder` session keeps the child encoders (nested containers, `Codable` property
// values) that finished and that nothing else holds, for the next containers. Attacked here:
// `Codable` code that keeps a child encoder weakly or strongly and writes through it later, and
// the coding path a reused child reports.

/// A `Codable` property value, written by a child encoder. It records the path it is written
/// at, writes through the encoders that leaves of the branches before kept (their sessions
/// ended), then writes itself and, by `v % 3`, keeps its encoder strongly, weakly, or not at
/// all. (Writing through a kept encoder of the same branch would change the reference's text
/// too: the `JSON` tree is still open.)
private struct ReuseLeaf: Codable, Equatable {
  final class Log: @unchecked Sendable {
    var paths: [String] = []
    var writers: [String] = []
    /// Kept in the branch being written, and in the branches before.
    var strong: [any Encoder] = []
    var strongBefore: [any Encoder] = []
    weak var weak: AnyObject?
    weak var weakBefore: AnyObject?
  }
  @TaskLocal static var log: Shared<Log>?
  var v: Int

  init(v: Int) { self.v = v }

  init(from decoder: any Decoder) throws {
    v = try decoder.container(keyedBy: AnyKey.self).decode(Int.self, forKey: AnyKey("v"))
  }

  func encode(to encoder: any Encoder) throws {
    Self.log?.withLock { log in
      let path = encoder.codingPath.map(\.stringValue).joined(separator: ".")
      log.paths.append(path)
      log.writers.append("\(type(of: encoder))")
      if path == "leaves.Index 0" {  // a branch begins
        log.strongBefore += log.strong
        log.strong = []
        if let weak = log.weak { log.weakBefore = weak }
      }
      for kept in log.strongBefore + [log.weakBefore as? any Encoder].compactMap({ $0 }) {
        var late = kept.container(keyedBy: AnyKey.self)
        try? late.encode(-1, forKey: AnyKey("late"))
      }
    }
    var container = encoder.container(keyedBy: AnyKey.self)
    try container.encode(v, forKey: AnyKey("v"))
    var nested = container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("n"))
    try nested.encode(v * 2, forKey: AnyKey("w"))
    Self.log?.withLock { log in
      switch v % 3 {
      case 0: log.strong.append(encoder)
      case 1: log.weak = encoder as AnyObject
      default: break
      }
    }
  }
}

/// Leaves in an array and a dictionary: one `Codable` value, written by one session.
private struct ReuseBranch: Codable, Equatable {
  var leaves: [ReuseLeaf]
  var pair: [String: ReuseLeaf]
}

/// Each branch is written by a session of its own, on the model's writer: the root and its
/// session are reused, and with them the children the branch before left.
private struct ReuseBox: JSONCodable, Equatable {
  var branch = ReuseBranch(leaves: [], pair: [:])
}

private struct ReuseTree: JSONCodable, Equatable {
  var boxes: [ReuseBox] = []
}

extension ProcessWideState {
  @Suite("The byte Encoder's child encoders, reused along one session")
  struct EncoderChildReuseTests {
    private static func tree(_ count: Int) -> ReuseTree {
      ReuseTree(
        boxes: (0..<count).map { index in
          ReuseBox(
            branch: ReuseBranch(
              leaves: (0..<3).map { ReuseLeaf(v: index * 3 + $0) },
              pair: ["only": ReuseLeaf(v: 1000 + index)]))
        })
    }

    @Test("child encoders kept strongly or weakly and written later: the reference's text")
    func keptChildren() throws {
      ProcessWideState.expectInside()
      let tree = Self.tree(30)
      let reference = try tree.json.jsonString()
      #expect(reference.hasPrefix(#"{"boxes":[{"branch":{"leaves":[{"v":0,"n":{"w":0}},"#))
      let log = Shared(ReuseLeaf.Log())
      try ReuseLeaf.$log.withValue(log) { () throws in
        #expect(try tree.jsonString() == reference)
        #expect(try tree.jsonData() == Data(reference.utf8))
      }
      #expect(log.withLock { $0.strongBefore.count } >= 30)
      // Every leaf written by the byte encoder once: nothing kept reached a later session (it
      // would have written into it, or failed it and sent the branch to the reference).
      #expect(log.withLock { $0.writers } == Array(repeating: "ByteEncoder", count: 2 * 30 * 4))
      #expect(try ReuseTree(jsonString: reference) == tree)
    }

    @Test("a reused child encoder reports its own coding path, as the reference's does")
    func codingPaths() throws {
      let tree = Self.tree(12)
      let byteLog = Shared(ReuseLeaf.Log())
      let referenceLog = Shared(ReuseLeaf.Log())
      let text = try ReuseLeaf.$log.withValue(byteLog) { try tree.jsonString() }
      let reference = try ReuseLeaf.$log.withValue(referenceLog) { try tree.json.jsonString() }
      #expect(text == reference)
      let paths = byteLog.withLock { $0.paths }
      #expect(paths.count == 12 * 4)
      #expect(paths.first == "leaves.Index 0")
      #expect(paths.last == "pair.only")
      #expect(paths == referenceLog.withLock { $0.paths })
    }

    @Test("many values in one writer, no encoder kept: the reference's text every time")
    func unkeptChildren() throws {
      let tree = Self.tree(200)
      let reference = try tree.json.jsonString()
      for _ in 0..<3 { #expect(try tree.jsonString() == reference) }
      let enums = (0..<300).map { ReuseGesture.all[$0 % ReuseGesture.all.count] }
      let enumReference = try enums.json.jsonString()
      #expect(try enums.jsonString() == enumReference)
      #expect(try [ReuseGesture](jsonString: enumReference) == enums)
    }
  }
}

/// An enum with payloads: its case container is a child encoder each value.
private enum ReuseGesture: Codable, JSONCodable, Equatable {
  case tap(x: Int, y: Int)
  case swipe(dx: Double, leaf: ReuseLeaf)
  case none

  static let all: [ReuseGesture] = [
    .tap(x: 1, y: 2), .swipe(dx: 0.5, leaf: ReuseLeaf(v: 5)), .none, .tap(x: -3, y: 0),
  ]
}
