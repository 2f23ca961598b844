@_spi(Testing) import AutoMap
import Foundation
import Testing

// The comparisons of the differential test: one document (or value) through every entry
// point, each result checked against the reference (`JSON` in, `json` out).

/// What an entry point gave: a value, or an error told apart by kind, path and description.
enum DiffOutcome<T> {
  case value(T)
  case failure(kind: JSON.Error.Kind, path: String, description: String)

  init(_ body: () throws -> T) {
    do {
      self = .value(try body())
    } catch let error as JSON.Error {
      self = .failure(kind: error.kind, path: error.path, description: error.description)
    } catch {
      self = .failure(kind: .custom, path: "?", description: "not a JSON.Error: \(error)")
    }
  }

  var value: T? {
    if case .value(let value) = self { return value }
    return nil
  }

  var kind: JSON.Error.Kind? {
    if case .failure(let kind, _, _) = self { return kind }
    return nil
  }

  func same(as other: Self, _ equal: (T, T) -> Bool) -> Bool {
    switch (self, other) {
    case (.value(let a), .value(let b)): equal(a, b)
    case (.failure(let k1, let p1, let d1), .failure(let k2, let p2, let d2)):
      k1 == k2 && p1 == p2 && d1 == d2
    default: false
    }
  }

  /// For messages: the value as sorted JSON text, or the error.
  func summary(_ describe: (T) -> String) -> String {
    switch self {
    case .value(let value): "value \(describe(value))"
    case .failure(let kind, _, let description): "error \(kind): \(description)"
    }
  }
}

/// What the comparisons found.
struct DiffLedger {
  /// Where the current document came from, for messages.
  var context = ""
  var documents = 0
  /// Documents whose reference result is a value.
  var values = 0
  var calls = 0
  /// Disagreements by signature (probe, entry point, kinds of result), with their examples.
  var found: [String: [String]] = [:]
  var order: [String] = []

  /// The traits of the current document's repeated keys (see `Doc.repeatedKeys(into:)`).
  var traits: Set<String> = []
  /// Disagreements already pinned by a regression test, by that test's name.
  var known: [String: Int] = [:]
  /// Whether disagreements a regression test pins are set apart rather than counted. The
  /// three it pinned are fixed, so nothing is set apart now; the mechanism stays for the
  /// next finding, which gets its regression test before it is fixed.
  var setsKnownApart = false

  mutating func compare<T>(
    _ reference: DiffOutcome<T>, _ other: DiffOutcome<T>, probe: String, entry: String,
    text: String, equal: (T, T) -> Bool, describe: (T) -> String
  ) {
    calls += 1
    guard !reference.same(as: other, equal) else { return }
    if setsKnownApart, let test = knownIssue(reference, other, entry: entry) {
      known[test, default: 0] += 1
      return
    }
    let signature = "\(probe) | \(entry) | \(Self.shape(reference)) vs \(Self.shape(other))"
    let example =
      "\(context)\n  input: \(text)\n  reference: \(reference.summary(describe))"
      + "\n  \(entry): \(other.summary(describe))"
    if found[signature] == nil { order.append(signature) }
    found[signature, default: []].append(example)
  }

  /// The regression test in DifferentialTests.swift that pins this disagreement, if one does.
  private func knownIssue<T>(_ reference: DiffOutcome<T>, _ other: DiffOutcome<T>, entry: String)
    -> String?
  {
    if entry.hasSuffix("first use"), case .failure(.malformed, _, let message) = reference,
      message.contains("expected end of input"), case .failure = other,
      Self.shape(other) != "malformed"
    {
      return "trailingTextOnFirstUse"
    }
    // Byte paths: later uses, and first uses past the first element of an array of models;
    // and round trips of `JSON` properties that kept both spellings.
    if traits.contains("escaped spelling") { return "repeatedKeySpelledWithAnEscape" }
    if traits.contains("last is null") { return "repeatedKeyEndingInNull" }
    return nil
  }

  private static func shape<T>(_ outcome: DiffOutcome<T>) -> String {
    switch outcome {
    case .value: "value"
    case .failure(let kind, _, _):
      if case .malformed = kind { "malformed" } else { "\(kind)" }
    }
  }

  var count: Int { found.values.reduce(0) { $0 + $1.count } }

  /// Every signature with its count, for a short log.
  var summary: String {
    order.map { "[\((found[$0] ?? []).count)x] \($0)" }.joined(separator: "\n")
  }

  /// Every signature with its count and first (shortest) example.
  var report: String {
    order.map { signature in
      let examples = found[signature] ?? []
      let shortest = examples.min { $0.count < $1.count } ?? ""
      return "[\(examples.count)x] \(signature)\n\(shortest)"
    }.joined(separator: "\n\n")
  }
}

/// One model (or collection of models) with a valid document and a key style: what the
/// generator mutates and the comparisons run.
struct DiffProbe {
  let name: String
  let base: Doc
  /// Decodes one text every way, and encodes the reference value every way.
  let run: (_ text: String, _ ledger: inout DiffLedger) -> Void

