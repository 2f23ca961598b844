import AutoMap
import Foundation
import Testing

// An adversarial review of collecting every problem and recording substitutions: the same
// value or first problem as without the options on every entry point, memory released once,
// paths and counts, substitutions recorded once and only for values that stayed.

// MARK: Models

/// A value whose instances are counted, to see that a failed decode releases each once.
final class RATracked: JSONDecodable {
  static let live = Shared(0)
  let value: Int
  init(decode json: JSON) throws {
    value = try Int(decode: json)
    Self.live.withLock { $0 += 1 }
  }
  deinit { Self.live.withLock { $0 -= 1 } }
}

/// Memberwise, with `let`s, tracked values between failing fields.
struct RAMemberwise: JSONDecodable {
  let a: RATracked
  var b: Int
  let c: RATracked
  var d: [RATracked]
  var e: Int
  var f: RATracked?
}

/// Complete from `init()`, tracked values between failing fields.
struct RADefaulted: JSONDecodable, DefaultInitable {
  var a: RATracked?
  var b = 0
  var c: [RATracked] = []
  var d = 0
  init() {}
}

/// A class whose instances are counted too.
final class RAObject: JSONDecodable, DefaultInitable {
  static let live = Shared(0)
  var a: RATracked?
  var b = 0
  var c: [RATracked] = []
  var d = 0
  required init() { Self.live.withLock { $0 += 1 } }
  deinit { Self.live.withLock { $0 -= 1 } }
}

struct RAHolder: JSONDecodable {
  var items: [RAMemberwise]
  var defaulted: [String: RADefaulted]
  var objects: [RAObject?]
  var last: RATracked
}

enum RAStatus: String, JSONCodable, Codable, JSONFallbackCase {
  case on, off, unknown
  static let fallbackCase = RAStatus.unknown
}

/// The first case of an untagged enum: reads `status` (a fallback) before `must` fails.
struct RAFirst: JSONCodable, Codable, Equatable {
  var status: RAStatus
  var must: Int
}

struct RASecond: JSONCodable, Codable, Equatable {
  var other: Int
}

enum RAChoice: JSONCodable, Codable, Equatable {
  case first(RAFirst)
  case second(RASecond)
  static let caseLayout = JSON.CaseLayout.untagged(["first", "second"])
}

/// Each level could be two cases that both read `x` before one fails: the trials remember
/// `x`'s value, and its substitutions must come with it.
indirect enum RATree: JSONCodable, Codable, Equatable {
  case a(x: RATree, y: Int)
  case b(x: RATree, z: Int)
  case end(RAFirst)
  static let caseLayout = JSON.CaseLayout.untagged(["a", "b", "end"])
}

/// Recursive, for depth.
final class RANode: JSONDecodable, DefaultInitable {
  var v = 0
  var next: RANode?
  required init() {}
}

/// A `Codable` payload that AutoMap maps (JSONCodable wins).
struct RAPoint: JSONCodable, Codable, Equatable {
  var x: Int
  var y: Int
}

enum RAExternal: JSONCodable, Codable, Equatable {
  case at(p: RAPoint)
}

enum RAInternal: JSONCodable, Codable, Equatable {
  case at(p: RAPoint)
  static let caseLayout = JSON.CaseLayout.internalTag("type")
}

enum RAAdjacent: JSONCodable, Codable, Equatable {
  case at(p: RAPoint)
  static let caseLayout = JSON.CaseLayout.adjacentTag("type", content: "value")
}

/// Payloads that hold a model whose fallback stands in, in each layout.
enum RAStatusExternal: JSONCodable, Codable {
  case at(s: RAFirst)
}

enum RAStatusInternal: JSONCodable, Codable {
  case at(s: RAFirst)
  static let caseLayout = JSON.CaseLayout.internalTag("type")
}

enum RAStatusAdjacent: JSONCodable, Codable {
  case at(s: RAFirst)
  static let caseLayout = JSON.CaseLayout.adjacentTag("type", content: "value")
}

/// Untagged, with a payload of two values written as an array.
enum RAStatusList: JSONCodable, Codable {
  case pair(Int, RAFirst)
  static let caseLayout = JSON.CaseLayout.untagged(["pair"])
}

