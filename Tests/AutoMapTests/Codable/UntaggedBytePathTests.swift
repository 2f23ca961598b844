@_spi(Testing) import AutoMap
import Foundation
import Testing

/// A payload that notes which `Decoder` read it.
struct UBSpy: Codable, Equatable {
  var x: Int
  var decodedBy = ""

  init(x: Int) { self.x = x }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    x = try container.decode(Int.self, forKey: .x)
    decodedBy = "\(type(of: decoder))"
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(x, forKey: .x)
  }

  static func == (lhs: Self, rhs: Self) -> Bool { lhs.x == rhs.x }
  enum CodingKeys: String, CodingKey { case x }
}

enum UBSpied: JSONCodable, Codable, Equatable {
  case number(Int)
  case spy(UBSpy)
  static let caseLayout = JSON.CaseLayout.untagged(["number", "spy"])
}

/// A case whose payload is the enum itself: read as one value, it is the same value again.
indirect enum UBWrap: JSONCodable, Codable, Equatable {
  case wrap(UBWrap)
  case leaf(Int)
  case both(UBWrap, UBWrap)
  static let caseLayout = JSON.CaseLayout.untagged(["wrap", "leaf", "both"])
}

/// A payload that fails, and when armed first makes every type's next use a first use again:
/// a decode under way on the bytes then meets a type that takes the `JSON` path (the first use
/// of another type does the same).
struct UBForgetter: Codable, Equatable {
  static let armed = Shared(false)

  init(from decoder: any Decoder) throws {
    if Self.armed.withLock({ armed in
      defer { armed = false }; return armed
    }) {
      ProcessWideState.forgetReflection()
    }
    // A failure the byte path can tell from an unsure one: an error of its own container.
    _ = try decoder.singleValueContainer().decode([String: Bool].self)
    throw DecodingError.typeMismatch(
      UBForgetter.self, .init(codingPath: decoder.codingPath, debugDescription: "never"))
  }
  func encode(to encoder: any Encoder) throws {}
}

/// `UBWrap` with a first case that can make later trials take the `JSON` path.
indirect enum UBForgetful: JSONCodable, Codable, Equatable {
  case forget(UBForgetter)
  case wrap(UBForgetful)
  case leaf(Int)
  case both(UBForgetful, UBForgetful)
  static let caseLayout = JSON.CaseLayout.untagged(["forget", "wrap", "leaf", "both"])
}

/// A case holding another enum, itself a case away from this one: `wrap` holds `UBHop`,
/// which holds this enum at the same value. Listed after `leaf`, so that reading `1` does not
/// use `UBHop`: its first use can come in the middle of a trial on bytes.
indirect enum UBHopper: JSONCodable, Codable, Equatable {
  case leaf(Int)
  case wrap(UBHop)
  case both(UBHopper, UBHopper)
  static let caseLayout = JSON.CaseLayout.untagged(["leaf", "wrap", "both"])
}

enum UBHop: JSONCodable, Codable, Equatable {
  case back(UBHopper)
  static let caseLayout = JSON.CaseLayout.untagged(["back"])
}

/// Cases told apart by the key each asks for first: on bytes, a case whose first required key
/// the payload lacks is not tried.
enum UBKeyed: JSONCodable, Codable, Equatable {
  case a(x: Int)
  case b(y: Int)
  case c(x: Int?, z: Int)
  case k(K: Int)
  case pair(Int, Int)
  case one(Int)
  case plain
  static let caseLayout = JSON.CaseLayout.untagged(["a", "b", "c", "k", "pair", "one", "plain"])
}

/// `UBKeyed` nested in another untagged enum, where a case it skips for a missing key is final
/// on bytes (not left to the reference).
enum UBKeyedOuter: JSONCodable, Codable, Equatable {
  case wrap(inner: UBKeyed, w: Int)
  case keyed(UBKeyed)
  case other(o: Int)
  static let caseLayout = JSON.CaseLayout.untagged(["wrap", "keyed", "other"])
}

