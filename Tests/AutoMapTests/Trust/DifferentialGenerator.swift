import AutoMap

// The document generator of the differential test: a small seeded PRNG, a document tree that
// can hold what `JSON` cannot (repeated keys, number text as written, escaped keys), and
// mutations that turn a valid document into a nearly valid one.

/// SplitMix64: small, fast, and the same on every platform, so a seed names one document.
struct DiffRandom: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func below(_ count: Int) -> Int { Int(next() % UInt64(max(count, 1))) }
  mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
  mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

/// A JSON document as text pieces: scalars and keys are kept exactly as written.
indirect enum Doc: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByBooleanLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  /// Raw JSON text of a scalar: `12e2`, `"caf\u00e9"`, `null`.
  case scalar(String)
  case array([Doc])
  /// Keys are the raw text between the quotes (escapes as written).
  case object([Member])

  struct Member: Sendable {
    var key: String
    var value: Doc
  }

  init(stringLiteral value: String) { self = .scalar(Doc.quoted(value)) }
  init(integerLiteral value: Int) { self = .scalar(String(value)) }
  init(booleanLiteral value: Bool) { self = .scalar(value ? "true" : "false") }
  init(nilLiteral: ()) { self = .scalar("null") }
  init(arrayLiteral elements: Doc...) { self = .array(elements) }
  init(dictionaryLiteral elements: (String, Doc)...) {
    self = .object(elements.map { Member(key: Doc.escaped($0.0), value: $0.1) })
  }

  /// A number exactly as written.
  static func number(_ text: String) -> Doc { .scalar(text) }

  static func quoted(_ text: String) -> String { "\"" + escaped(text) + "\"" }

  static func escaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20: result += "\\u" + hex4(scalar.value)
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  static func hex4(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  var isNumber: Bool {
    guard case .scalar(let text) = self, let first = text.unicodeScalars.first else { return false }
    return first == "-" || ("0"..."9").contains(first)
  }
}

// MARK: Rendering

/// Text with the places where a stray comma makes it malformed.
struct Rendered {
  var scalars: [Unicode.Scalar] = []
  var structural: [Int] = []

  var text: String {
    var text = ""
    text.unicodeScalars.append(contentsOf: scalars)
    return text
  }

  mutating func append(_ piece: String) { scalars.append(contentsOf: piece.unicodeScalars) }
  mutating func mark() { structural.append(scalars.count) }
}

extension Doc {
  /// `spacing` 0: compact; 1: spaces; 2: line breaks and indentation; 3: every kind of
  /// whitespace around every token.
  func render(spacing: Int) -> Rendered {
    var out = Rendered()
    if spacing == 3 { out.append(" \r\n") }
    render(into: &out, spacing: spacing, level: 0)
    if spacing == 3 { out.append("\t\n ") }
    return out
  }

  private func render(into out: inout Rendered, spacing: Int, level: Int) {
    let indent = String(repeating: "  ", count: level)
    let newline = spacing == 2 ? "\n  " + indent : spacing == 3 ? "\t" : ""
    let closing = spacing == 2 ? "\n" + indent : spacing == 3 ? " \r\n" : ""
    let comma = spacing == 1 ? ", " : spacing == 3 ? " \t,\r\n" : ","
    let colon = spacing == 0 ? "\":" : spacing == 3 ? "\" \t:\n " : "\": "
    switch self {
    case .scalar(let text): out.append(text)
    case .array(let elements):
      out.append("[")
      for (position, element) in elements.enumerated() {
        out.mark()
        if position > 0 { out.append(comma) }
        out.append(newline)
        element.render(into: &out, spacing: spacing, level: level + 1)
      }
      out.mark()
      out.append((elements.isEmpty ? "" : closing) + "]")
    case .object(let members):
      out.append("{")
      for (position, member) in members.enumerated() {
        out.mark()
        if position > 0 { out.append(comma) }
        out.append(newline + "\"" + member.key + colon)
        member.value.render(into: &out, spacing: spacing, level: level + 1)
      }
      out.mark()
      out.append((members.isEmpty ? "" : closing) + "}")
    }
  }
}

// MARK: Values that test the rules