protocol RAFigure: JSONCodable {}
struct RADisc: RAFigure, Equatable {
  var radius: Int
  var tag: String
  static func specificOptions() -> [String: SpecificOption] { ["tag": .defaultValue("?")] }
}
final class RABox: RAFigure, DefaultInitable {
  var side = 0
  var label = ""
  required init() {}
}

let raFiguresRegistered: Bool = {
  (try? JSON.registerPolymorphic(
    (any RAFigure).self, discriminator: "kind", types: ["disc": RADisc.self, "box": RABox.self]))
    != nil
}()

struct RAFigures: JSONCodable {
  var main: any RAFigure
  var more: [any RAFigure]
  var named: [String: any RAFigure]?
}

/// A transform that throws, and property wrappers.
struct RAWrapped: JSONCodable, DefaultInitable, Equatable {
  @Clamped var volume = 50
  var when = Date(timeIntervalSince1970: 0)
  var count = 0
  static func specificOptions() -> [String: SpecificOption] {
    ["when": .transform(DateTransform.secondsSince1970)]
  }
}

// MARK: Helpers

enum RA {
  static let all = JSON.Configuration(collectsAllErrors: true)

  /// The error `body` throws, or `nil` (recorded as an issue when `expected`).
  static func error(expected: Bool = true, _ body: () throws -> Any) -> JSON.Error? {
    do {
      _ = try body()
      if expected { Issue.record("expected an error") }
    } catch let error as JSON.Error {
      return error
    } catch {
      Issue.record("not a JSON.Error: \(error)")
    }
    return nil
  }

  /// Checks that collecting changes nothing but the problem list: the same value (compared
  /// by `same`) or the same first problem as the call without the option.
  static func agree<T>(
    _ what: String, _ body: () throws -> T, same: (T, T) -> Bool,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let plain = Result { try body() }
    let collected = Result { try JSON.withConfiguration(all) { try body() } }
    switch (plain, collected) {
    case (.success(let a), .success(let b)):
      #expect(same(a, b), "\(what): values differ", sourceLocation: sourceLocation)
    case (.failure(let a as JSON.Error), .failure(let b as JSON.Error)):
      #expect(
        a.kind == b.kind && a.path == b.path && a.message == b.message,
        "\(what): \(a) vs \(b)", sourceLocation: sourceLocation)
      #expect(b.problems[0] == a, "\(what)", sourceLocation: sourceLocation)
      #expect(b.problemCount >= 1 && b.problems.count <= JSON.Error.problemLimit)
    default:
      Issue.record("\(what): \(plain) vs \(collected)", sourceLocation: sourceLocation)
    }
  }

  /// Whether two values encode to the same `JSON`; never when either cannot be encoded.
  static func sameJSON<T: JSONEncodable>(_ a: T, _ b: T) -> Bool {
    guard let left = try? a.json, let right = try? b.json else { return false }
    return left == right
  }

  static func tracked(_ body: () -> Void, sourceLocation: SourceLocation = #_sourceLocation) {
    let before = (RATracked.live.current, RAObject.live.current)
    body()
    let after = (RATracked.live.current, RAObject.live.current)
    #expect(before == after, "leaked or released twice", sourceLocation: sourceLocation)
  }
}

// MARK: Memory

/// Serialized: the instance counters are shared.
@Suite("ReportAttack: memory of partial decodes", .serialized)
struct ReportAttackMemoryTests {
  static let documents = [
    #"{"a": 1, "b": "x", "c": 2, "d": [3, "y", 4], "e": null, "f": 5}"#,
    #"{"a": "x", "b": 1, "c": 2, "d": [3], "e": 1}"#,
    #"{"a": 1, "b": 1, "c": 2, "d": [3], "e": "z", "f": "w"}"#,
    #"{"b": 1, "c": "2", "d": 7, "e": 1, "f": 9}"#,
    #"{"a": 1, "b": 2, "c": 3, "d": [4, 5], "e": 6, "f": 7}"#,
    #"[1, 2]"#,
  ]