/// Lists a name that is not a case: every use that reads one is an `.invalidModel` error.
enum UBBroken: JSONCodable, Codable, Equatable {
  case p(Int)
  static let caseLayout = JSON.CaseLayout.untagged(["p", "nope"])
}

/// `a` looks `broken` up before it requires `x`: a payload holding `broken` is read as `a`,
/// whose error no later case may hide, even without `x`.
enum UBLooksUp: JSONCodable, Codable, Equatable {
  case a(broken: UBBroken?, x: Int)
  case b(y: Int)
  static let caseLayout = JSON.CaseLayout.untagged(["a", "b"])
}

/// `UBLooksUp` in the looked-up field of another untagged enum.
enum UBLooksUpOuter: JSONCodable, Codable, Equatable {
  case a(inner: UBLooksUp?, x: Int)
  case b(y: Int)
  static let caseLayout = JSON.CaseLayout.untagged(["a", "b"])
}

/// A hand-written `encode(to:)` that writes neither the case nor its shape: a case read as an
/// object whose `init(from:)` requires a label is taken as it is, on every path.
enum UBHandWritten: JSONCodable, Codable, Equatable {
  case a(x: Int)
  case b(x: Int)
  case c(z: Int)
  static let caseLayout = JSON.CaseLayout.untagged(["a", "b", "c"])

  func encode(to encoder: any Encoder) throws {
    switch self {
    case .a(let x), .b(let x):  // every `x` as `b`
      enum Keys: String, CodingKey { case b, x }
      var container = encoder.container(keyedBy: Keys.self)
      var payload = container.nestedContainer(keyedBy: Keys.self, forKey: .b)
      try payload.encode(x, forKey: .x)
    case .c(let z):  // not the external-tag form at all
      var container = encoder.singleValueContainer()
      try container.encode(["z": z])
    }
  }
}

/// Cases told apart by the keys they need, each holding a spy: which decoder read it.
enum UBNeedsSpied: JSONCodable, Codable, Equatable {
  case plain(y: Int)
  case identified(id: Int, spy: UBSpy)
  case noted(note: String?, z: Int, spy: UBSpy)
  static let caseLayout = JSON.CaseLayout.untagged(["plain", "identified", "noted"])
}

/// A hand-written `init(from:)` that catches the missing key and looks for another:
/// `{"legacy": …}` is `named` on every path, not `raw`.
enum UBCatching: JSONCodable, Codable, Equatable {
  case named(name: String)
  case raw([String: String])
  static let caseLayout = JSON.CaseLayout.untagged(["named", "raw"])

  enum CodingKeys: String, CodingKey { case named, raw }
  enum NamedKeys: String, CodingKey { case name, legacy }
  enum RawKeys: String, CodingKey { case _0 }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    guard container.allKeys.count == 1, let key = container.allKeys.first else {
      throw DecodingError.typeMismatch(
        Self.self, .init(codingPath: [], debugDescription: "one case key"))
    }
    switch key {
    case .named:
      let payload = try container.nestedContainer(keyedBy: NamedKeys.self, forKey: .named)
      do {
        self = .named(name: try payload.decode(String.self, forKey: .name))
      } catch DecodingError.keyNotFound(let missing, let context) {
        guard let legacy = try payload.decodeIfPresent(String.self, forKey: .legacy) else {
          throw DecodingError.keyNotFound(missing, context)
        }
        self = .named(name: legacy)
      }
    case .raw:
      let payload = try container.nestedContainer(keyedBy: RawKeys.self, forKey: .raw)
      self = .raw(try payload.decode([String: String].self, forKey: ._0))
    }
  }
}

/// A model holding an untagged value in a string of JSON, inside an untagged case.
struct UBEmbedded: JSONCodable, Codable, Equatable {
  var inner: UBSpied?
  static func specificOptions() -> [String: SpecificOption] { ["inner": .embeddedJSON] }
}

