@_spi(Testing) import AutoMap
import Foundation
import Testing

/// Every payload shape, untagged.
enum Setting: JSONCodable, Codable, Equatable {
  case flag(Bool)
  case number(Int)
  case range(Int, Int)
  case named(name: String, value: Int)
  case off
  case text(String)
  static let caseLayout = JSON.CaseLayout.untagged([
    "flag", "number", "range", "named", "off", "text",
  ])
}

/// Recursive and generic, untagged.
indirect enum UntaggedTree<Leaf: Codable & Equatable>: JSONCodable, Codable, Equatable {
  case leaf(Leaf)
  case pair(UntaggedTree, UntaggedTree)
  case node([UntaggedTree])
  case labeled(left: UntaggedTree, right: UntaggedTree)
  static var caseLayout: JSON.CaseLayout { .untagged(["leaf", "pair", "node", "labeled"]) }
}

/// Each level could be two cases, and both fail only at the bottom: without remembering
/// trials, a document of depth n costs 2ⁿ decodes.
indirect enum Ambiguous: JSONCodable, Codable, Equatable {
  case a(x: Ambiguous, y: Int)
  case b(x: Ambiguous, z: Int)
  case end(Int)
  static let caseLayout = JSON.CaseLayout.untagged(["a", "b", "end"])
}

/// `Ambiguous` with each level's payload counted as it is decoded (`CountedLevel.decodes`).
indirect enum CountedAmbiguous: JSONCodable, Codable {
  case a(x: CountedLevel, y: Int)
  case b(x: CountedLevel, z: Int)
  case end(Int)
  static let caseLayout = JSON.CaseLayout.untagged(["a", "b", "end"])
}

/// One level of `CountedAmbiguous`: it notes each decode in the task's list.
struct CountedLevel: Codable {
  @TaskLocal static var decodes: LockedList<Int>?
  var inner: CountedAmbiguous

  init(from decoder: any Decoder) throws {
    Self.decodes?.append(1)
    inner = try decoder.singleValueContainer().decode(CountedAmbiguous.self)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(inner)
  }

  /// How many levels are decoded for a document `depth` levels deep that fails at the bottom.
  static func count(depth: Int) -> Int {
    var document: JSON = ["x": ["w": 1]]
    for _ in 0..<depth { document = ["x": document] }
    let decodes = LockedList<Int>()
    $decodes.withValue(decodes) { _ = try? CountedAmbiguous(decode: document) }
    return decodes.elements.count
  }
}

/// Lists a name that is not a case.
enum Misspelled: JSONCodable, Codable {
  case circle(radius: Double)
  static let caseLayout = JSON.CaseLayout.untagged(["circel"])
}

/// Leaves a case out of its list.
enum Unlisted: JSONCodable, Codable, Equatable {
  case listed(Int)
  case forgotten(String)
  static let caseLayout = JSON.CaseLayout.untagged(["listed"])
}

enum StyledEvent: JSONCodable, Codable, Equatable {
  case signedUp(userId: Int)
  case loggedOut
  static let caseLayout = JSON.CaseLayout.untagged(["signedUp", "loggedOut"])
}

/// A class payload that reads from `{}`.
final class UntaggedOptions: Codable {
  var verbose: Bool?
}

indirect enum UntaggedConfig: JSONCodable, Codable {
  case options(UntaggedOptions)
  case many([UntaggedConfig])
  static let caseLayout = JSON.CaseLayout.untagged(["options", "many"])
}

/// Records the deepest stack address it is decoded at.
struct StackProbe: Codable, Equatable {
  nonisolated(unsafe) static var lowest = UInt.max

  init() {}

  init(from decoder: any Decoder) throws {
    Self.record()
    _ = try decoder.singleValueContainer().decode(Int.self)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(0)
  }

  @inline(never) static func here() -> UInt {
    var local = 0
    return withUnsafeMutablePointer(to: &local) { UInt(bitPattern: $0) }
  }

  @inline(never) static func record() { lowest = min(lowest, here()) }

  /// How much stack `body` used below the caller, down to the deepest probe it decoded.
  static func depth(_ body: () throws -> Void) -> UInt {
    lowest = .max
    let top = here()
    _ = try? body()
    return lowest == .max ? 0 : top - lowest
  }
}

/// Every level decodes a probe before going deeper.
indirect enum StackedUntagged: JSONCodable, Codable, Equatable {
  case level(probe: StackProbe, next: StackedUntagged)
  case end(Int)
  static let caseLayout = JSON.CaseLayout.untagged(["level", "end"])
}

/// The same nesting through plain models: the stack every other path stays within.
final class StackedModel: JSONCodable, DefaultInitable {
  var probe = StackProbe()
  var next: StackedModel?
  required init() {}
}

struct Panel: JSONCodable, Equatable {
  var settings: [Setting]
  var main: Setting?
  var byName: [String: Setting]
}

