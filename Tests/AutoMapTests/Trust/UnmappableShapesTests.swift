import AutoMap
import Foundation
import Testing

// Types that reflection must refuse or leave alone: nothing built out of nothing, no write
// into weak or unowned storage, no `let` the optimizer may fold. Each of these corrupted
// memory or silently misbehaved before the engine asked the runtime about its fields.

enum Shape: JSONCodable {
  case circle(radius: Double)
  case square(Double)
}

indirect enum Tree: JSONCodable {
  case leaf(Int)
  case node(Tree, Tree)
}

enum Direction: JSONCodable {  // no raw value, not CaseIterable
  case north, south
}

final class Listener: Sendable {}

final class Owner: JSONCodable, DefaultInitable {
  weak var delegate: Listener?
  unowned var parent: Listener = sharedListener
  unowned(unsafe) var cache: Listener = sharedListener
  var name = "owner"
  required init() {}
}

let sharedListener = Listener()

struct WeakMemberwise: JSONCodable {
  weak var delegate: Listener?
  var name: String
}

struct IgnoredBeforeVar: JSONCodable, DefaultInitable, Equatable {
  var onChange: () -> Void = {}
  weak var delegate: Listener?
  var count = 0
  static func specificOptions() -> [String: SpecificOption] { ["onChange": .ignore] }
  static func == (lhs: Self, rhs: Self) -> Bool { lhs.count == rhs.count }
}

final class WithLet: JSONCodable, DefaultInitable {
  let count: Int = 5
  var name = ""
  required init() {}
}

struct Lazy: JSONCodable, Equatable {
  var radius: Double
  lazy var area: Double = .pi * radius * radius
}

struct LazyDefaults: JSONCodable, DefaultInitable {
  var radius = 1.0
  lazy var diameter: Double = 2 * radius
}

@Suite("Unmappable shapes are refused, never built or written")
struct UnmappableShapesTests {
  @Test("enums without raw values or CaseIterable are refused at first use, both ways")
  func enumsAreRefused() throws {
    for decode in [
      { _ = try Shape(jsonString: "{}") }, { _ = try Tree(jsonString: "{}") },
      { _ = try Direction(jsonString: "{}") }, { _ = try Shape(decode: [:]) },
      { _ = try [Shape](jsonString: "[{}]") },
    ] as [() throws -> Void] {
      let error = #expect(throws: JSON.Error.self) { try decode() }
      #expect(error?.kind == .invalidModel)
      #expect(error?.description.contains("it is an enum") == true)
      #expect(error?.description.contains("raw value") == true)
    }
    let encoding = #expect(throws: JSON.Error.self) { try Shape.circle(radius: 1).jsonString() }
    #expect(encoding?.kind == .invalidModel)
    #expect(throws: JSON.Error.self) { try Tree.node(.leaf(1), .leaf(2)).json }
  }

  @Test("weak and unowned properties are never read or written")
  func weakAndUnowned() throws {
    let listener = Listener()
    let owner = Owner()
    owner.delegate = listener
    let text = try owner.jsonString(options: [.sortedKeys])
    #expect(text == #"{"name":"owner"}"#)
    let decoded = try Owner(
      jsonString: #"{"name": "x", "delegate": {"a": 1}, "parent": 1, "cache": null}"#)
    #expect(decoded.name == "x")
    #expect(decoded.delegate == nil)
    #expect(decoded.parent === sharedListener)
    #expect(decoded.cache === sharedListener)
    // Decoding through JSON, and again now that reflection was seen.
    #expect(try Owner(decode: ["name": "y", "delegate": 1]).name == "y")
    #expect(try Owner(jsonString: #"{"name": "z"}"#).delegate == nil)
  }

  @Test("a weak property in a struct with no init() is an error at first use")
  func weakNeedsInit() {
    let error = #expect(throws: JSON.Error.self) {
      try WeakMemberwise(jsonString: #"{"name": "a"}"#)
    }
    #expect(error?.kind == .invalidModel)
    #expect(error?.description.contains("WeakMemberwise.delegate is a weak or unowned") == true)
    #expect(error?.description.contains("DefaultInitable") == true)
  }

  @Test("ignored closures and weak properties before a var are not mistaken for lets")
  func noFalseLetError() throws {
    let value = try decodeAllWays(IgnoredBeforeVar.self, #"{"count": 3}"#)
    #expect(value.count == 3)
    #expect(try value.jsonString() == #"{"count":3}"#)
  }

  @Test("a class's let is refused for decoding, with guidance; encoding still works")
  func classLet() throws {
    let error = #expect(throws: JSON.Error.self) {
      try WithLet(jsonString: #"{"count": 9, "name": "a"}"#)
    }
    #expect(error?.kind == .invalidModel)
    #expect(error?.description.contains("WithLet.count is a `let` in a class") == true)
    #expect(error?.description.contains("Declare it `var`") == true)
    #expect(try WithLet().jsonString() == #"{"count":5,"name":""}"#)
  }

  @Test("lazy storage never appears as a key and is never decoded")
  func lazyStorage() throws {
    var value = try decodeAllWays(Lazy.self, #"{"radius": 2, "area": 1}"#)
    #expect(try value.jsonString() == #"{"radius":2.0}"#)
    #expect(abs(value.area - 4 * .pi) < 1e-9)  // computed on first access, not decoded
    #expect(try value.jsonString() == #"{"radius":2.0}"#)
    var defaults = try LazyDefaults(jsonString: #"{"radius": 3}"#)
    #expect(defaults.diameter == 6)
    let options = #expect(throws: JSON.Error.self) { try LazyWithOption(jsonString: "{}") }
    #expect(options?.description.contains("is lazy, which AutoMap never maps") == true)
  }
}

struct LazyWithOption: JSONCodable, DefaultInitable {
  lazy var value = 1
  static func specificOptions() -> [String: SpecificOption] { ["value": "v"] }
}