enum UBEmbedding: JSONCodable, Codable, Equatable {
  case number(Int)
  case holder(spy: UBSpy, embedded: UBEmbedded)
  static let caseLayout = JSON.CaseLayout.untagged(["number", "holder"])
}

/// Optional labels: the shape written depends on the value (`nil` is left out).
enum UBOptional: JSONCodable, Codable, Equatable {
  case one(Int?)
  case labeled(a: Int?, b: String?)
  case many(Int, Int?, Int?)
  case word(String)
  static let caseLayout = JSON.CaseLayout.untagged(["one", "labeled", "many", "word"])
}

/// A mapped model as a payload: its own byte plan reads it.
struct UBPoint: JSONCodable, Codable, Equatable {
  var x: Int
  var y: Int
}

enum UBShape: JSONCodable, Codable, Equatable {
  case point(UBPoint)
  case circle(center: UBPoint, radius: Double)
  case polygon([UBPoint])
  case label(String)
  static let caseLayout = JSON.CaseLayout.untagged(["point", "circle", "polygon", "label"])
}

/// Every entry point decodes `text` to the same value or the same error: string, bytes and
/// `JSON`, first use and later (``agreedDecoding``); then as the element of an array and of a
/// stream, against the array read through `JSON`.
@discardableResult
private func agreeEverywhere<T: JSONCodable & Equatable>(
  _: T.Type, _ text: String, sourceLocation: SourceLocation = #_sourceLocation
) -> Result<T, JSON.Error>? {
  let single = agreedDecoding(T.self, text)
  let array = "[\(text), \(text)]"
  let viaJSON = Result { try [T](decode: JSON(jsonString: array)) }.mapError {
    $0 as? JSON.Error ?? JSON.Error.custom("\($0)")
  }
  let viaBytes = Result { try [T](jsonData: Data(array.utf8)) }.mapError {
    $0 as? JSON.Error ?? JSON.Error.custom("\($0)")
  }
  switch (viaJSON, viaBytes) {
  case (.success(let a), .success(let b)):
    if a != b {
      Issue.record(
        "[T] from JSON and from bytes disagree: \(partingExcerpt("\(a)", "\(b)"))",
        sourceLocation: sourceLocation)
    }
    if case .success(let value)? = single, a != [value, value] {
      Issue.record(
        "[T] and T disagree: \(partingExcerpt("\(a)", "\([value, value])"))",
        sourceLocation: sourceLocation)
    }
  case (.failure(let a), .failure(let b)):
    #expect(a.description == b.description, "\(text)", sourceLocation: sourceLocation)
  default:
    Issue.record("\(text): \(viaJSON) vs \(viaBytes)", sourceLocation: sourceLocation)
  }
  // A stream's elements: each as the array decodes it.
  if let text = try? JSON(jsonString: text), let line = try? text.jsonString() {
    let lines = "\(line)\n\(line)\n"
    let streamed = Array(SyncJSONStream(of: T.self, data: Data(lines.utf8), format: .lines))
    // A stream ends at its first failure.
    let expected = (try? single?.get()) == nil ? 1 : 2
    #expect(streamed.count == expected, "\(line)", sourceLocation: sourceLocation)
    for element in streamed {
      switch (element, single) {
      case (.success(let a), .success(let b)?):
        #expect(a == b, "\(line)", sourceLocation: sourceLocation)
      case (.failure(let a), .failure(let b)?):
        #expect(a.kind == b.kind, "\(line)", sourceLocation: sourceLocation)
        #expect(a.message == b.message, "\(line)", sourceLocation: sourceLocation)
      default:
        Issue.record("\(line): stream \(element) vs \(String(describing: single))")
      }
    }
  }
  return single
}