  static let writingOptions: [JSON.WritingOptions] = [
    [], [.sortedKeys], [.omitNulls], [.prettyPrinted, .sortedKeys],
  ]

  static func of<T: JSONCodable & Equatable>(
    _: T.Type, _ base: Doc, style: JSON.KeyStyle? = nil, roundTrips: Bool = true,
    name: String? = nil
  ) -> DiffProbe {
    let name = (name ?? "\(T.self)") + (style.map { " (keyStyle: .\($0))" } ?? "")
    let warmUp = base.render(spacing: 0).text
    return DiffProbe(name: name, base: base) { text, ledger in
      ledger.documents += 1
      let outcome = decodeAllWays(T.self, text, warmUp: warmUp, style: style, name, &ledger)
      streamElement(T.self, text, name, &ledger)
      guard let value = outcome.value else { return }
      ledger.values += 1
      encodeAllWays(value, style: style, name, &ledger)
      if roundTrips { roundTrip(value, from: text, style: style, name, &ledger) }
    }
  }

  /// The document as the one element of an array: streamed (as an array and as JSON Lines,
  /// in small chunks) against `[T](jsonString:)`. The same values, or a failure on both sides:
  /// a stream's errors differ by design (offsets within the element, a mapping error reported
  /// before malformed text after the element).
  static func streamElement<T: JSONDecodable & Equatable>(
    _: T.Type, _ text: String, _ probe: String, _ ledger: inout DiffLedger
  ) {
    func failed(_ body: () throws -> [T]) -> DiffOutcome<[T]> {
      do { return .value(try body()) } catch {
        return .failure(kind: .custom, path: "", description: "fails")
      }
    }
    let array = "[" + text + "]"
    let reference = failed { try [T](jsonString: array) }
    var options = JSON.StreamOptions()
    options.chunkSize = 7
    let streamed = failed {
      try SyncJSONStream(of: T.self, data: Data(array.utf8), options: options).map { try $0.get() }
    }
    ledger.compare(
      reference, streamed, probe: probe, entry: "stream element of [T]", text: text, equal: ==,
      describe: { "\($0.count) elements" })
    // One line holds the whole document only when it has no line break.
    guard !text.contains("\n"), !text.contains("\r"), case .value(let values) = reference else {
      return
    }
    let line = failed {
      try SyncJSONStream(
        of: T.self, data: Data((text + "\n").utf8), format: .lines, options: options
      )
      .map { try $0.get() }
    }
    ledger.compare(
      .value(values), line, probe: probe, entry: "JSON Lines element", text: text, equal: ==,
      describe: { "\($0.count) elements" })
  }

  /// Every decoding entry point, first use and later, against `T(decode: JSON(jsonString:))`.
  /// Returns the reference result.
  static func decodeAllWays<T: JSONCodable & Equatable>(
    _: T.Type, _ text: String, warmUp: String, style: JSON.KeyStyle?, _ probe: String,
    _ ledger: inout DiffLedger
  ) -> DiffOutcome<T> {
    var entries = decoders(T.self, style: style)
    var reference = DiffOutcome { try entries[0].call(text) }
    if case .numberOutOfRange? = reference.kind {
      // By design `JSON(jsonString:)` refuses a number beyond Double's range, which a model
      // decoded from text reads as an unusable value: the `JSON` entry point cannot take
      // this document, and the text entry points are compared with each other.
      entries.removeFirst()
      reference = DiffOutcome { try entries[0].call(text) }
    }
    func check(_ entry: (name: String, call: (String) throws -> T), _ use: String) {
      ledger.compare(
        reference, DiffOutcome { try entry.call(text) }, probe: probe,
        entry: "\(entry.name), \(use)", text: text, equal: ==, describe: { describe($0) })
    }
    for entry in entries.dropFirst() {
      ProcessWideState.forgetReflection()
      check(entry, "first use")
    }
    // The reflection of every model in the valid document is observed: bytes go straight
    // into memory from here on.
    ProcessWideState.forgetReflection()
    _ = try? entries[0].call(warmUp)
    for entry in entries { check(entry, "later use") }
    return reference
  }

  static func decoders<T: JSONDecodable>(_: T.Type, style: JSON.KeyStyle?)
    -> [(name: String, call: (String) throws -> T)]
  {
    guard let style else {
      return [
        ("T(decode: JSON(jsonString:))", { try T(decode: JSON(jsonString: $0)) }),
        ("T(jsonString:)", { try T(jsonString: $0) }),
        ("T(jsonData: Data)", { try T(jsonData: Data($0.utf8)) }),
        ("T(jsonData: [UInt8])", { try T(jsonData: Array($0.utf8)) }),
      ]
    }
    return [
      ("T(decode:keyStyle:)", { try T(decode: JSON(jsonString: $0), keyStyle: style) }),
      ("T(jsonString:keyStyle:)", { try T(jsonString: $0, keyStyle: style) }),
      ("T(jsonData: Data, keyStyle:)", { try T(jsonData: Data($0.utf8), keyStyle: style) }),
      ("T(jsonData: [UInt8], keyStyle:)", { try T(jsonData: Array($0.utf8), keyStyle: style) }),
    ]
  }

