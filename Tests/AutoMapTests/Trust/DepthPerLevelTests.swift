import AutoMap
import Foundation
import Testing

// Issue 20, finding 3: depth is counted in JSON nesting levels on every path, so a document
// nested exactly `JSON.maximumDepth` deep maps wherever the types allow it, and one level
// deeper is the depth error, never a stack overflow.

final class DepthLink: JSONCodable, DefaultInitable {
  var next: DepthLink?
  required init() {}
}

struct DepthNode: JSONCodable, DefaultInitable {
  var children: [DepthNode] = []
}

struct CodableDepthNode: Codable {
  var children: [CodableDepthNode]?
}

/// A `Codable`-only value written as a number: no level of its own.
struct DepthMoney: Codable {
  var cents: Int
  init(from decoder: any Decoder) throws {
    cents = try decoder.singleValueContainer().decode(Int.self)
  }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(cents)
  }
}

/// A `Codable` value that nests a container of its own: `{"wrap": {"next": [ … ]}}`, three
/// levels a value (the innermost, `{"wrap": {}}`, two).
struct DepthWrapped: Codable {
  var next: [DepthWrapped]?
  private enum Keys: String, CodingKey { case wrap, next }
  init(next: [DepthWrapped]?) { self.next = next }
  init(from decoder: any Decoder) throws {
    let wrap = try decoder.container(keyedBy: Keys.self).nestedContainer(
      keyedBy: Keys.self, forKey: .wrap)
    next = try wrap.decodeIfPresent([DepthWrapped].self, forKey: .next)
  }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    var wrap = container.nestedContainer(keyedBy: Keys.self, forKey: .wrap)
    try wrap.encodeIfPresent(next, forKey: .next)
  }
}

struct DepthWrappedHolder: JSONCodable {
  var root: DepthWrapped
}

/// Flattened into itself: each `next` reads the same object again, for ever.
final class DepthSelfFlattened: JSONCodable, DefaultInitable {
  var v = 0
  var next: DepthSelfFlattened?
  required init() {}
  static func specificOptions() -> [String: SpecificOption] { ["next": .index([])] }
}

/// The same, through an alternative that is the object itself.
final class DepthSelfAlternative: JSONCodable, DefaultInitable {
  var v = 0
  var next: DepthSelfAlternative?
  required init() {}
  static func specificOptions() -> [String: SpecificOption] {
    ["next": [.index("next"), .alternativeIndex([])]]
  }
}

/// A link of a chain, which can be put inside one more link.
protocol DepthChainLink: JSONCodable, DefaultInitable, AnyObject {
  var next: Self? { get set }
}

/// A link whose members are all a flattened model's, which flattens one more: the chain goes
/// on inside the two (`next`), so that each level is inside two flattened values.
final class DepthFlatLink: DepthChainLink {
  var inner = DepthFlatInner()
  required init() {}
  var next: DepthFlatLink? {
    get { inner.leaf.next }
    set { inner.leaf.next = newValue }
  }
  static func specificOptions() -> [String: SpecificOption] { ["inner": .index([])] }
}

struct DepthFlatInner: JSONCodable, DefaultInitable {
  var y = 0
  var leaf = DepthFlatLeaf()
  static func specificOptions() -> [String: SpecificOption] { ["leaf": .index([])] }
}

struct DepthFlatLeaf: JSONCodable, DefaultInitable {
  var z = 0
  var next: DepthFlatLink?
  static func specificOptions() -> [String: SpecificOption] { ["next": .ignoreIfNull] }
}

/// `JSON` inside a `Codable` type, which the bridge encodes.
struct DepthCodableJSON: Codable { var j: JSON }

struct DepthCodableJSONHolder: JSONCodable { var c: DepthCodableJSON }

/// A nested path: the object it goes through is a level.
final class DepthPathLink: DepthChainLink {
  var next: DepthPathLink?
  var y = 0
  required init() {}
  static func specificOptions() -> [String: SpecificOption] {
    ["next": .ignoreIfNull, "y": .index(["a", "y"])]
  }
}

