import AutoMap
import Foundation
import Testing

/// Apple's dispatch queues and Swift concurrency's threads run on 512 KiB stacks: a document
/// within ``JSON/maximumDepth`` may need more than that (a release build took about 4.8 KiB of
/// stack per level of a model that holds itself, 2.5 KiB per level of `JSON` it parses). Every
/// path either maps such a document or throws the depth error; none overflows the stack. A
/// crash here ends the test run.
@Suite struct SmallStackTests {
  /// The stack of a dispatch queue's thread on Apple's systems.
  static let smallStack = 512 << 10
  /// Deep enough for every path to run out of a 512 KiB stack, within the bound.
  static let deep = JSON.maximumDepth - 2

  @Test("a document deeper than the stack holds: its value or the depth error, on every path")
  func deepDocuments() throws {
    let problems = try onThread(stackSize: 64 << 20) {
      let documents = Self.documents(Self.deep)
      // Parsed here, on the large stack, for the entry points that take `JSON`.
      let trees = documents.mapValues { try? JSON(jsonString: $0) }
      return try onThread(stackSize: Self.smallStack) {
        var problems = Self.decodeProblems(documents, trees, allowDepthError: true)
        // The stack is small indeed: a class that holds itself takes several KiB a level.
        do {
          try SmallNode(jsonData: Data(documents["node"]!.utf8)).unlink()
          problems.append("node: decoded on a small stack")
        } catch let error as JSON.Error {
          if !error.message.contains("stack") { problems.append("node: \(error)") }
        } catch { problems.append("node: \(error)") }
        return problems
      }
    }
    #expect(problems == [])
  }

  @Test("a stream element deeper than the stack holds is the error at its byte, never skipped")
  func deepStreamElement() throws {
    let deep = Self.documents(Self.deep)["node"]!
    let first = #"[{"id":2,"pad":""# + String(repeating: "x", count: 20_000) + #""}, "#
    let data = Data((first + deep + "]").utf8)
    var options = JSON.StreamOptions()
    options.skipsBadElements = true
    let skipping = options
    let outcome = try onThread(stackSize: Self.smallStack) {
      var iterator = SyncJSONStream(of: SmallNode.self, data: data, options: skipping)
        .makeIterator()
      var ids: [Int] = []
      do {
        while let node = try iterator.nextElement() {
          ids.append(node.id)
          node.unlink()
        }
        return "\(ids): no error"
      } catch let error as JSON.Error {
        return "\(ids) \(error.path): \(error.message)"
      }
    }
    // The offset counts from the stream's start, as for any error of an element: past the
    // first element, inside the second.
    let prefix = "[2] [1]: nesting deeper than this thread's stack can hold (at most 512 arrays"
    #expect(outcome.hasPrefix(prefix), "\(outcome)")
    let offset = outcome.split(separator: " ").last.flatMap { Int($0) } ?? 0
    #expect(offset > first.utf8.count && offset < first.utf8.count + deep.utf8.count)
  }

  @Test("a Codable value inside its own single value, for ever: the error, on a small stack")
  func endlessSingleValue() throws {
    let problems = try onThread(stackSize: Self.smallStack) {
      var problems: [String] = []
      func check(_ name: String, _ body: () throws -> Void) {
        do {
          try body()
          problems.append("\(name): no error")
        } catch let error as JSON.Error {
          if !error.message.contains("nesting deeper than") { problems.append("\(name): \(error)") }
        } catch { problems.append("\(name): \(error)") }
      }
      for _ in 0..<2 {  // a first use and a later one
        check("bytes") { _ = try JSON.decode(EndlessWrapper.self, fromJSONData: Data("1".utf8)) }
        check("JSON") { _ = try JSON.decode(EndlessWrapper.self, from: 1) }
        check("encode") { _ = try JSON.jsonData(EndlessWrapper(), as: EndlessWrapper.self) }
        check("encode, JSON") { _ = try JSON.encode(EndlessWrapper(), as: EndlessWrapper.self) }
      }
      return problems
    }
    #expect(problems == [])
  }

  @Test("a shallow document maps on a small stack, on every path")
  func shallowDocuments() throws {
    let documents = Self.documents(16)
    let trees = documents.mapValues { try? JSON(jsonString: $0) }
    let problems = try onThread(stackSize: Self.smallStack) {
      Self.decodeProblems(documents, trees, allowDepthError: false)
    }
    #expect(problems == [])
  }

  @Test("a value deeper than the stack holds: its text or the error, on every encoder")
  func deepValues() throws {
    let problems = try onThread(stackSize: 64 << 20) {
      // Made and freed here: only the encoding runs on the small stack.
      let node = SmallNode.chain(Self.deep)
      defer { node.unlink() }
      let tree = SmallTree.nested(Self.deep / 2)
      let holder = SmallHolder(money: SmallMoney.nested((Self.deep - 1) / 2))
      let json = try JSON(jsonString: Self.documents(Self.deep)["array"]!)
      return try onThread(stackSize: Self.smallStack) {
        var problems: [String] = []
        func check<T>(_ name: String, _ body: () throws -> T) {
          do { _ = try body() } catch let error as JSON.Error where error.kind == .unencodable {
          } catch { problems.append("\(name): \(error)") }
        }
        check("class chain, jsonData()") { try node.jsonData() }
        check("class chain, json") { try node.json }
        check("nested arrays, jsonString()") { try tree.jsonString() }
        check("nested arrays, json") { try tree.json }
        check("Codable property, jsonData()") { try holder.jsonData() }
        check("Codable property, json") { try holder.json }
        check("JSON, jsonString()") { try json.jsonString() }
        return problems
      }
    }
    #expect(problems == [])
  }