  /// Every encoding entry point, first use and later, against `value.json` written as text.
  static func encodeAllWays<T: JSONEncodable>(
    _ value: T, style: JSON.KeyStyle?, _ probe: String, _ ledger: inout DiffLedger
  ) {
    let text = (try? value.jsonString()) ?? "(unencodable)"
    for options in writingOptions {
      let reference = DiffOutcome {
        try (style.map { try value.json(keyStyle: $0) } ?? value.json).jsonString(options: options)
      }
      let entries: [(name: String, call: () throws -> String)] = [
        (
          "jsonString(options: \(options.rawValue))",
          {
            try style.map { try value.jsonString(options: options, keyStyle: $0) }
              ?? value.jsonString(options: options)
          }
        ),
        (
          "jsonData(options: \(options.rawValue))",
          {
            let data =
              try style.map { try value.jsonData(options: options, keyStyle: $0) }
              ?? value.jsonData(options: options)
            return String(decoding: data, as: UTF8.self)
          }
        ),
      ]
      for entry in entries {
        for use in ["first use", "later use"] {
          if use == "first use" { ProcessWideState.forgetReflection() }
          ledger.compare(
            reference, DiffOutcome(entry.call), probe: probe, entry: "\(entry.name), \(use)",
            text: "value encoding to \(text)", equal: ==, describe: { $0 })
        }
      }
    }
  }

  /// The value, encoded and decoded again, is itself.
  static func roundTrip<T: JSONCodable & Equatable>(
    _ value: T, from text: String, style: JSON.KeyStyle?, _ probe: String,
    _ ledger: inout DiffLedger
  ) {
    let encoded = try? style.map { try value.jsonString(keyStyle: $0) } ?? value.jsonString()
    guard let encoded else { return }  // encoding errors are compared above
    let again = DiffOutcome {
      try style.map { try T(jsonString: encoded, keyStyle: $0) } ?? T(jsonString: encoded)
    }
    ledger.compare(
      .value(value), again, probe: probe, entry: "round trip",
      text: "\(text), encoded as \(encoded)", equal: ==, describe: { describe($0) })
  }

  static func describe<T: JSONEncodable>(_ value: T) -> String {
    (try? value.jsonString(options: .sortedKeys)) ?? String(describing: value)
  }
}

// MARK: Traits of a document

extension Doc {
  /// What a document's repeated keys are like: whether two spellings of one key occur (one
  /// with an escape), and whether a key's last occurrence, in any ASCII case (as
  /// `.caseInsensitive` matches keys), is `null` after a value.
  func repeatedKeys(into traits: inout Set<String>) {
    switch self {
    case .scalar: break
    case .array(let elements): for element in elements { element.repeatedKeys(into: &traits) }
    case .object(let members):
      var byKey: [String: [Member]] = [:]
      var byFoldedKey: [String: [Member]] = [:]
      for member in members {
        let key = Doc.unescaped(member.key)
        byKey[key, default: []].append(member)
        byFoldedKey[Doc.foldedASCII(key), default: []].append(member)
        member.value.repeatedKeys(into: &traits)
      }
      for group in byKey.values where Set(group.map(\.key)).count > 1 {
        traits.insert("escaped spelling")
      }
      for group in byFoldedKey.values where group.count > 1 {
        let isNull = group.map { if case .scalar("null") = $0.value { true } else { false } }
        if isNull[isNull.count - 1], isNull.contains(false) { traits.insert("last is null") }
      }
    }
  }

  static func foldedASCII(_ key: String) -> String {
    var result = ""
    for scalar in key.unicodeScalars {
      let upper = ("A"..."Z").contains(scalar)
      result.unicodeScalars.append(upper ? Unicode.Scalar(scalar.value + 32) ?? scalar : scalar)
    }
    return result
  }

  /// The key a raw key stands for: `\u` escapes (surrogate pairs too) and `\"`, `\\` undone.
  static func unescaped(_ raw: String) -> String {
    var result = ""
    var scalars = raw.unicodeScalars[...]
    var pendingHigh: UInt32?
    while let scalar = scalars.popFirst() {
      guard scalar == "\\", let next = scalars.popFirst() else {
        result.unicodeScalars.append(scalar)
        continue
      }
      guard next == "u" else {
        result.unicodeScalars.append(next == "n" ? "\n" : next == "t" ? "\t" : next)
        continue
      }
      let hex = String(String.UnicodeScalarView(scalars.prefix(4)))
      scalars = scalars.dropFirst(4)
      let value = UInt32(hex, radix: 16) ?? 0xFFFD
      if (0xD800..<0xDC00).contains(value) {
        pendingHigh = value
      } else if let high = pendingHigh, (0xDC00..<0xE000).contains(value) {
        let combined = 0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00)
        result.unicodeScalars.append(Unicode.Scalar(combined) ?? "\u{FFFD}")
        pendingHigh = nil
      } else {
        result.unicodeScalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
      }
    }
    return result
  }
}