/// A `JSON` property, and a transform that takes and makes JSON no decoder or encoder walks:
/// their levels count where they sit.
final class DepthJSONLink: DepthChainLink {
  var next: DepthJSONLink?
  var extra: JSON = nil
  var boxed = 0
  required init() {}
  static let box = CustomTransform<JSON, Int>.both(
    fromJSON: { json in try Int(decode: json["v", "w"]) }, toJSON: { ["v": ["w": $0.json]] })
  static func specificOptions() -> [String: SpecificOption] {
    ["next": .ignoreIfNull, "extra": .ignoreIfNull, "boxed": .transform(box)]
  }
}

struct DepthPriceList: JSONCodable, DefaultInitable {
  var kids: [DepthPriceList] = []
  var prices: [DepthMoney] = []
}

struct DepthTagged: JSONCodable, DefaultInitable {
  var kids: [DepthTagged] = []
  var tags: [String: DepthMoney] = [:]
  static func specificOptions() -> [String: SpecificOption] {
    ["kids": .ignoreIfEmpty]
  }
}

/// A cycle through single values only: no container, so no level, at any depth.
final class DepthLoop: Codable {
  var next: DepthLoop?
  init() {}
  init(from decoder: any Decoder) throws {
    next = try decoder.singleValueContainer().decode(DepthLoop?.self)
  }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(next)
  }
}

struct DepthLoopHolder: JSONCodable {
  var loop: DepthLoop
}

struct DepthPriced: JSONCodable, DefaultInitable {
  var kids: [DepthPriced] = []
  var price: DepthMoney?
}

indirect enum DepthExpression: JSONCodable, Codable {
  case leaf(Int)
  case list([DepthExpression])
}

indirect enum DepthTree: JSONCodable, Codable {
  case leaf(Int)
  case node([DepthTree])
  static var caseLayout: JSON.CaseLayout { .untagged(["leaf", "node"]) }
}

class DepthAnimal: JSONCodable, DefaultInitable, JSONPolymorphic {
  var friend: DepthAnimal?
  required init() {}
  class var subclasses: [String: DepthAnimal.Type] { ["dog": DepthDog.self] }
}

final class DepthDog: DepthAnimal {}

protocol DepthShape {}

struct DepthGroup: DepthShape, JSONCodable, DefaultInitable {
  var items: [any DepthShape] = []
}

struct DepthEnvelope: JSONCodable {
  var inner: DepthLink
  static func specificOptions() -> [String: SpecificOption] { ["inner": .embeddedJSON] }
}

indirect enum DepthInternal: JSONCodable, Codable {
  case leaf(value: Int)
  case wrap(child: DepthInternal)
  static var caseLayout: JSON.CaseLayout { .internalTag("type") }
}

indirect enum DepthAdjacent: JSONCodable, Codable {
  case leaf(value: Int)
  case bare
  case wrap(child: DepthAdjacent)
  static var caseLayout: JSON.CaseLayout { .adjacentTag("type", content: "value") }
}

/// `count` times `open`, then `middle`, then `count` times `close`.
func nested(_ open: String, _ count: Int, _ middle: String, _ close: String) -> String {
  String(repeating: open, count: count) + middle + String(repeating: close, count: count)
}

@Suite("Depth counts JSON nesting levels on every path")
struct DepthPerLevelTests {
  static let limit = JSON.maximumDepth
  static let registered: Bool = {
    (try? JSON.registerPolymorphic((any DepthShape).self, types: ["group": DepthGroup.self]))
      != nil
  }()