  @Test("a memberwise struct with lets releases what it decoded, once, on every path")
  func memberwise() {
    for text in Self.documents {
      RA.tracked {
        for configuration in [JSON.Configuration(), RA.all] {
          _ = try? RAMemberwise(jsonString: text, configuration: configuration)
          _ = try? RAMemberwise(decode: JSON(jsonString: text), configuration: configuration)
          _ = try? [RAMemberwise](jsonString: "[\(text), \(text)]", configuration: configuration)
          _ = try? [String: RAMemberwise](
            jsonString: #"{"k": \#(text), "l": \#(text)}"#, configuration: configuration)
        }
      }
    }
  }

  @Test("DefaultInitable structs and classes release what they decoded, once")
  func complete() {
    let texts = [
      #"{"a": 1, "b": "x", "c": [1, "y", 2], "d": "z"}"#,
      #"{"a": "q", "b": 1, "c": [1, 2], "d": 2}"#,
      #"{"a": 1, "b": 1, "c": [1, 2], "d": 2}"#,
    ]
    for text in texts {
      RA.tracked {
        for configuration in [JSON.Configuration(), RA.all] {
          _ = try? RADefaulted(jsonString: text, configuration: configuration)
          _ = try? RAObject(jsonString: text, configuration: configuration)
          _ = try? [RAObject](jsonString: "[\(text), 4, \(text)]", configuration: configuration)
          _ = try? [RAObject?](jsonString: "[\(text), null, \(text)]", configuration: configuration)
        }
      }
    }
  }

  @Test("nested failing models inside arrays and dictionaries release everything once")
  func nested() throws {
    let good = #"{"a": 1, "b": 2, "c": 3, "d": [4, 5], "e": 6, "f": 7}"#
    let bad = #"{"a": 1, "b": "2", "c": 3, "d": [4, "5"], "e": 6, "f": 7}"#
    let complete = #"{"a": 1, "b": "x", "c": [1, "y", 2], "d": "z"}"#
    let text = """
      {"items": [\(good), \(bad), \(good), \(bad)], "defaulted": {"p": \(complete), "q": {}},
       "objects": [\(complete), null, 3, {"a": 2}], "last": "no"}
      """
    RA.tracked {
      let error = RA.error { try RAHolder(jsonString: text, configuration: RA.all) }
      #expect(
        error?.problems.map(\.path) == [
          "items[1].b", "items[1].d[1]", "items[3].b", "items[3].d[1]", "defaulted.p.b",
          "defaulted.p.c[1]", "defaulted.p.d", "objects[0].b", "objects[0].c[1]", "objects[0].d",
          "objects[2]", "last",
        ])
      let plain = RA.error { try RAHolder(jsonString: text) }
      #expect(plain?.path == "items[1].b")
      var fixed = text.replacingOccurrences(of: bad, with: good)
      fixed = fixed.replacingOccurrences(of: complete, with: #"{"a": 1}"#)
      fixed = fixed.replacingOccurrences(of: #"null, 3,"#, with: "null,")
      fixed = fixed.replacingOccurrences(of: #""no""#, with: "8")
      let value = try? RAHolder(jsonString: fixed, configuration: RA.all)
      #expect(value?.items.count == 4 && value?.objects.count == 3 && value?.last.value == 8)
    }
  }
}

// MARK: Agreement

@Suite("ReportAttack: collecting never changes a value or the first problem")
struct ReportAttackAgreementTests {
  @Test("memberwise, complete and class models, collections and optionals")
  func models() {
    let texts = [
      #"{"x": 1, "y": 2}"#, #"{"x": "1", "y": null}"#, #"{"y": true}"#, "[]", "null", "7",
      #"{"x": 1, "y": 2, "x": "3"}"#, #"{"x": 1e400, "y": "a"}"#,
    ]
    for text in texts {
      let json = try? JSON(jsonString: text)
      RA.agree(text, { try RPoint(jsonString: text) }, same: ==)
      RA.agree(text, { try RPoint(jsonData: Data(text.utf8)) }, same: ==)
      RA.agree(text, { try RPoint(decode: json ?? .null) }, same: ==)
      RA.agree(text, { try RPoint?(jsonString: text) }, same: ==)
      RA.agree(text, { try [RPoint](jsonString: "[\(text), \(text)]") }, same: ==)
      RA.agree(text, { try [String: RPoint](jsonString: #"{"a": \#(text)}"#) }, same: ==)
      RA.agree(text, { try Set<Int>(jsonString: "[1, \(text)]") }, same: ==)
      RA.agree(text, { try RChecked(jsonString: text) }, same: ==)
      RA.agree(
        text,
        {
          var point = RPoint(x: 0, y: 0)
          try point.update(from: json ?? .null)
          return point
        }, same: ==)
    }
  }

  @Test("untagged enums, Codable payloads and fallback cases")
  func enums() {
    let texts = [
      #"{"status": "on", "must": 1}"#, #"{"status": "maybe", "must": 1}"#, #"{"other": 2}"#,
      #"{"status": "on", "other": "x"}"#, #"{"status": 3, "must": "x"}"#, "[1]",
    ]
    for text in texts {
      RA.agree(text, { try RAChoice(jsonString: text) }, same: ==)
      RA.agree(text, { try [RAChoice](jsonString: "[\(text), \(text)]") }, same: ==)
      RA.agree(text, { try RAFirst(jsonString: text) }, same: ==)
    }
  }

  @Test("Codable enums pass on every problem of a mapped payload, in every layout")
  func codableEnumPayloads() throws {
    let bad = #"{"x": "a", "y": "b"}"#
    let cases: [(String, () throws -> Any)] = [
      ("external", { try RAExternal(jsonString: #"{"at": {"p": \#(bad)}}"#) }),
      ("internal", { try RAInternal(jsonString: #"{"type": "at", "p": \#(bad)}"#) }),
      ("adjacent", { try RAAdjacent(jsonString: #"{"type": "at", "value": {"p": \#(bad)}}"#) }),
    ]
    for (layout, decode) in cases {
      let plain = try #require(RA.error(decode))
      let error = try #require(RA.error { try JSON.withConfiguration(RA.all, decode) })
      #expect(error.problems[0] == plain, "\(layout)")
      #expect(error.problemCount == 2, "\(layout): \(error)")
      let yPath = plain.path.dropLast(1) + "y"
      #expect(error.problems.map(\.path) == [plain.path, String(yPath)], "\(layout)")
    }
  }

  @Test("polymorphic protocol types and classes, wrappers and throwing transforms")
  func polymorphicAndOptions() throws {
    #expect(raFiguresRegistered)
    let texts = [
      #"{"main": {"kind": "disc", "radius": 1}, "more": [{"kind": "box", "side": 2}]}"#,
      #"{"main": {"kind": "disc", "radius": "1"}, "more": [{"kind": "box", "side": "2", "label": 3}, {"kind": "ufo"}, {"kind": "disc"}]}"#,
      #"{"main": {"radius": 1}, "more": 4}"#,
    ]
    for text in texts {
      RA.agree(text, { try RAFigures(jsonString: text) }, same: RA.sameJSON)
      RA.agree(text, { try [RAFigures](jsonString: "[\(text), \(text)]") }, same: RA.sameJSON)
    }
    let error = try #require(
      RA.error { try RAFigures(jsonString: texts[1], configuration: RA.all) })
    #expect(
      error.problems.map(\.path) == [
        "main.radius", "more[0].side", "more[0].label", "more[1].kind", "more[2].radius",
      ])
    let named = try #require(
      RA.error {
        try RAFigures(
          jsonString: #"""
            {"main": {"kind": "box"}, "more": [], "named": {"a": {"kind": "disc"}, "b": {"kind": 1},
             "c": {"kind": "box"}, "d": {"kind": "box", "side": true}}}
            """#, configuration: RA.all)
      })
    #expect(named.problems.map(\.path) == ["named.a.radius", "named.b.kind", "named.d.side"])
    let wrapped = [
      #"{"volume": 500, "when": 86400, "count": 1}"#,
      #"{"volume": "x", "when": "soon", "count": "y"}"#,
      #"{"volume": 5, "when": "soon"}"#,
    ]
    for text in wrapped {
      RA.agree(text, { try RAWrapped(jsonString: text) }, same: ==)
    }
    let three = try #require(
      RA.error { try RAWrapped(jsonString: wrapped[1], configuration: RA.all) })
    #expect(three.problems.map(\.path) == ["volume", "when", "count"])
  }

  @Test("malformed text anywhere stops at once, collecting or not, in documents and streams")
  func malformed() throws {
    let text = #"[{"x": "a"}, {"x": 1, "y": 2}, {"x": }, {"y": "b"}]"#
    let error = try #require(RA.error { try [RPoint](jsonString: text, configuration: RA.all) })
    let plain = try #require(RA.error { try [RPoint](jsonString: text) })
    #expect(error == plain && error.problemCount == 1)
    if case .malformed = error.kind {} else { Issue.record("\(error)") }
    let skipped = Shared<[JSON.Error]>([])
    var options = JSON.StreamOptions()
    options.configuration = RA.all
    options.skipsBadElements = true
    options.onSkip = { error in skipped.withLock { $0.append(error) } }
    let lines = "{\"x\": \"a\"}\n{\"x\": }\n{\"x\": 3, \"y\": 4}\n"
    var iterator = SyncJSONStream(
      of: RPoint.self, data: Data(lines.utf8), format: .lines, options: options
    ).makeIterator()
    #expect(try iterator.nextElement() == RPoint(x: 3, y: 4))
    let errors = skipped.withLock { $0 }
    #expect(errors.map(\.problemCount) == [2, 1])
    #expect(errors.first?.problems.map(\.path) == ["[0].x", "[0].y"])
    #expect(errors.map(\.line) == [1, 2])
  }

  @Test("a model that collected problems stops its container like one too deep inside it")
  func finalProblemStopsTheContainers() throws {
    // Element 0 fails at `v`, then deeper than the bound inside `next`: collecting must stop
    // there, as the README says nesting too deep does, not go on to element 1.
    var deep: JSON = ["v": 1]
    for _ in 0..<(JSON.maximumDepth + 10) { deep = ["v": 1, "next": deep] }
    let document: JSON = [["v": "x", "next": deep], ["v": "y"]]
    let error = try #require(
      RA.error { try [RANode](decode: document, configuration: RA.all) })
    #expect(error.path == "[0].v")
    #expect(error.problems.contains { $0.kind == .tooDeep(limit: JSON.maximumDepth) })
    #expect(!error.problems.contains { $0.path == "[1].v" }, "\(error.problems.map(\.path))")
    let plain = try #require(RA.error { try [RANode](decode: document) })
    #expect(plain.path == "[0].v" && plain.problemCount == 1)
  }

  @Test("more problems than the limit: all counted, the first hundred listed in order")
  func beyondTheLimit() throws {
    let text = "[" + (0..<250).map { #"{"x": "\#($0)", "y": \#($0)}"# }.joined(separator: ",") + "]"
    let error = try #require(RA.error { try [RPoint](jsonString: text, configuration: RA.all) })
    #expect(error.problemCount == 250)
    #expect(error.problems.map(\.path) == (0..<100).map { "[\($0)].x" })
    let nested = "[" + Array(repeating: text, count: 3).joined(separator: ",") + "]"
    let deeper = try #require(
      RA.error { try [[RPoint]](jsonString: nested, configuration: RA.all) })
    #expect(deeper.problemCount == 750)
    #expect(deeper.problems.count == 100 && deeper.problems.last?.path == "[0][99].x")
    #expect(deeper.description.hasPrefix("750 problems, the first 100 listed:\nat [0][0].x"))
  }

  @Test("streams collect each element's problems, with the element's path and line")
  func streams() throws {
    var options = JSON.StreamOptions()
    options.configuration = RA.all
    let text = "{\"x\": 1, \"y\": 2}\n{\"x\": \"a\", \"y\": \"b\"}\n"
    var iterator = SyncJSONStream(
      of: RPoint.self, data: Data(text.utf8), format: .lines, options: options
    ).makeIterator()
    #expect(try iterator.nextElement() == RPoint(x: 1, y: 2))
    let error = try #require(RA.error { try iterator.nextElement() as Any })
    #expect(error.problems.map(\.path) == ["[1].x", "[1].y"])
    #expect(error.problems.map(\.line) == [2, 2])
  }
}

// MARK: Substitutions

@Suite("ReportAttack: substitutions")
struct ReportAttackSubstitutionTests {
  @Test("a nested recording scope does not hide its substitutions from the outer one")
  func nestedScopes() throws {
    let text = #"{"status": "maybe", "must": 1}"#
    let ((_, inner), outer) = try JSON.recordingSubstitutions {
      try JSON.recordingSubstitutions { try RAFirst(jsonString: text) }
    }
    #expect(inner.map(\.path) == ["status"])
    #expect(outer == inner)
  }

  @Test("a handler set inside a recording scope gets the substitutions, and so does the scope")
  func handlerInsideRecording() throws {
    let text = #"{"status": "maybe", "must": 1}"#
    let log = HandlerLog()
    let (_, recorded) = try JSON.recordingSubstitutions {
      try JSON.withConfiguration(.init(onSubstitution: { log.append($0) })) {
        try RAFirst(jsonString: text)
      }
    }
    #expect(recorded.map(\.path) == ["status"])
    #expect(log.substitutions.map(\.path) == ["status"])
    // A call's own configuration too, and a recording scope inside a handler's scope.
    let (_, viaCall) = try JSON.recordingSubstitutions {
      try RAFirst(jsonString: text, configuration: .init(onSubstitution: { log.append($0) }))
    }
    #expect(viaCall.map(\.path) == ["status"])
    let ((_, inner), outer) = try JSON.recordingSubstitutions {
      try JSON.withConfiguration(.init(onSubstitution: { log.append($0) })) {
        try JSON.recordingSubstitutions { try RAFirst(jsonString: text) }
      }
    }
    #expect(inner.map(\.path) == ["status"])
    #expect(outer == inner)
    #expect(log.substitutions.map(\.path) == ["status", "status", "status"])
  }

  @Test("an untagged case that failed leaves no substitutions behind")
  func untaggedTrials() throws {
    // The first case reads `status` (its fallback) before `must` is missing; the second maps.
    let text = #"{"status": "maybe", "other": 2}"#
    let (value, substituted) = try JSON.recordingSubstitutions { try RAChoice(jsonString: text) }
    #expect(value == .second(RASecond(other: 2)))
    #expect(substituted.isEmpty, "\(substituted)")
    let (kept, recorded) = try JSON.recordingSubstitutions {
      try [RAChoice](jsonString: #"[{"status": "maybe", "must": 1}]"#)
    }
    #expect(kept == [.first(RAFirst(status: .unknown, must: 1))])
    #expect(recorded.map(\.path) == ["[0].status"])
  }

  @Test("a remembered untagged value brings its substitutions to the case that kept it")
  func untaggedRemembered() throws {
    let text = #"{"x": {"x": {"status": "maybe", "must": 1}, "z": 2}, "y": 3}"#
    let (value, substituted) = try JSON.recordingSubstitutions { try RATree(jsonString: text) }
    #expect(value == .a(x: .b(x: .end(RAFirst(status: .unknown, must: 1)), z: 2), y: 3))
    #expect(substituted.map(\.kind) == [.fallbackCase], "\(substituted)")
    #expect(substituted.map(\.path) == ["x.x.status"])
  }

  @Test("a substitution inside a Codable enum's payload has the document's path, in every layout")
  func codablePayloadPaths() throws {
    // The payload is decoded from the form synthesized Codable reads, `{"at": {"s": …}}`; the
    // path must be where the value sits in the document, as errors' paths are.
    func paths<T: JSONDecodable>(_: T.Type, _ text: String) throws -> [String] {
      let (_, viaText) = try JSON.recordingSubstitutions { try [T](jsonString: text) }
      let (_, viaJSON) = try JSON.recordingSubstitutions {
        try [T](decode: JSON(jsonString: text))
      }
      #expect(viaText == viaJSON)
      return viaText.map(\.path)
    }
    let first = #"{"status": "maybe", "must": 1}"#
    #expect(try paths(RAStatusExternal.self, #"[{"at": {"s": \#(first)}}]"#) == ["[0].at.s.status"])
    #expect(
      try paths(RAStatusInternal.self, #"[{"type": "at", "s": \#(first)}]"#) == ["[0].s.status"])
    #expect(
      try paths(RAStatusAdjacent.self, #"[{"type": "at", "value": {"s": \#(first)}}]"#)
        == ["[0].value.s.status"])
    #expect(try paths(RAChoice.self, #"[{"other": 1}, \#(first)]"#) == ["[1].status"])
    #expect(try paths(RAStatusList.self, #"[[2, \#(first)]]"#) == ["[0][1].status"])
  }

  @Test("each stand-in is recorded once on every entry point, repeated keys too")
  func once() throws {
    let text =
      #"{"id": 1, "id": 2, "status": "x", "status": "gone", "friends": 3, "scores": [1, "a"],"#
      + #" "best": 5, "byRegion": {"mars": 1}, "limits": {"a": "b"}, "ratio": null}"#
    let (_, viaBytes) = try JSON.recordingSubstitutions { try RMember(jsonString: text) }
    let (_, viaJSON) = try JSON.recordingSubstitutions {
      try RMember(decode: JSON(jsonString: text))
    }
    #expect(viaBytes == viaJSON)
    #expect(
      viaBytes.map(\.path) == [
        "nickname", "status", "friends", "scores[1]", "best", "byRegion.mars", "limits.a", "ratio",
      ], "\(viaBytes)")
  }

  @Test("substitutions inside arrays and dictionaries of protocol types have their element's path")
  func protocolElements() throws {
    #expect(raFiguresRegistered)
    let text = #"""
      {"main": {"kind": "box"}, "more": [{"kind": "disc", "radius": 1},
       {"kind": "disc", "radius": 2, "tag": "t"}, {"kind": "disc", "radius": 3, "tag": null}]}
      """#
    let (_, substituted) = try JSON.recordingSubstitutions { try RAFigures(jsonString: text) }
    #expect(substituted.map(\.path) == ["more[0].tag", "more[2].tag"])
  }

  @Test("onSubstitution from many threads sees each call's substitutions exactly once")
  func threads() {
    let seen = Shared<[String: Int]>([:])
    let configuration = JSON.Configuration(onSubstitution: { substitution in
      seen.withLock { $0[substitution.path, default: 0] += 1 }
    })
    DispatchQueue.concurrentPerform(iterations: 64) { position in
      _ = try? [RAFirst](
        jsonString: #"[{"status": "x\#(position)", "must": \#(position)}]"#,
        configuration: configuration)
    }
    #expect(seen.withLock { $0 } == ["[0].status": 64])
  }

  @Test("two tasks recording at once see only their own")
  func tasks() async throws {
    try await withThrowingTaskGroup(of: (Int, [String]).self) { group in
      for task in 0..<8 {
        group.addTask {
          let text =
            "["
            + Array(repeating: #"{"status": "?", "must": 1}"#, count: task + 1)
            .joined(separator: ",") + "]"
          let (_, list) = try JSON.recordingSubstitutions { try [RAFirst](jsonString: text) }
          return (task, list.map(\.path))
        }
      }
      for try await (task, paths) in group {
        #expect(paths == (0...task).map { "[\($0)].status" })
      }
    }
  }

  @Test("a throwing body rethrows; what was recorded before stays with onSubstitution")
  func throwingBody() {
    struct Stop: Error {}
    let handled = LockedList<String>()
    let handler = JSON.Configuration(onSubstitution: { handled.append($0.path) })
    #expect(throws: Stop.self) {
      try JSON.withConfiguration(handler) {
        _ = try JSON.recordingSubstitutions { () -> Int in
          _ = try RAFirst(jsonString: #"{"status": "?", "must": 1}"#)
          throw Stop()
        }
      }
    }
    // The recording was thrown away with its body; the enclosing handler had it already.
    #expect(handled.elements == ["status"])
    let (error, substituted) = JSON.recordingSubstitutions {
      RA.error { try RAFirst(jsonString: #"{"status": "?", "must": "x"}"#) }
    }
    #expect(error?.path == "must")
    #expect(substituted.map(\.path) == ["status"])
  }
}

@Suite("ReportAttack: update(from:)")
struct ReportAttackUpdateTests {
  @Test("update(from:) collects every problem of its own fields, as decoding does")
  func updateCollects() throws {
    var point = RPoint(x: 0, y: 0)
    let json = try JSON(jsonString: #"{"x": "a", "y": "b"}"#)
    let error = try #require(
      RA.error { try JSON.withConfiguration(RA.all) { try point.update(from: json) } })
    #expect(error.problems.map(\.path) == ["x", "y"])
    #expect(point == RPoint(x: 0, y: 0))
    var shape = RShape(name: "", points: [], origin: RPoint(x: 0, y: 0), tags: [:])
    let nested = try JSON(jsonString: #"{"name": 1, "origin": {"x": "a", "y": "b"}}"#)
    let both = try #require(
      RA.error { try JSON.withConfiguration(RA.all) { try shape.update(from: nested) } })
    #expect(both.problems.map(\.path) == ["name", "origin.x", "origin.y"])
  }
}