/// A payload that reads a nested untagged value with `try?`: when the nested value leaves its
/// document to the reference, the error is swallowed and the outer trial on bytes succeeds
/// with a value the reference would not give.
struct UBSwallows: Codable, Equatable {
  var note: String
  var inner: UBSpied?

  init(note: String, inner: UBSpied?) { (self.note, self.inner) = (note, inner) }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    note = try container.decode(String.self, forKey: .note)
    inner = try? container.decode(UBSpied.self, forKey: .inner)
  }
}

enum UBSwallowing: JSONCodable, Codable, Equatable {
  case holder(UBSwallows)
  case number(Int)
  static let caseLayout = JSON.CaseLayout.untagged(["holder", "number"])
}

@Suite("Untagged enums on the byte path agree with the JSON path")
struct UntaggedBytePathTests {
  /// Documents that map, that fail, and that only the reference can decide (repeated and
  /// escaped keys, non-ASCII keys, numbers written as fractions).
  static let settings = [
    "true", "-3", "3.0", "1e2", "1.5", "[1, 5]", "[1, 5, 6]", "[1]", "[]", "[1, \"x\"]",
    #"{"name": "x", "value": 1}"#, #"{"name": "x", "value": 1, "extra": [1, {"a": 2}]}"#,
    #"{"name": "x", "name": "y", "value": 1}"#, #"{"name": 1, "name": "y", "value": 1}"#,
    #"{"n\u0061me": "x", "value": 1}"#, #"{"value": 2, "name": "z"}"#, #"{"name": "x"}"#,
    #"{"näme": "x", "name": "y", "value": 1}"#, #"{"value": "1", "name": "x"}"#,
    #""off""#, #""o\u0066f""#, #""text""#, "null", "{}", #"{"_0": 1}"#, #"{"_0": 1, "_1": 2}"#,
    "[1, 2", #"{"name": "x", "value": 1"#, "[true, false]", "  [ 1 ,\n 2 ]  ",
  ]

  @Test("every payload shape, value and error, on every entry point")
  func settingsAgree() {
    for text in Self.settings { agreeEverywhere(Setting.self, text) }
    #expect(
      agreedDecoding(Setting.self, #"{"name": "x", "name": "y", "value": 1}"#)
        == .success(.named(name: "y", value: 1)))
    #expect(agreedDecoding(Setting.self, "3.0") == .success(.number(3)))
  }