  /// Models and arrays alternating, `levels` containers in all (`levels` even).
  static func nodes(_ levels: Int) -> String {
    nested(#"{"children":["#, levels / 2 - 1, #"{"children":[]}"#, "]}")
  }

  /// `text` (nested exactly `maximumDepth` deep) maps as `T` from bytes and from a `JSON`
  /// value and encodes back to the same JSON; inside one more array it is the depth error.
  func check<T>(_: T.Type, _ text: String, sourceLocation: SourceLocation = #_sourceLocation)
    throws
  {
    let json = try JSON(jsonString: text)
    for (entry, decode) in [
      ("bytes", { try JSON.decode(T.self, fromJSONData: Data(text.utf8)) }),
      ("JSON", { try JSON.decode(T.self, from: json) }),
    ] {
      let value = try #require(
        try decode(), "at the bound, from \(entry)", sourceLocation: sourceLocation)
      // Compared first: a failed expectation would describe 512 levels of values.
      let encoded = try JSON.encode(value, as: T.self) == json
      let written = try JSON(jsonData: JSON.jsonData(value, as: T.self)) == json
      #expect(encoded, "encoded from \(entry)", sourceLocation: sourceLocation)
      #expect(written, "written from \(entry)", sourceLocation: sourceLocation)
    }
    let deeper = "[" + text + "]"
    for (entry, decode) in [
      ("bytes", { _ = try JSON.decode([T].self, fromJSONData: Data(deeper.utf8)) }),
      ("JSON", { _ = try JSON.decode([T].self, from: [json]) }),
    ] {
      let error = #expect(
        throws: JSON.Error.self, "past the bound, from \(entry)", sourceLocation: sourceLocation
      ) {
        try decode()
      }
      #expect(
        error?.kind == .tooDeep(limit: Self.limit), "\(entry): \(String(describing: error))",
        sourceLocation: sourceLocation)
    }
  }

  @Test("models holding models")
  func models() throws {
    try check(DepthLink.self, nested(#"{"next":"#, Self.limit - 1, #"{"next":null}"#, "}"))
  }

  @Test("models and arrays")
  func modelsAndArrays() throws {
    try check(DepthNode.self, Self.nodes(Self.limit))
  }

  @Test("Codable values through the bridge")
  func codableBridge() throws {
    try check(CodableDepthNode.self, Self.nodes(Self.limit))
  }

  @Test("an optional Codable value is written at its place, with no level of its own")
  func codableOptional() throws {
    // The last model's object is the 511th level, its array the 512th; the price is a number.
    let text = nested(
      #"{"kids":["#, Self.limit / 2 - 1, #"{"kids":[],"price":5}"#, #"],"price":null}"#)
    try check(DepthPriced.self, text)
  }

  @Test("a Codable value written as a single value has no level, in an array at the bound")
  func codableSingleValues() throws {
    // The last model's prices array is the 512th level; its elements are numbers.
    let text = nested(
      #"{"kids":["#, Self.limit / 2 - 1, #"{"kids":[],"prices":[5]}"#, #"],"prices":[]}"#)
    try check(DepthPriceList.self, text)
  }

  @Test("a model flattened into itself is the depth error on every path, first use and later")
  func selfFlattening() throws {
    let text = #"{"v":1}"#
    // The first decode takes the `JSON` path; the later ones read bytes.
    let kinds = try Self.errorKinds {
      [
        ("first", { _ = try DepthSelfFlattened(jsonString: text) }),
        ("bytes", { _ = try DepthSelfFlattened(jsonString: text) }),
        ("data", { _ = try DepthSelfFlattened(jsonData: Data(text.utf8)) }),
        ("array", { _ = try [DepthSelfFlattened](jsonString: "[" + text + "]") }),
        ("JSON", { _ = try DepthSelfFlattened(decode: ["v": 1]) }),
        ("alternative, first", { _ = try DepthSelfAlternative(jsonString: text) }),
        ("alternative, bytes", { _ = try DepthSelfAlternative(jsonString: text) }),
        ("alternative, JSON", { _ = try DepthSelfAlternative(decode: ["v": 1]) }),
      ]
    }
    #expect(kinds.count == 8)
    for (entry, kind) in kinds {
      #expect(kind == "\(JSON.Error.Kind.tooDeep(limit: Self.limit))", "\(entry)")
    }
  }

  @Test("a flattened model has no level of its own, on every path")
  func flattenedModel() throws {
    // 512 links, each with the two flattened models' members: 512 objects, each inside two
    // flattened models, 1 024 in all.
    let text = nested(#"{"y":0,"z":0,"next":"#, Self.limit - 1, #"{"y":1,"z":1}"#, "}")
    try checkChain(DepthFlatLink.self, text)
  }

  @Test("the objects a nested path goes through are levels, on every path")
  func nestedPaths() throws {
    // 510 links, then the last one's object and the object its path goes through: 512.
    let text = nested(#"{"next":"#, Self.limit - 2, #"{"a":{"y":1}}"#, #","a":{"y":0}}"#)
    try checkChain(DepthPathLink.self, text)
  }

  @Test("a JSON property's levels and a transform's count where they sit, on every path")
  func opaqueJSON() throws {
    // 509 links, then the last one's object and its property's two arrays: 512.
    let extra = nested(
      #"{"next":"#, Self.limit - 3, #"{"extra":[[1]],"boxed":{"v":{"w":2}}}"#,
      #","boxed":{"v":{"w":0}}}"#)
    try checkChain(DepthJSONLink.self, extra)
    // The transform's two objects at the same place: 509 + 1 + 2.
    let boxed = nested(
      #"{"next":"#, Self.limit - 3, #"{"boxed":{"v":{"w":2}}}"#, #","boxed":{"v":{"w":0}}}"#)
    try checkChain(DepthJSONLink.self, boxed)
    // In an array, a dictionary and a `Codable` value, `JSON` counts too: 512 levels are
    // written both ways, 513 refused both ways.
    func deep(_ levels: Int) -> JSON {
      var json: JSON = 1
      for _ in 0..<levels { json = [json] }
      return json
    }
    #expect(try [deep(Self.limit - 1)].json == [deep(Self.limit - 1)])
    #expect(try ["k": deep(Self.limit - 1)].jsonData().count > 0)
    Self.refusesToEncode([deep(Self.limit)])
    Self.refusesToEncode(["k": deep(Self.limit)])
    let holder = DepthCodableJSONHolder(c: DepthCodableJSON(j: deep(Self.limit - 2)))
    #expect(try holder.json == JSON(jsonData: holder.jsonData()))
    Self.refusesToEncode(DepthCodableJSONHolder(c: DepthCodableJSON(j: deep(Self.limit - 1))))
  }

  /// `text` maps at the bound as ``check(_:_:sourceLocation:)`` asserts, and inside one more
  /// link neither encoder writes it.
  ///
  /// Run on a thread with room for it: a debug build's `JSON` path takes more than 8 MB of
  /// stack for 512 links of three models each (on a smaller stack it refuses them with the
  /// depth error instead of crashing).
  func checkChain<T: DepthChainLink>(
    _: T.Type, _ text: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let problems = try onThread(stackSize: 256 << 20) { Self.chainProblems(T.self, text) }
    #expect(problems.isEmpty, "\(problems)", sourceLocation: sourceLocation)
  }

  /// What ``checkChain(_:_:sourceLocation:)`` asserts, as a list of what failed.
  private static func chainProblems<T: DepthChainLink>(_: T.Type, _ text: String) -> [String] {
    var problems: [String] = []
    func outcome(_ body: () throws -> Void) -> String {
      do {
        try body()
        return "no error"
      } catch let error as JSON.Error {
        return "\(error.kind)"
      } catch {
        return "\(error)"
      }
    }
    do {
      let json = try JSON(jsonString: text)
      for (entry, decode) in [
        ("bytes", { try T(jsonData: Data(text.utf8)) }), ("JSON", { try T(decode: json) }),
      ] as [(String, () throws -> T)] {
        let value = try decode()
        if try value.json != json { problems.append("encoded from \(entry)") }
        if try JSON(jsonData: value.jsonData()) != json { problems.append("written from \(entry)") }
      }
      let deeper = "[" + text + "]"
      let tooDeep = "\(JSON.Error.Kind.tooDeep(limit: limit))"
      for (entry, decode) in [
        ("bytes", { _ = try [T](jsonData: Data(deeper.utf8)) }),
        ("JSON", { _ = try [T](decode: [json]) }),
      ] as [(String, () throws -> Void)] {
        let kind = outcome(decode)
        if kind != tooDeep { problems.append("past the bound, \(entry): \(kind)") }
      }
      let outer = T()
      outer.next = try T(jsonString: text)
      for (entry, encode) in [
        ("JSON", { _ = try outer.json }), ("bytes", { _ = try outer.jsonData() }),
      ] as [(String, () throws -> Void)] {
        let kind = outcome(encode)
        if kind != "\(JSON.Error.Kind.unencodable)" {
          problems.append("encoded past the bound, \(entry): \(kind)")
        }
      }
    } catch {
      problems.append("at the bound: \(String(describing: error).prefix(300))")
    }
    return problems
  }

  @Test("a model flattened into itself, as a reference cycle, is refused on every encode path")
  func selfFlatteningCycle() throws {
    let kinds = try Self.errorKinds {
      let cycle = DepthSelfFlattened()
      cycle.next = cycle
      let entries: [(String, () throws -> Void)] = [
        ("JSON", { _ = try cycle.json }), ("bytes", { _ = try cycle.jsonData() }),
        ("let go", { cycle.next = nil }),  // the cycle broken, so that it is freed (ASan)
      ]
      return entries
    }
    #expect(kinds.count == 3)
    #expect(kinds["let go"] == "no error")
    for entry in ["JSON", "bytes"] {
      #expect(kinds[entry] == "\(JSON.Error.Kind.unencodable)", "\(entry)")
    }
  }

  @Test("a dictionary of Codable values is a level, at the bound and past it")
  func codableDictionary() throws {
    // The last model's dictionary is the 512th level, and the deepest: one more array and it
    // is the 513th.
    let text = nested(
      #"{"kids":["#, Self.limit / 2 - 1, #"{"tags":{"a":5}}"#, #"],"tags":{}}"#)
    try check(DepthTagged.self, text)
  }

  @Test("a cycle through single values is bounded as nesting is, both ways")
  func singleValueCycle() throws {
    let kinds = try Self.errorKinds {
      let loop = DepthLoop()
      loop.next = loop
      let holder = DepthLoopHolder(loop: loop)
      return [
        ("JSON", { _ = try holder.json }), ("bytes", { _ = try holder.jsonData() }),
        ("cycle cut", { loop.next = nil }),
        // Each value reads the same number again, for ever.
        ("decode bytes", { _ = try DepthLoopHolder(jsonString: #"{"loop":1}"#) }),
        ("decode JSON", { _ = try DepthLoopHolder(decode: ["loop": 1]) }),
      ]
    }
    #expect(kinds["JSON"] == "\(JSON.Error.Kind.unencodable)")
    #expect(kinds["bytes"] == "\(JSON.Error.Kind.unencodable)")
    #expect(kinds["cycle cut"] == "no error")
    #expect(kinds["decode bytes"] == "\(JSON.Error.Kind.tooDeep(limit: Self.limit))")
    #expect(kinds["decode JSON"] == "\(JSON.Error.Kind.tooDeep(limit: Self.limit))")
  }

  /// The kind of error each entry point threw ("no error" when it returned), run on a thread
  /// with room for 512 levels of these recursions, whose frames AddressSanitizer makes
  /// several times larger than a release build's.
  private static func errorKinds(
    _ entries: @escaping @Sendable () -> [(String, () throws -> Void)]
  ) throws -> [String: String] {
    try onThread(stackSize: 256 << 20) {
      var kinds: [String: String] = [:]
      for (entry, run) in entries() {
        do {
          try run()
          kinds[entry] = "no error"
        } catch let error as JSON.Error {
          kinds[entry] = "\(error.kind)"
        } catch {
          kinds[entry] = "\(error)"
        }
      }
      return kinds
    }
  }

  @Test("a Codable value's nested containers are levels")
  func codableNestedContainers() throws {
    // Two arrays, the holder, 169 values of three levels and the innermost of two: 512.
    let text = nested(
      #"[[{"root":"#, 1, nested(#"{"wrap":{"next":["#, 169, #"{"wrap":{}}"#, "]}}"), "}]]")
    try check([[DepthWrappedHolder]].self, text)
    // In the holder alone, 170 such values are 513 levels: refused both ways.
    var value = DepthWrapped(next: nil)
    for _ in 0..<170 { value = DepthWrapped(next: [value]) }
    Self.refusesToEncode(DepthWrappedHolder(root: value))
  }

  @Test("enums with payloads")
  func payloadEnums() throws {
    // Three levels a case: {"list": {"_0": [ … ]}}; the leaf {"leaf": {"_0": 1}} is two.
    let text = nested(#"{"list":{"_0":["#, (Self.limit - 2) / 3, #"{"leaf":{"_0":1}}"#, "]}}")
    try check(DepthExpression.self, text)
  }

  @Test("enums with payloads, internal tag: one level a case, the payload's object is the tag's")
  func internalTagEnums() throws {
    let text = nested(
      #"{"type":"wrap","child":"#, Self.limit - 1, #"{"type":"leaf","value":1}"#, "}")
    try check(DepthInternal.self, text)
  }

  @Test("enums with payloads, adjacent tag: two levels a case, the object and its content")
  func adjacentTagEnums() throws {
    let text = nested(
      #"{"type":"wrap","value":{"child":"#, (Self.limit - 2) / 2,
      #"{"type":"leaf","value":{"value":1}}"#, "}}")
    try check(DepthAdjacent.self, text)
  }

  @Test("enums with payloads, adjacent tag: a case with no payload is one level, the object")
  func adjacentTagBareCase() throws {
    // In an array, 255 cases of two levels and one of one level: 512.
    let wraps = (Self.limit - 2) / 2
    let text = nested(#"{"type":"wrap","value":{"child":"#, wraps, #"{"type":"bare"}"#, "}}")
    try check([DepthAdjacent].self, "[" + text + "]")
    // A case with a payload is two levels: in its place it is the 513th, refused both ways.
    var value = DepthAdjacent.leaf(value: 1)
    for _ in 0..<wraps { value = .wrap(child: value) }
    Self.refusesToEncode([value])
  }

  /// `value` is past the bound: `json` and `jsonData()` both refuse it.
  static func refusesToEncode<T: JSONEncodable>(
    _ value: T, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for (entry, encode) in [
      ("JSON", { _ = try value.json }), ("bytes", { _ = try value.jsonData() }),
    ] {
      let error = #expect(throws: JSON.Error.self, "\(entry)", sourceLocation: sourceLocation) {
        try encode()
      }
      #expect(error?.kind == .unencodable, "\(entry)", sourceLocation: sourceLocation)
    }
  }

  @Test("untagged recursive enums")
  func untaggedEnums() throws {
    // Each level counts once (one JSON array, one level) on every path. An untagged level
    // takes more stack than a model's (a debug build's `JSON` path about 16 KB, three times
    // that under AddressSanitizer), more than an 8 MB thread holds for 512 levels: the count
    // is checked on a thread with room. (On a smaller stack the untagged paths' guard throws
    // the depth error; other recursive paths, such as skipping values, do not check the stack,
    // so a thread of a few hundred KB cannot take 512 levels in a debug build.)
    let text = nested("[", Self.limit, "1", "]")
    let problems = try onThread(stackSize: 256 << 20) { Self.untaggedProblems(text) }
    #expect(problems.isEmpty, "\(problems)")
  }

  /// What `check` asserts for `DepthTree`, as a list of what failed: it runs on another
  /// thread, where expectations have no test to report to.
  private static func untaggedProblems(_ text: String) -> [String] {
    var problems: [String] = []
    do {
      let json = try JSON(jsonString: text)
      let fromBytes = try JSON.decode(DepthTree.self, fromJSONData: Data(text.utf8))
      let fromJSON = try JSON.decode(DepthTree.self, from: json)
      for (entry, value) in [("bytes", fromBytes), ("JSON", fromJSON)] {
        if try JSON.encode(value, as: DepthTree.self) != json {
          problems.append("encoded, \(entry)")
        }
        if try JSON(jsonData: JSON.jsonData(value, as: DepthTree.self)) != json {
          problems.append("written, \(entry)")
        }
      }
      let deeper = "[" + text + "]"
      for (entry, decode) in [
        ("bytes", { _ = try JSON.decode([DepthTree].self, fromJSONData: Data(deeper.utf8)) }),
        ("JSON", { _ = try JSON.decode([DepthTree].self, from: [json]) }),
      ] as [(String, () throws -> Void)] {
        do {
          try decode()
          problems.append("past the bound, \(entry): decoded")
        } catch let error as JSON.Error where error.kind == .tooDeep(limit: limit) {
        } catch {
          problems.append("past the bound, \(entry): \(error)")
        }
      }
    } catch {
      problems.append("at the bound: \(String(describing: error).prefix(300))")
    }
    return problems
  }

  @Test("class hierarchies chosen by a discriminator")
  func classPolymorphism() throws {
    let text = nested(
      #"{"type":"dog","friend":"#, Self.limit - 1, #"{"type":"dog","friend":null}"#, "}")
    try check(DepthAnimal.self, text)
  }

  @Test("protocol types chosen by a discriminator")
  func protocolPolymorphism() throws {
    #expect(Self.registered)
    let text = nested(
      #"{"type":"group","items":["#, Self.limit / 2 - 1, #"{"type":"group","items":[]}"#, "]}")
    try check((any DepthShape).self, text)
  }

  @Test("JSON inside a string counts on from the string's place")
  func embeddedJSON() throws {
    // The envelope, then the inner document: one level more than its own.
    let inner = nested(#"{"next":"#, Self.limit - 2, #"{"next":null}"#, "}")
    let text = #"{"inner":"# + JSON.string(inner).description + "}"
    /// The links below the envelope.
    func links(_ envelope: DepthEnvelope) -> Int {
      var count = 1
      var link = envelope.inner
      while let next = link.next {
        count += 1
        link = next
      }
      return count
    }
    for value in [
      try DepthEnvelope(jsonString: text), try DepthEnvelope(decode: JSON(jsonString: text)),
    ] {
      #expect(links(value) == Self.limit - 1)
      // Written at the bound from memory and through `JSON`, and read again.
      #expect(try links(DepthEnvelope(jsonString: value.jsonString())) == Self.limit - 1)
      #expect(try links(DepthEnvelope(decode: value.json)) == Self.limit - 1)
    }
    // One level more: the inner document counts on from the string's place on both paths.
    let deeper = "[" + text + "]"
    for (entry, decode) in [
      ("bytes", { _ = try [DepthEnvelope](jsonString: deeper) }),
      ("JSON", { _ = try [DepthEnvelope](decode: JSON(jsonString: deeper)) }),
    ] {
      let error = #expect(throws: JSON.Error.self, "\(entry)") { try decode() }
      #expect(error?.kind == .tooDeep(limit: Self.limit), "\(entry)")
    }
  }

  @Test("stream elements count the array around them")
  func streams() throws {
    let text = "[[" + Self.nodes(Self.limit - 2) + "]]"
    let results = Array(SyncJSONStream(of: [DepthNode].self, data: Data(text.utf8)))
    #expect(results.count == 1)
    #expect(throws: Never.self) { try results.first?.get() }
    let deeper = "[[" + Self.nodes(Self.limit) + "]]"
    let failed = Array(SyncJSONStream(of: [DepthNode].self, data: Data(deeper.utf8)))
    let error = #expect(throws: JSON.Error.self) { try failed.first?.get() }
    #expect(error?.kind == .tooDeep(limit: Self.limit), "\(String(describing: error))")
  }
}