  /// Documents of `levels` levels, by the shape of the model that reads them.
  private static func documents(_ levels: Int) -> [String: String] {
    // `nested` is DepthPerLevelTests.swift's.
    return [
      "node": nested(#"{"id":1,"child":"#, levels, "null", "}"),
      "tree": nested(#"{"name":"a","kids":["#, levels / 2, "", "]}"),
      "holder": #"{"money":"# + nested(#"{"amount":1,"next":["#, (levels - 1) / 2, "", "]}") + "}",
      "array": nested("[", levels, "1", "]"),
      "object": nested(#"{"a":"#, levels, "1", "}"),
    ]
  }

  /// What each decode path, and each walk of the `JSON` values, did with `documents` that it
  /// should not have: an error other than the depth error (`unencodable` for what writes), or
  /// any error unless `allowDepthError`.
  private static func decodeProblems(
    _ documents: [String: String], _ trees: [String: JSON?], allowDepthError: Bool
  ) -> [String] {
    var problems: [String] = []
    func check<T>(_ name: String, _ body: () throws -> T) {
      do { _ = try body() } catch let error as JSON.Error
        where allowDepthError
        && [.tooDeep(limit: JSON.maximumDepth), .unencodable].contains(error.kind)
      {
      } catch { problems.append("\(name): \(String(describing: error).prefix(200))") }
    }
    for (name, text) in documents.sorted(by: { $0.key < $1.key }) {
      let data = Data(text.utf8)
      // Twice: a first use reads through `JSON`, a later one from the bytes.
      for use in ["first", "later"] {
        switch name {
        case "node":
          check("\(name), \(use) use, bytes") { try SmallNode(jsonData: data).unlink() }
          check("\(name), \(use) use, stream") {
            var iterator = SyncJSONStream(of: SmallNode.self, data: Data("[\(text)]".utf8))
              .makeIterator()
            while let node = try iterator.nextElement() { node.unlink() }
          }
        case "tree": check("\(name), \(use) use, bytes") { try SmallTree(jsonData: data) }
        case "holder": check("\(name), \(use) use, bytes") { try SmallHolder(jsonData: data) }
        default: check("\(name), parse") { try JSON(jsonData: data) }
        }
      }
      guard let tree = trees[name] ?? nil else {
        if !allowDepthError { problems.append("\(name): not parsed") }
        continue
      }
      switch name {
      case "node": check("\(name), from JSON") { try SmallNode(decode: tree).unlink() }
      case "tree": check("\(name), from JSON") { try SmallTree(decode: tree) }
      case "holder": check("\(name), from JSON") { try SmallHolder(decode: tree) }
      default:
        // What takes a `JSON` value apart: none may recurse past the stack either.
        var other = tree
        other.merge(patch: tree)
        check("\(name), ==") { tree == other }
        check("\(name), hash") { tree.hashValue == other.hashValue }
        check("\(name), jsonString()") { try tree.jsonString() }
        check("\(name), description") { tree.description }
        check("\(name), jsonObject") { try JSON(jsonObject: tree.jsonObject) }
        check("\(name), patch") { JSON.patch(from: tree, to: .null) }
        check("\(name), merge patch") { try JSON.mergePatch(from: .null, to: tree) }
      }
    }
    return problems
  }
}

/// A class that holds itself: one level per object. (Sendable to be handed to another thread,
/// which uses it alone.)
private final class SmallNode: JSONCodable, DefaultInitable, @unchecked Sendable {
  var id = 1
  var child: SmallNode?
  required init() {}

  static func chain(_ count: Int) -> SmallNode {
    let root = SmallNode()
    var tail = root
    for _ in 1..<count {
      let next = SmallNode()
      tail.child = next
      tail = next
    }
    return root
  }

  /// Lets go of the chain one link at a time: freeing it whole recurses once per link.
  func unlink() {
    var next = child
    child = nil
    while let node = next {
      next = node.child
      node.child = nil
    }
  }
}

/// A struct in an array of its own: two levels each.
private struct SmallTree: JSONCodable {
  var name = "a"
  var kids: [SmallTree] = []

  static func nested(_ count: Int) -> SmallTree {
    var tree = SmallTree()
    for _ in 1..<count { tree = SmallTree(kids: [tree]) }
    return tree
  }
}

/// A `Codable` type that holds itself, read by AutoMap's `Decoder`s.
private struct SmallMoney: Codable {
  var amount = 1.0
  var next: [SmallMoney] = []

  static func nested(_ count: Int) -> SmallMoney {
    var money = SmallMoney()
    for _ in 1..<count { money = SmallMoney(next: [money]) }
    return money
  }
}

private struct SmallHolder: JSONCodable {
  var money = SmallMoney()
}

/// Decodes and encodes itself through its own single-value container, for ever: a wrapper of
/// a wrapper no document ends, bounded by count (512) and by the stack.
private struct EndlessWrapper: Codable, Sendable {
  init() {}
  init(from decoder: any Decoder) throws {
    self = try decoder.singleValueContainer().decode(EndlessWrapper.self)
  }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(self)
  }
}