  @Test("a nested value left to the reference and swallowed: the outer value is read again")
  func swallowedNestedValue() throws {
    // The escaped key makes the nested value's trial unsure; the value found on bytes (with no
    // inner value) is dropped, and the reference reads the whole value.
    let note = "a note long enough to be stored on the heap, not inline"
    let text = #"{"note": "\#(note)", "inner": {"\u0078": 4}}"#
    let expected = UBSwallowing.holder(UBSwallows(note: note, inner: .spy(UBSpy(x: 4))))
    #expect(try UBSwallowing(decode: JSON(jsonString: text)) == expected)
    for _ in 0..<3 {
      #expect(try UBSwallowing(jsonString: text) == expected)
      #expect(
        try [UBSwallowing](jsonString: "[\(text), 7, \(text)]") == [expected, .number(7), expected])
    }
    agreeEverywhere(UBSwallowing.self, text)
  }

  @Test("recursive and generic trees, values and errors, on every entry point")
  func treesAgree() {
    let texts = [
      "1", "[1, 2]", "[1, [2, 3]]", "[[1]]", "[[], [[]]]", "[1, [2, [3, [4, 5]]]]",
      #"{"left": 1, "right": [2, 3]}"#, #"{"left": 1}"#, #"{"left": 1, "left": 2, "right": 3}"#,
      #"[{"left": "x", "right": 1}, 2]"#, #""x""#, "[1, \"x\", [null]]", "[[1, 2], [3, 4], 5]",
    ]
    for text in texts {
      agreeEverywhere(UntaggedTree<Int>.self, text)
      agreeEverywhere(UntaggedTree<String>.self, text)
    }
    for text in ["1", "[1, 2]", "[[1, 2], 3]", #""x""#, "[]", "[[]]", "[1, [2, 3], 4]"] {
      agreeEverywhere(UBWrap.self, text)
    }
  }

  @Test("optional payloads: the shape follows the value")
  func optionalsAgree() {
    let texts = [
      "1", "null", "[1, 2, 3]", "[1, null, 3]", "[1, 2]", #"{"a": 1}"#, #"{"b": "x"}"#,
      #"{"a": null, "b": null}"#, "{}", #""w""#, #"{"a": 1, "b": "x"}"#,
    ]
    for text in texts { agreeEverywhere(UBOptional.self, text) }
    for value: UBOptional in [
      .one(1), .one(nil), .labeled(a: nil, b: nil), .labeled(a: 1, b: nil), .many(1, nil, 3),
      .many(1, 2, 3), .word("w"),
    ] {
      agreeWriting(value)
    }
  }

  @Test("mapped models as payloads")
  func modelsAgree() {
    let texts = [
      #"{"x": 1, "y": 2}"#, #"{"center": {"x": 1, "y": 2}, "radius": 3}"#,
      #"[{"x": 1, "y": 2}, {"x": 3, "y": 4}]"#, #"{"x": 1, "x": 5, "y": 2}"#,
      #"{"center": {"x": 1, "y": 2, "y": 3}, "radius": 3}"#, #"{"center": {"x": 1}, "radius": 3}"#,
      #""name""#, #"{"x": "1", "y": 2}"#, "[]",
    ]
    for text in texts { agreeEverywhere(UBShape.self, text) }
    for value: UBShape in [
      .point(UBPoint(x: 1, y: 2)), .circle(center: UBPoint(x: 0, y: 0), radius: 1.5),
      .polygon([]), .polygon([UBPoint(x: 1, y: 1)]), .label("l"),
    ] {
      agreeWriting(value)
    }
    for value: Setting in [
      .flag(true), .number(1), .range(1, 2), .named(name: "n", value: 3), .off,
    ] {
      agreeWriting(value)
    }
    agreeWriting(UntaggedTree<Int>.node([.leaf(1), .pair(.leaf(2), .node([]))]))
  }

  @Test("cases skipped on bytes for a missing first key: the same values and errors")
  func skippedCases() {
    let texts = [
      #"{"x": 1}"#, #"{"y": 1}"#, #"{"z": 1}"#, #"{"x": null, "z": 2}"#, #"{"x": "1", "z": 2}"#,
      #"{"\u0078": 1}"#, #"{"y": 1, "\u0078": 2}"#, #"{"K": 1}"#, #"{"\u212A": 1}"#,
      "{\"\u{212A}\": 1}", #"{"X": 1}"#, #"{"x": 1, "x": "a"}"#, #"{"x": "a", "x": 1}"#,
      "[1, 2]", "[1, 2, 3]", "[1]", "7", #""plain""#, #""a""#, "{}", "[]", "null",
      #"{"z": 1, "x": 1}"#, #"[{"x": 1}, {"y": 2}]"#, " {\n \"x\" : 1 ,\t\"z\" :2 } ",
      #"{"z": 1, "y": [1, {"x": 2}]}"#,
    ]
    for text in texts { agreeEverywhere(UBKeyed.self, text) }
    // Nested, beside keys the reference could read as one (a repeat, a case or `_` variant,
    // an escape, a combining accent) in the outer object and in a sibling value.
    let siblings = [
      "", #", "w": 2"#, #", "junk": {"a": 1, "A": 2}"#, #", "W": 3"#, #", "\u0077": 4"#,
      ", \"e\u{301}\": 5, \"\u{E9}\": 6", #", "o_": 7, "O": 8"#,
    ]
    for text in texts {
      agreeEverywhere(UBKeyedOuter.self, text)
      for sibling in siblings {
        agreeEverywhere(UBKeyedOuter.self, #"{"inner": \#(text), "w": 1\#(sibling)}"#)
        agreeEverywhere(UBKeyedOuter.self, #"{"o": 1, "inner": \#(text)\#(sibling)}"#)
      }
    }
    #expect(
      agreedDecoding(UBKeyedOuter.self, #"{"inner": {"K": 1}, "w": 1, "junk": {"a": 1, "A": 2}}"#)
        == .success(.wrap(inner: .k(K: 1), w: 1)))
    #expect(
      agreedDecoding(UBKeyedOuter.self, #"{"o": 1, "inner": {"y": 2}}"#) == .success(.other(o: 1)))
    #expect(agreedDecoding(UBKeyed.self, #"{"x": null, "z": 2}"#) == .success(.c(x: nil, z: 2)))
    #expect(agreedDecoding(UBKeyed.self, "[1, 2]") == .success(.pair(1, 2)))
  }

  @Test("random documents of the keys cases need, and spellings of them: every path agrees")
  func randomKeys() {
    // Keys the cases of `UBKeyed` and `UBKeyedOuter` need, spellings the reference could read
    // as one of them (escaped, case or accent variants, the Kelvin sign), and others.
    let keys = [
      "x", "y", "z", "K", "w", "o", "inner", "_0", "X", "Y", #"\u0078"#, #"\u212A"#, "\u{212A}",
      "\u{E9}", "e\u{301}", "junk",
    ]
    var random = DiffRandom(seed: 19)
    func value(_ depth: Int) -> String {
      switch random.below(depth > 2 ? 4 : 7) {
      case 0: return "\(random.below(5))"
      case 1: return #""s""#
      case 2: return "null"
      case 3: return random.chance(50) ? "true" : "1.5"
      case 4, 5:
        let members = (0..<random.below(4)).map { _ in
          "\"\(random.pick(keys))\": \(value(depth + 1))"
        }
        return "{" + members.joined(separator: ", ") + "}"
      default:
        return "[" + (0..<random.below(4)).map { _ in value(depth + 1) }.joined(separator: ", ")
          + "]"
      }
    }
    for _ in 0..<250 {
      let text = value(0)
      agreeEverywhere(UBKeyed.self, text)
      agreeEverywhere(UBKeyedOuter.self, text)
      // `UBKeyed` nested where a later case of the outer enum can still map (`other`): a case
      // skipped wrongly inside shows as another value, not as a failure left to the reference.
      let (inner, label, key, other) = (
        value(1), random.pick(["w", "o"]), random.pick(keys), value(2)
      )
      let outer = #"{"inner": \#(inner), "\#(label)": 1, "\#(key)": \#(other)}"#
      agreeEverywhere(UBKeyedOuter.self, outer)
    }
  }

  @Test("a case looked up before its first required key is tried: its errors are not hidden")
  func lookedUpKeys() {
    let texts = [
      #"{"broken": 1, "y": 2}"#, #"{"y": 2}"#, #"{"broken": null, "x": 1}"#, #"{"x": 1}"#,
      #"{"broken": 1}"#, #"[{"y": 1}, {"broken": 1, "y": 2}]"#,
    ]
    for text in texts { agreeEverywhere(UBLooksUp.self, text) }
    #expect(agreedDecoding(UBLooksUp.self, #"{"y": 2}"#) == .success(.b(y: 2)))
    let error = #expect(throws: JSON.Error.self) {
      try [UBLooksUp](jsonString: #"[{"y": 1}, {"broken": 1, "y": 2}]"#)
    }
    #expect(error?.kind == .invalidModel)
    #expect(error?.path == "[1].broken")
    let outer = [
      #"{"inner": {"broken": 1, "y": 2}, "y": 3}"#, #"{"inner": {"y": 2}, "y": 3}"#,
      #"{"inner": {"broken": 1, "x": 2}, "x": 3}"#, #"{"inner": null, "y": 3}"#,
    ]
    for text in outer { agreeEverywhere(UBLooksUpOuter.self, text) }
    #expect(
      agreedDecoding(UBLooksUpOuter.self, #"{"inner": {"y": 2}, "y": 3}"#) == .success(.b(y: 3)))
  }

  @Test("a case that catches its missing key and reads another is tried on bytes too")
  func caughtMissingKey() {
    for text in [
      #"{"legacy": "n"}"#, #"{"name": "n"}"#, #"{"other": "n"}"#, #"{"legacy": 1}"#,
      #"[{"legacy": "n"}, {"x": "y"}]"#,
    ] {
      agreeEverywhere(UBCatching.self, text)
    }
    #expect(agreedDecoding(UBCatching.self, #"{"legacy": "n"}"#) == .success(.named(name: "n")))
    #expect(agreedDecoding(UBCatching.self, #"{"other": "n"}"#) == .success(.raw(["other": "n"])))
  }

  @Test(
    "a hand-written encode(to:) is not asked for a case read as an object that requires a label")
  func handWrittenEncode() {
    for text in [#"{"x": 1}"#, #"{"z": 1}"#, #"{"x": 1, "z": 2}"#, "1", #"{"y": 1}"#] {
      agreeEverywhere(UBHandWritten.self, text)
    }
    #expect(agreedDecoding(UBHandWritten.self, #"{"x": 1}"#) == .success(.a(x: 1)))
    #expect(agreedDecoding(UBHandWritten.self, #"{"z": 1}"#) == .success(.c(z: 1)))
  }

  @Test("hostile documents never crash nor go exponential, on both paths")
  func hostile() throws {
    // `both(UBWrap, UBWrap)` nested deep, each level also readable as `wrap`.
    var text = "1"
    for level in 0..<200 { text = "[\(text), \(level)]" }
    let value = agreeEverywhere(UBWrap.self, text)
    #expect((try? value?.get()) != nil)
    // Past the depth bound: the depth error on both paths, not a crash.
    let deep = String(repeating: "[", count: 2_000) + "1" + String(repeating: "]", count: 2_000)
    let fromBytes = #expect(throws: JSON.Error.self) { try UntaggedTree<Int>(jsonString: deep) }
    #expect(fromBytes?.kind == .tooDeep(limit: JSON.maximumDepth))
    // A huge array of untagged values, most trying every case first.
    let many =
      "["
      + Array(repeating: #"{"name": "n", "value": 1}, "t", [1, 2]"#, count: 1_500)
      .joined(separator: ",") + "]"
    let settings = try [Setting](jsonString: many)
    #expect(settings.count == 4_500)
    #expect(try [Setting](decode: JSON(jsonString: many)) == settings)
    // Every case fails at every element: the error of the first.
    let failing = "[" + Array(repeating: #"{"z": 1}"#, count: 5_000).joined(separator: ",") + "]"
    let error = #expect(throws: JSON.Error.self) { try [Setting](jsonString: failing) }
    #expect(error?.path == "[0]")
    #expect(error?.message.hasPrefix("no case of Setting matches") == true)
    // Ambiguity at every level, on bytes: remembered trials keep it linear.
    var ambiguous = #"{"x": {"w": 1}}"#
    for _ in 0..<160 { ambiguous = #"{"x": \#(ambiguous)}"# }
    let start = ContinuousClock.now
    #expect(throws: JSON.Error.self) { try Ambiguous(jsonString: ambiguous) }
    #expect(ContinuousClock.now - start < .seconds(20))
  }
}

extension ProcessWideState {
  /// Which decoder reads an untagged enum, and types whose reflection is forgotten in the middle
  /// of a trial: here, since forgetting is process-wide and no other test may see it.
  @Suite("Untagged enums on the byte path: the path taken, and first uses midway", .serialized)
  struct UntaggedPathTests {
    @Test("bytes are read by the byte Decoder after the first use; JSON values by the reference")
    func pathTaken() throws {
      ProcessWideState.expectInside()
      let text = #"{"x": 4}"#
      var readers: Set<String> = []
      for _ in 0..<5 {
        guard case .spy(let spy) = try UBSpied(jsonString: text) else {
          Issue.record("not a spy")
          return
        }
        readers.insert(spy.decodedBy)
      }
      #expect(readers.contains("ByteDecoder"), "\(readers)")
      guard case .spy(let reference) = try UBSpied(decode: JSON(jsonString: text)) else {
        Issue.record("not a spy")
        return
      }
      #expect(reference.decodedBy == "JSONValueDecoder")
      #expect(try UBSpied(jsonString: "4") == .number(4))
      // Cases skipped for the keys they need: the case that has them is still read from bytes.
      for text in [
        #"{"id": 1, "spy": {"x": 4}}"#, #"{"spy": {"x": 4, "y": [1]}, "id": 1}"#,
        #"{"z": 2, "spy": {"x": 4}}"#, #"{"note": "n", "spy": {"x": 4}, "z": 2}"#,
      ] {
        var readers: Set<String> = []
        for _ in 0..<5 {
          switch try UBNeedsSpied(jsonString: text) {
          case .identified(_, let spy), .noted(_, _, let spy): readers.insert(spy.decodedBy)
          case .plain: Issue.record("plain from \(text)")
          }
        }
        #expect(readers.contains("ByteDecoder"), "\(text): \(readers)")
      }
      // An untagged value in a string of JSON is another document: the case holding it is read
      // from bytes, and the same as through `JSON`.
      let embedding = #"{"spy": {"x": 4}, "embedded": {"inner": "{\"x\": 5}"}}"#
      agreeEverywhere(UBEmbedding.self, embedding)
      var embeddingReaders: Set<String> = []
      for _ in 0..<5 {
        if case .holder(let spy, _) = try UBEmbedding(jsonString: embedding) {
          embeddingReaders.insert(spy.decodedBy)
        }
      }
      #expect(embeddingReaders.contains("ByteDecoder"), "\(embeddingReaders)")
    }

    @Test("a value read from bytes whose nested values turn to the JSON path: the same value")
    func pathChangesMidway() throws {
      // `wrap` holds the enum at the same value: it must fail there, whichever path reads the
      // nested value (without one memory of the trials under way, `wrap(both(…))` came out).
      let expected = UBForgetful.both(.both(.leaf(1), .leaf(0)), .leaf(1))
      let text = "[[1, 0], 1]"
      for _ in 0..<3 {
        #expect(try UBForgetful(jsonString: text) == expected)  // now on the byte path
        UBForgetter.armed.withLock { $0 = true }
        #expect(try UBForgetful(jsonString: text) == expected)
        UBForgetter.armed.withLock { $0 = true }
        #expect(try [UBForgetful](jsonData: Data("[\(text)]".utf8)) == [expected])
        UBForgetter.armed.withLock { $0 = true }
        #expect(try UBForgetful(decode: JSON(jsonString: text)) == expected)
      }
    }

    @Test("a type's first use in the middle of a trial on bytes: the same value")
    func firstUseMidway() throws {
      // Read through `JSON`, `UBHop` did not see that `UBHopper` was under way at the same
      // value on bytes: `wrap(back(both(…)))` came out instead of `both(…)`.
      let expected = UBHopper.both(.both(.leaf(1), .leaf(0)), .leaf(1))
      for _ in 0..<3 {
        ProcessWideState.forgetReflection()
        #expect(try UBHopper(jsonString: "1") == .leaf(1))  // the first use, through `JSON`
        #expect(try UBHopper(jsonString: "[[1, 0], 1]") == expected)  // `UBHop`'s first use
      }
      #expect(try UBHopper(decode: JSON(jsonString: "[[1, 0], 1]")) == expected)
    }
  }
}