enum DiffPool {
  static let limits = [
    "0", "-1", "1", "13", "127", "128", "-128", "-129", "255", "256", "32767", "32768", "-32769",
    "65535", "65536", "2147483647", "2147483648", "-2147483649", "4294967295", "4294967296",
    "9223372036854775807", "9223372036854775808", "-9223372036854775808", "18446744073709551615",
    "18446744073709551616", "9007199254740993", "1.0", "12e2", "1E2", "0.1", "2.5", "-2.5",
    "1e-7", "3.4028235e38", "3.5e38", "1.7976931348623157e308", "5e-324", "100.5", "1e2",
    "1e19", "1.5e1", "3.4028235677973366e38", "3.402823567797337e38", "1e-46", "1.4e-45",
    "1.00000005960464477539062500001",
  ]
  /// What the number rewrite changes; kept out of `limits` until it lands (see
  /// `DifferentialTests.numbersPendingRewrite`).
  static let pendingNumbers = [
    "-9223372036854775809", "9007199254740993.0", "1e400", "-1e400", "-0", "-0.0", "1e-400",
    "2.345", "123456789.123456789", "18446744073709551615.0",
  ]
  static let strings = [
    #""""#, #""x""#, #""bad""#, #""caf\u00e9""#, #""\ud83d\ude00 smile""#, #""q\"uote \\ back""#,
    #""line\nbreak\t""#, #""12""#, #""1.5""#, #""true""#, #""0""#, #""red""#, #""blue""#,
    #""v7""#, #""v-3""#, #""2024-02-29T12:30:15.250Z""#, #""2024-02-30T00:00:00Z""#,
    #""https://example.com/a?b=c""#, #""E621E1F8-C36C-495A-93FC-0C247A3E6E5F""#, #""AQID""#,
    #""not base64!""#, #""Ä""#, #""\u00c4GE""#, "\"caf\u{e9}\"", #""\ud800 lone""#,
    #""a\u0000b""#, #""\/\b\f\r""#,
  ]
  static let others = [
    "true", "false", "null", "[]", "{}", "[1,2,3]", #"{"id":1}"#, #"[{"code":1}]"#,
    #"{"c":20}"#, #"[[1],[2,3]]"#, #"{"a":null}"#, #"["x",null]"#,
  ]
  static let unknownKeys = [
    "extra", "ID", "Name", "NAME", "user", "a.b", #"caf\u00e9"#, #"\u00c4GE"#, "ÄGE", "", "c",
    "id ", #"na\u006de"#, "content-type", "0",
  ]

  static func value(_ random: inout DiffRandom) -> Doc {
    switch random.below(10) {
    case 0..<4: .scalar(random.pick(limits))
    case 4..<8: .scalar(random.pick(strings))
    default: .scalar(random.pick(others))
    }
  }
}

// MARK: Mutations

extension Doc {
  /// Every node with its path (positions of members or elements from the root).
  func nodes(_ prefix: [Int] = [], into result: inout [(path: [Int], doc: Doc)]) {
    result.append((prefix, self))
    switch self {
    case .scalar: break
    case .array(let elements):
      for (position, element) in elements.enumerated() {
        element.nodes(prefix + [position], into: &result)
      }
    case .object(let members):
      for (position, member) in members.enumerated() {
        member.value.nodes(prefix + [position], into: &result)
      }
    }
  }

  mutating func modify(at path: ArraySlice<Int>, _ body: (inout Doc) -> Void) {
    guard let first = path.first else { return body(&self) }
    switch self {
    case .scalar: break
    case .array(var elements):
      elements[first].modify(at: path.dropFirst(), body)
      self = .array(elements)
    case .object(var members):
      members[first].value.modify(at: path.dropFirst(), body)
      self = .object(members)
    }
  }
}

enum DiffMutation {
  /// `doc` with `count` random changes; what changed is chosen so that every kind comes up.
  static func mutate(_ doc: Doc, count: Int, _ random: inout DiffRandom) -> Doc {
    var doc = doc
    for _ in 0..<count {
      var nodes: [(path: [Int], doc: Doc)] = []
      doc.nodes(into: &nodes)
      let objects = nodes.filter { if case .object(let m) = $0.doc { !m.isEmpty } else { false } }
      let arrays = nodes.filter { if case .array(let e) = $0.doc { !e.isEmpty } else { false } }
      let roll = random.below(100)
      if roll < 45, !objects.isEmpty {
        let node = random.pick(objects)
        doc.modify(at: node.path[...]) { changeMembers(&$0, &random) }
      } else if roll < 85 || arrays.isEmpty {
        let node = random.pick(nodes.count > 1 ? Array(nodes.dropFirst()) : nodes)
        doc.modify(at: node.path[...]) { changeValue(&$0, &random) }
      } else {
        let node = random.pick(arrays)
        doc.modify(at: node.path[...]) { changeElements(&$0, &random) }
      }
    }
    return doc
  }

  /// One number replaced with `numbers` (any scalar when there is no number).
  static func replaceNumber(_ doc: Doc, with numbers: [String], _ random: inout DiffRandom) -> Doc {
    var doc = doc
    var nodes: [(path: [Int], doc: Doc)] = []
    doc.nodes(into: &nodes)
    let numeric = nodes.filter(\.doc.isNumber)
    let scalars = nodes.filter { if case .scalar = $0.doc { true } else { false } }
    guard let node = numeric.isEmpty ? scalars.randomElement(using: &random) : random.pick(numeric)
    else { return doc }
    doc.modify(at: node.path[...]) { $0 = .scalar(random.pick(numbers)) }
    return doc
  }