@Suite("Untagged enums")
struct UntaggedEnumTests {
  @Test(
    "each payload shape is written alone and reads back",
    arguments: [
      (Setting.flag(true), "true"), (.number(-3), "-3"), (.range(1, 5), "[1,5]"),
      (.named(name: "x", value: 1), #"{"name":"x","value":1}"#), (.off, #""off""#),
      (.text("hello"), #""hello""#),
    ])
  func shapes(setting: Setting, text: String) throws {
    #expect(try setting.jsonString() == text)
    #expect(agreedDecoding(Setting.self, text) == .success(setting))
  }

  @Test("arrays, optionals and dictionaries of untagged enums, on every entry point")
  func containers() throws {
    let panel = Panel(
      settings: [.flag(false), .range(0, 9), .named(name: "n", value: 2), .off, .text("t")],
      main: .number(7), byName: ["a": .off, "b": .number(1)])
    let text = try panel.jsonString(options: [.sortedKeys])
    #expect(
      text
        == #"{"byName":{"a":"off","b":1},"main":7,"settings":[false,[0,9],{"name":"n","value":2},"off","t"]}"#
    )
    #expect(agreedDecoding(Panel.self, text) == .success(panel))
    #expect(
      agreedDecoding(Panel.self, #"{"settings": [], "byName": {}}"#)
        == .success(Panel(settings: [], main: nil, byName: [:])))
  }

  @Test("the first case that maps wins; ambiguity is resolved by the list's order")
  func order() throws {
    // "off" is both the payload-free case and a text: `off` is listed first.
    #expect(try Setting(jsonString: #""off""#) == .off)
    #expect(try Setting.text("off").jsonString() == #""off""#)
    // A payload-free case is only its name: an object is never `.off`.
    #expect(
      try Setting(jsonString: #"{"name": "x", "value": 1, "extra": 0}"#)
        == .named(name: "x", value: 1))
    // An array of three is not a range (which writes two).
    #expect(throws: JSON.Error.self) { try Setting(jsonString: "[1, 2, 3]") }
    // A number that is not an Int is no case at all.
    #expect(throws: JSON.Error.self) { try Setting(jsonString: "1.5") }
  }

  @Test("recursive and generic enums round-trip")
  func recursiveAndGeneric() throws {
    let tree = UntaggedTree<String>.node([
      .leaf("a"), .pair(.leaf("b"), .node([])),
      .labeled(left: .leaf("c"), right: .pair(.leaf("d"), .leaf("e"))),
    ])
    let text = try tree.jsonString()
    #expect(text == #"["a",["b",[]],{"left":"c","right":["d","e"]}]"#)
    #expect(agreedDecoding(UntaggedTree<String>.self, text) == .success(tree))
    #expect(
      try UntaggedTree<Int>(jsonString: "[1, [2, 3]]") == .pair(.leaf(1), .pair(.leaf(2), .leaf(3)))
    )
    #expect(try UntaggedTree<Int>(jsonString: "[[1]]") == .node([.node([.leaf(1)])]))
  }

