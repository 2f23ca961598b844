import AutoMap
import Foundation
import Testing

// Issue 20: an adversarial reading of Streams/, Configuration/, Reporting/, Codable/ and the
// polymorphism sources. Each attack that is not covered elsewhere is kept here.

/// A hierarchy whose `subclass(for:)` decodes the base type to look at the object: user code
/// that calls AutoMap on the same value, which asks `subclass(for:)` again.
class SelfProbingAnimal: JSONCodable, DefaultInitable, JSONPolymorphic {
  var name = ""
  required init() {}
  class var subclasses: [String: SelfProbingAnimal.Type] { ["cat": SelfProbingCat.self] }
  class func subclass(for object: JSON) throws -> SelfProbingAnimal.Type? {
    _ = try SelfProbingAnimal(decode: object)
    return nil
  }
}

final class SelfProbingCat: SelfProbingAnimal {}

/// A protocol type whose concrete type has a property under the discriminator key.
protocol ReviewTagged {}

struct ReviewLabel: ReviewTagged, JSONCodable, Equatable {
  var type: String
  var text: String
}

/// Holds an iterator for a handler that reads the stream on.
final class IteratorBox: @unchecked Sendable {  // used by one test's one thread
  var iterator: SyncJSONStream<Int>.Iterator?
  var seenInside: [Int] = []
}

@Suite("Review of the new surface: attacks found by reading the sources")
struct ReviewFindingsTests {
  static let registered: Bool = {
    (try? JSON.registerPolymorphic((any ReviewTagged).self, types: ["label": ReviewLabel.self]))
      != nil
  }()

  @Test("subclass(for:) that decodes the base type is bounded: an error, not a stack overflow")
  func selfProbingSubclassChoice() throws {
    let error = #expect(throws: JSON.Error.self) {
      try SelfProbingAnimal(jsonString: #"{"type": "cat", "name": "c"}"#)
    }
    #expect(error?.kind == .tooDeep(limit: JSON.maximumDepth), "\(String(describing: error))")
    #expect(throws: JSON.Error.self) {
      try SelfProbingAnimal(decode: ["type": "cat", "name": "c"])
    }
  }

  @Test("a property under the discriminator key reads the discriminator, and is written once")
  func discriminatorKeyIsAProperty() throws {
    #expect(Self.registered)
    let text = #"{"type": "label", "text": "t"}"#
    let value = try #require(
      try JSON.decode((any ReviewTagged).self, fromJSONData: Data(text.utf8)) as? ReviewLabel)
    #expect(value == ReviewLabel(type: "label", text: "t"))
    // The instance's own member under the key is replaced by the discriminator: one key.
    let written = try JSON.jsonData(
      ReviewLabel(type: "other", text: "t") as any ReviewTagged, as: (any ReviewTagged).self)
    let json = try JSON(jsonData: written)
    #expect(json == ["type": "label", "text": "t"])
    let occurrences = String(decoding: written, as: UTF8.self).components(separatedBy: "\"type\"")
    #expect(occurrences.count == 2, "the key is written once")
  }

  @Test("an onSkip handler that reads the same stream on: each element once, no crash")
  func reentrantOnSkip() throws {
    let box = IteratorBox()
    var options = JSON.StreamOptions()
    options.skipsBadElements = true
    options.onSkip = { _ in
      if let value = try? box.iterator?.nextElement() { box.seenInside.append(value) }
    }
    let data = Data("1\nx\n2\ny\n3\nz\n4\n".utf8)
    var outer = SyncJSONStream(of: Int.self, data: data, format: .lines, options: options)
      .makeIterator()
    box.iterator = outer  // a copy: the same stream
    var seen: [Int] = []
    while let value = try outer.nextElement() { seen.append(value) }
    box.iterator = nil
    #expect((seen + box.seenInside).sorted() == [1, 2, 3, 4], "\(seen) \(box.seenInside)")
  }
}