  private static func changeMembers(_ doc: inout Doc, _ random: inout DiffRandom) {
    guard case .object(var members) = doc, !members.isEmpty else { return }
    let position = random.below(members.count)
    let member = members[position]
    switch random.below(9) {
    case 0, 1:  // a repeated key: the first occurrence other than the valid one, or the last
      let roll = random.below(10)
      let value: Doc = roll < 2 ? nil : roll < 7 ? DiffPool.value(&random) : member.value
      let key = random.chance(25) ? escapedScalar(member.key, &random) : member.key
      members.insert(
        Doc.Member(key: key, value: value), at: random.chance(50) ? position : position + 1)
    case 2: members.shuffle(using: &random)
    case 3:
      let value = random.chance(60) ? DiffPool.value(&random) : random.pick(members).value
      let key = random.pick(DiffPool.unknownKeys)
      members.insert(Doc.Member(key: key, value: value), at: random.below(members.count + 1))
    case 4: members.remove(at: position)
    case 5: members[position].key = recased(member.key, &random)
    case 6: members[position].key = escapedScalar(member.key, &random)
    case 7: members[position].value = nil
    default: members[position].value = DiffPool.value(&random)
    }
    doc = .object(members)
  }

  private static func changeValue(_ doc: inout Doc, _ random: inout DiffRandom) {
    switch random.below(9) {
    case 0: doc = nil
    case 1, 2: doc = DiffPool.value(&random)
    case 3: doc = .scalar(random.pick(doc.isNumber ? DiffPool.limits : DiffPool.strings))
    case 4:
      switch doc {
      case .scalar: doc = .scalar(doc.isNumber ? "0" : #""""#)
      case .array: doc = []
      case .object: doc = .object([])
      }
    case 5: doc = [doc]
    case 6:
      if case .array(let elements) = doc, let first = elements.first {
        doc = first
      } else {
        doc = .scalar(random.pick(DiffPool.others))
      }
    case 7: doc = .scalar(random.pick(DiffPool.limits))
    default:  // around the reader's depth limit, wherever this value is
      let depth = JSON.maximumDepth - 8 + random.below(12)
      doc = .scalar(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
    }
  }

  private static func changeElements(_ doc: inout Doc, _ random: inout DiffRandom) {
    guard case .array(var elements) = doc, !elements.isEmpty else { return }
    let position = random.below(elements.count)
    switch random.below(5) {
    case 0: elements.remove(at: position)
    case 1: elements.insert(elements[position], at: position)
    case 2: elements.insert(DiffPool.value(&random), at: random.below(elements.count + 1))
    case 3: elements[position] = nil
    default: elements.swapAt(position, random.below(elements.count))
    }
    doc = .array(elements)
  }

  /// The key in another case: ASCII only, Unicode, first letter only, or lowercase.
  private static func recased(_ key: String, _ random: inout DiffRandom) -> String {
    guard !key.contains("\\") else { return key }
    switch random.below(4) {
    case 0: return key.prefix(1).uppercased() + key.dropFirst()
    case 1:
      var result = ""
      for scalar in key.unicodeScalars {
        let upper = ("a"..."z").contains(scalar)
        result.unicodeScalars.append(upper ? Unicode.Scalar(scalar.value - 32) ?? scalar : scalar)
      }
      return result
    case 2: return key.uppercased()
    default: return key.lowercased()
    }
  }

  /// The key with one character written as a `\u` escape (a surrogate pair above U+FFFF).
  static func escapedScalar(_ key: String, _ random: inout DiffRandom) -> String {
    let scalars = Array(key.unicodeScalars)
    guard !scalars.isEmpty, !key.contains("\\") else { return key }
    let position = random.below(scalars.count)
    let value = scalars[position].value
    var escape = "\\u" + Doc.hex4(value)
    if value > 0xFFFF {
      let offset = value - 0x10000
      escape =
        "\\u" + Doc.hex4(0xD800 + (offset >> 10)) + "\\u" + Doc.hex4(0xDC00 + (offset & 0x3FF))
    }
    var result = ""
    for (index, scalar) in scalars.enumerated() {
      if index == position { result += escape } else { result.unicodeScalars.append(scalar) }
    }
    return result
  }

  /// Malformed text: cut short, a stray comma, trailing text, a character lost or added.
  static func malform(_ rendered: Rendered, _ random: inout DiffRandom) -> String {
    var scalars = rendered.scalars
    switch random.below(5) {
    case 0: scalars = Array(scalars.prefix(random.below(scalars.count)))
    case 1:
      let at = rendered.structural.isEmpty ? 1 : random.pick(rendered.structural)
      scalars.insert(",", at: min(at, scalars.count))
    case 2: scalars += random.pick([" x", ",", "}", " 1", "  null", "]"]).unicodeScalars
    case 3: if !scalars.isEmpty { scalars.remove(at: random.below(scalars.count)) }
    default:
      let extra = random.pick(["]", "}", ":", "\"", "x", " ", "\\", "\u{1}"] as [Unicode.Scalar])
      scalars.insert(extra, at: random.below(scalars.count + 1))
    }
    var text = ""
    text.unicodeScalars.append(contentsOf: scalars)
    return text
  }
}