  @Test("when no case matches, the error names each case and why")
  func failures() throws {
    guard
      case .failure(let error) = agreedDecoding(Panel.self, #"{"settings": [null], "byName": {}}"#)
    else {
      Issue.record("decoded")
      return
    }
    #expect(error.path == "settings[0]")
    #expect(error.kind == .typeMismatch)
    #expect(
      error.message
        == #"no case of Setting matches null, tried flag: expected Bool, found null; number: expected Int, found null; range: expected Int, found null; named: missing key "name"; off: expected the string "off"; text: expected String, found null"#
    )
    guard case .failure(let nested) = agreedDecoding(Setting.self, #"{"name": "x", "value": "1"}"#)
    else {
      Issue.record("decoded")
      return
    }
    #expect(nested.message.contains(#"named: at value, expected Int, found string "1""#))
    guard case .failure(let pair) = agreedDecoding(Setting.self, #"[1, "x"]"#) else {
      Issue.record("decoded")
      return
    }
    #expect(pair.message.contains(#"range: at [1], expected Int, found string "x""#))
  }

  @Test("a listed name that is not a case, and an unlisted case, are refused")
  func refusals() throws {
    let misspelled = #expect(throws: JSON.Error.self) { try Misspelled(jsonString: "{}") }
    #expect(misspelled?.kind == .invalidModel)
    #expect(misspelled?.message.contains(#""circel", which is not a case of Misspelled"#) == true)
    #expect(try Unlisted.listed(1).jsonString() == "1")
    let unlisted = #expect(throws: JSON.Error.self) { try Unlisted.forgotten("x").jsonString() }
    #expect(unlisted?.kind == .invalidModel)
    #expect(unlisted?.message.contains("forgotten is not listed") == true)
    var setting = Setting.off
    #expect(throws: JSON.Error.self) { try setting.update(from: 1) }
  }

  @Test("key styles apply to case names and labels")
  func keyStyles() throws {
    let event = StyledEvent.signedUp(userId: 3)
    #expect(try event.json(keyStyle: .snakeCase) == ["user_id": 3])
    #expect(try StyledEvent.loggedOut.json(keyStyle: .snakeCase) == "logged_out")
    #expect(try StyledEvent(jsonString: #""logged_out""#, keyStyle: .snakeCase) == .loggedOut)
    #expect(try StyledEvent(jsonString: #"{"user_id": 3}"#, keyStyle: .snakeCase) == event)
  }

  @Test("hostile documents: ambiguity at every level stays linear, depth and size are bounded")
  func hostileAmbiguity() throws {
    // Steps counted: each level could be two cases, so without remembered trials a level
    // more doubles the decodes; remembered, it adds a few. Checked on shallow documents
    // first, so that a regression fails here instead of running for 2^160 steps below.
    let counts = [5, 10, 15].map { CountedLevel.count(depth: $0) }
    #expect(counts[0] >= 5, "\(counts)")
    try #require(
      counts[1] - counts[0] == counts[2] - counts[1],
      "decodes by depth 5, 10, 15: \(counts), not linear")
    // Depth 160, two candidate cases per level, failing only at the bottom.
    var ambiguous: JSON = ["x": ["w": 1]]
    for _ in 0..<160 { ambiguous = ["x": ambiguous] }
    let error = #expect(throws: JSON.Error.self) { try Ambiguous(decode: ambiguous) }
    #expect(error?.message.hasPrefix("no case of Ambiguous matches") == true)
    #expect((error?.message.count ?? 0) < 2000)
    var ok: JSON = ["x": 1, "y": 2]
    for _ in 0..<150 { ok = ["x": ok, "z": 0] }
    #expect(throws: Never.self) { try Ambiguous(decode: ok) }
  }

  @Test("equal empty payloads in one document are distinct values: no shared class instance")
  func emptyPayloadsAreNotShared() throws {
    for config in [
      try UntaggedConfig(jsonString: "[{}, {}]"),
      try UntaggedConfig(jsonData: Data("[{}, {}]".utf8)),
      try UntaggedConfig(decode: [[:], [:]]),
    ] {
      guard case .many(let configs) = config, configs.count == 2,
        case .options(let first) = configs[0], case .options(let second) = configs[1]
      else {
        Issue.record("not two options: \(config)")
        continue
      }
      #expect(first !== second)
      first.verbose = true
      #expect(second.verbose == nil)
    }
  }

  @Test("past the depth bound, untagged values throw instead of overflowing the stack")
  func stackAtTheDepthBound() throws {
    // A level of untagged values takes about three models' stack and counts as that much
    // nesting, so the bound stops it where models nested as deep would stop (a 10 000-deep
    // chain overflowed an 8 MB thread under AddressSanitizer before). Comparing stack
    // addresses proved unreliable (AddressSanitizer's fake stacks, tests on other threads),
    // so what is checked is the outcome on both shapes.
    var untagged: JSON = 0
    var models: JSON = ["probe": 0]
    for _ in 0..<2_000 {
      untagged = ["probe": 0, "next": untagged]
      models = ["probe": 0, "next": models]
    }
    let untaggedError = #expect(throws: JSON.Error.self) { try StackedUntagged(decode: untagged) }
    let modelError = #expect(throws: JSON.Error.self) { try StackedModel(decode: models) }
    #expect(untaggedError?.kind == .tooDeep(limit: JSON.maximumDepth))
    #expect(modelError?.kind == .tooDeep(limit: JSON.maximumDepth))
  }

  @Test("hostile documents: depth and size are bounded")
  func hostileSize() throws {

    // Nesting beyond the limit is an error, not a crash.
    let deep = String(repeating: "[", count: 600) + "1" + String(repeating: "]", count: 600)
    #expect(throws: JSON.Error.self) { try UntaggedTree<Int>(jsonString: deep) }
    var deepJSON: JSON = 1
    for _ in 0..<600 { deepJSON = [deepJSON] }
    #expect(throws: JSON.Error.self) { try UntaggedTree<Int>(decode: deepJSON) }

    // Huge arrays: many values, and one value with a huge payload.
    let many = "[" + Array(repeating: "[1,2]", count: 2_000).joined(separator: ",") + "]"
    #expect(try [Setting](jsonString: many).count == 2_000)
    let wide = "[" + (0..<20_000).map(String.init).joined(separator: ",") + "]"
    let node = try UntaggedTree<Int>(jsonString: wide)
    guard case .node(let leaves) = node else {
      Issue.record("not a node")
      return
    }
    #expect(leaves.count == 20_000)
    #expect(throws: JSON.Error.self) { try Setting(jsonString: wide) }
  }
}
