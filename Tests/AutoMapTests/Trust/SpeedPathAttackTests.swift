import AutoMap
import Foundation
import Testing

// An adversarial review of the speed changes: strings made without the standard library
// validating them, keys from the cache, skipped numbers checked by grammar only, nil stored
// by copying bytes, arrays of models built through one captured array type. Every input goes
// through every entry point, and buffers are allocated to the byte so that a read past the
// end shows up under AddressSanitizer.

/// Calls `body` with `bytes` copied into memory that ends exactly where they do.
private func withExactBuffer<R>(_ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws -> R)
  rethrows -> R
{
  let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
  defer { buffer.deallocate() }
  buffer.copyMemory(from: UnsafeRawBufferPointer(start: bytes, count: bytes.count))
  return try body(UnsafeRawBufferPointer(rebasing: buffer[..<bytes.count]))
}

/// `JSON(jsonData:)` over exactly `bytes`, or `nil` when it throws.
private func parsedExactly(_ bytes: [UInt8]) -> JSON? {
  withExactBuffer(bytes) { try? JSON(jsonData: $0) }
}

private func quoted(_ content: [UInt8]) -> [UInt8] {
  [UInt8(ascii: "\"")] + content + [UInt8(ascii: "\"")]
}

/// A model that reads one string property and skips every other member.
private struct OneText: JSONCodable, Equatable {
  var text: String? = nil
}

/// Thirty-two keys, so that the parser's key cache is warm for the keys after them.
private let warmKeys = (0..<32).map { "\"warm\($0)\":0," }.joined()

@Suite("Speed paths under attack", .serialized)
struct SpeedPathAttackTests {
  // MARK: UTF-8

  /// Checks one string content against `String(validating:)` as a value; when `thorough`,
  /// also as a model property, a skipped member, a key (also one the key cache holds) and a
  /// stream element.
  private static func checkContent(_ content: [UInt8], thorough: Bool) {
    let reference = referenceString(validating: content)
    let literal = quoted(content)
    let value = parsedExactly(literal)
    // Checked without #expect first: this runs some hundred thousand times.
    if value != reference.map(JSON.string) { Issue.record("value \(content)") }
    if case .string(let string) = value,
      Array(string.utf8) != content
        || referenceString(validating: Array(string.utf8)) != string
    {
      Issue.record("value bytes \(content)")
    }
    guard thorough else { return }
    let property = Array(#"{"text":"#.utf8) + literal + Array("}".utf8)
    let model = withExactBuffer(property) { try? OneText(jsonData: $0) }
    #expect(model?.text == reference, "property \(content)")
    let skipped = Array(#"{"other":"#.utf8) + literal + Array(#","text":"t"}"#.utf8)
    let skippedModel = withExactBuffer(skipped) { try? OneText(jsonData: $0) }
    #expect((skippedModel != nil) == (reference != nil), "skipped \(content)")
    let keyed = Array("{".utf8) + literal + Array(#":1,"text":"t"}"#.utf8)
    let keyedModel = withExactBuffer(keyed) { try? OneText(jsonData: $0) }
    #expect((keyedModel != nil) == (reference != nil), "skipped key \(content)")
    // The key after 32 others goes into the cache; its repeat in a second object is a hit.
    let object = Array("{\(warmKeys)".utf8) + literal + Array(":1}".utf8)
    let twice = Array("[".utf8) + object + Array(",".utf8) + object + Array("]".utf8)
    let parsed = parsedExactly(twice)
    #expect((parsed != nil) == (reference != nil), "cached key \(content)")
    if let parsed, let reference {
      for index in 0..<2 {
        guard case .object(let members) = parsed[.position(index)] else {
          Issue.record("not an object")
          continue
        }
        let keys = members.map(\.key)
        #expect(keys.last.map { Array($0.utf8) } == Array(reference.utf8))
      }
    }
    let streamed = StreamRun.sync(JSON.self, Data(twice), .array, options: .chunked(7))
    #expect((streamed.error == nil) == (reference != nil), "stream \(content)")
  }

  @Test("mutated documents give one outcome on every entry point")
  func mutatedDocuments() throws {
    var generator = DiffRandom(seed: 0xFA22)
    let seeds = [
      #"{"id":12,"title":"a title longer than sixteen bytes, é 語 😀","ratio":-0.5e-3,"#
        + #""maybe":7,"inner":{"name":"n\u00e9\n","score":1e2,"tags":["x","y\"z"]},"#
        + #""list":[{"name":"a"},{"name":"b","tags":[]}],"map":{"k\u0041":1,"é":2},"#
        + #""flags":[true,false],"color":"green","big":18446744073709551615,"#
        + #""unknown_member_with_a_long_name":{"deep":[1,2.5,"s",null,{"q":"\uD83D\uDE00"}]}}"#,
      #"{"list":[{"name":"1234567890123456789012345678901234567890"}],"maybe":null,"id":-0}"#,
      #"{"title":"\u0000\u001f\/","id":1,"id":2,"inner":null,"skip":"ƒ€𝄞","ratio":1E400}"#,
      #"{"id":-9223372036854775808,"big":0,"small":-128,"ratio":-0,"maybe":[],"list":null}"#,
      "{\(warmKeys)\"a key of more than thirty-two bytes, é\":{\(warmKeys)\"title\":\"t\"},"
        + #""title":"\u00e9\u20AC\uD834\uDD1E","inner":{"name":"1234567\u0038"},"id":9}"#,
    ]
    let interesting: [UInt8] =
      [0x00, 0x1F, 0x20, 0x7F, 0x80, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF]
      + Array(#""\u0e-.,:[]{}nt9"#.utf8)
    for round in 0..<2_500 {
      var bytes = Array(generator.pick(seeds).utf8)
      for _ in 0...generator.below(3) {
        let position = generator.below(bytes.count)
        switch generator.below(4) {
        case 0: bytes[position] = generator.pick(interesting)
        case 1: bytes.insert(generator.pick(interesting), at: position)
        case 2: bytes.remove(at: position)
        default:
          let end = min(bytes.count, position + 1 + generator.below(12))
          bytes.insert(contentsOf: bytes[position..<end], at: generator.below(bytes.count))
        }
      }
      if round % 7 == 0 { bytes.removeLast(generator.below(min(bytes.count, 40))) }
      let text = String(decoding: bytes, as: UTF8.self)
      let fromBytes = EntryOutcome { try withExactBuffer(bytes) { try FuzzModel(jsonData: $0) } }
      let parsed = EntryOutcome { try withExactBuffer(bytes) { try JSON(jsonData: $0) } }
      if case .failure(kind: .numberOutOfRange, _) = parsed {
      } else {
        let fromJSON = EntryOutcome { try FuzzModel(decode: JSON(jsonData: Data(bytes))) }
        #expect(fromJSON == fromBytes, "\(text)")
      }
      // Reading at a path skips what is before it and checks what is after it.
      let atPath = EntryOutcome {
        try withExactBuffer(bytes) { try [FuzzInner](jsonData: $0, at: "list") }
      }
      if let json = parsed.value {
        #expect(atPath == EntryOutcome { try [FuzzInner](decode: json["list"]) }, "\(text)")
      } else if case .failure(kind: .malformed, _) = parsed {
        #expect(atPath.value == nil, "at a path: \(text)")
      }
      if let json = parsed.value {
        // What was accepted re-encodes to text that parses to the same value.
        #expect(try JSON(jsonData: json.jsonData()) == json, "\(text)")
        if case .string(let string) = json["title"] {
          #expect(referenceString(validating: Array(string.utf8)) == string)
        }
      }
      var updated = FuzzModel()
      // An update needs no key (a struct without init() needs every one to decode): it
      // succeeds wherever decoding does, with the same value, and fails only where it fails.
      let update: Void? = try? updated.update(fromJSONData: Data(bytes))
      if let value = fromBytes.value { #expect(update != nil && updated == value, "\(text)") }
      if update == nil { #expect(fromBytes.value == nil, "update \(text)") }
      let pair = Array("[".utf8) + bytes + Array(",".utf8) + bytes + Array("]".utf8)
      let whole = EntryOutcome { try [FuzzModel](jsonData: Data(pair)) }
      let streamed = StreamRun.sync(FuzzModel.self, Data(pair), .array, options: .chunked(5))
      #expect((streamed.error == nil) == (whole.value != nil), "stream \(text)")
      if let values = whole.value { #expect(streamed.values == values, "stream \(text)") }
    }
  }

  @Test(
    "every two-byte sequence, at every alignment, is accepted exactly when it is UTF-8",
    arguments: [0x80, 0xA0, 0xC0, 0xE0])
  func everyPair(firstBytes: Int) {
    for first in firstBytes..<firstBytes + 0x20 {
      for second in 0...0xFF {
        // ASCII before the pair moves it across the eight-byte steps; after it, across the
        // automaton's whole-word skip.
        let before = Array(repeating: UInt8(ascii: "a"), count: (first + second) % 9)
        let after = Array(repeating: UInt8(ascii: "b"), count: second % 10)
        let pair = [UInt8(first), UInt8(second)]
        guard pair[1] >= 0x20, pair[1] != UInt8(ascii: "\""), pair[1] != UInt8(ascii: "\\")
        else { continue }
        Self.checkContent(before + pair + after, thorough: second % 32 == first % 32)
      }
    }
  }

  @Test("three- and four-byte sequences at every range boundary agree with the standard library")
  func longSequences() {
    let edges: [UInt8] = [
      0x20, 0x7F, 0x80, 0x81, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xF0,
      0xF4, 0xFF,
    ]
    let seconds = Set(edges + stride(from: 0x20, through: 0xFF, by: 5).map(UInt8.init))
      .subtracting([0x22, 0x5C]).sorted()
    var count = 0
    for lead: UInt8 in 0xE0...0xFF {
      for second in seconds {
        for third in edges {
          count += 1
          let before = Array(repeating: UInt8(ascii: "x"), count: count % 11)
          let bytes = before + [lead, second, third]
          Self.checkContent(bytes, thorough: count % 32 == 0)
          guard lead >= 0xF0, third & 0xC0 == 0x80 else { continue }
          for fourth: UInt8 in [0x7F, 0x80, 0xBF, 0xC0] {
            Self.checkContent(bytes + [fourth], thorough: count % 32 == 1)
          }
        }
      }
    }
  }

  @Test("a character cut by a run of ASCII is refused wherever the run falls")
  func charactersCutByASCII() {
    // The validator steps over whole words of ASCII between characters only: a lead byte,
    // a run of ASCII, then the continuation bytes it expected must never pass.
    for lead: [UInt8] in [
      [0xC3], [0xE0, 0xA0], [0xE1], [0xED], [0xF0, 0x90], [0xF4], [0xF1, 0x80],
    ] {
      for run in 0...17 {
        for alignment in 0...8 {
          for tail: [UInt8] in [[0x80], [0x80, 0x80], [0xBF, 0xBF, 0xBF]] {
            let before = Array(repeating: UInt8(ascii: "a"), count: alignment)
            let ascii = Array(repeating: UInt8(ascii: "b"), count: run)
            Self.checkContent(before + lead + ascii + tail, thorough: run == 8)
          }
        }
      }
    }
  }

  @Test("escapes around raw characters: lone surrogates, \\u0000, the largest scalar")
  func escapesAroundRawBytes() throws {
    let accepted: [(String, String)] = [
      (#"\u0000"#, "\u{0}"), (#"a\u0000b"#, "a\u{0}b"), (#"\uDBFF\uDFFF"#, "\u{10FFFF}"),
      (#"\uD800\uDC00"#, "\u{10000}"), (#"\u00e9é"#, "éé"), (#"é\u00e9"#, "éé"),
      (#"\u0080\u07FF\u0800\uFFFF"#, "\u{80}\u{7FF}\u{800}\u{FFFF}"),
      (String(repeating: #"\uD83D\uDE00"#, count: 9), String(repeating: "😀", count: 9)),
    ]
    for (spelled, string) in accepted {
      let bytes = quoted(Array(spelled.utf8))
      #expect(parsedExactly(bytes) == .string(string), "\(spelled)")
      #expect(try OneText(jsonString: #"{"text":"\#(spelled)"}"#).text == string)
      // As keys, plain and after the cache is warm.
      let object = try JSON(jsonString: "{\(warmKeys)\"\(spelled)\":1}")
      #expect(object[.key(string)] == 1, "\(spelled)")
    }
    let rejected = [
      #"\uD800"#, #"\uDC00"#, #"\uD800\u0041"#, #"\uD800\uD800"#, #"\uDBFF"#, #"a\uD83D"#,
      #"\uD83D\"#, #"\uD83D\u"#, #"\uD83D\uDE0"#, #"\u00"#, #"\x41"#,
    ]
    for spelled in rejected {
      let bytes = quoted(Array(spelled.utf8))
      #expect(parsedExactly(bytes) == nil, "\(spelled)")
      #expect(
        withExactBuffer(Array("{\(warmKeys)".utf8) + bytes + Array(":1}".utf8)) {
          (try? JSON(jsonData: $0)) == nil
        })
      #expect((try? OneText(jsonString: #"{"other":"\#(spelled)","text":"t"}"#)) == nil)
    }
  }

  @Test("every prefix of a document ends the buffer exactly, with keys of every length")
  func everyPrefixEndsTheBuffer() throws {
    var generator = DiffRandom(seed: 0xB0F)
    let pieces = ["a", "é", "語", "😀", "Z", "\\n", "\\u00e9"]
    for length in 0...40 {
      var key = ""
      while key.utf8.count < length { key += generator.pick(pieces) }
      let text = "{\(warmKeys)\"\(key)\":\"\(key)\",\"text\":\"\(key)\",\"\(key)\":1e400}"
      let bytes = Array(text.utf8)
      let whole = try #require(parsedExactly(Array("[\(text.dropLast(6))0}]".utf8)))
      #expect(whole[0, .key("text")] != nil)
      #expect(withExactBuffer(bytes) { try? OneText(jsonData: $0) } != nil)
      for cut in 0..<bytes.count {
        let prefix = Array(bytes[..<cut])
        #expect(parsedExactly(prefix) == nil, "prefix \(cut) of \(text)")
        #expect(withExactBuffer(prefix) { try? OneText(jsonData: $0) } == nil)
      }
    }
  }

  // MARK: Numbers

  @Test("a skipped number is checked like a read one; only JSON(jsonData:) refuses 1e400")
  func skippedNumbers() throws {
    let jsonNumber = try Regex(#"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?"#)
    let numbers = [
      "0", "-0", "1e400", "-1e400", "1E+400", "1e-400", "0e999999999999",
      "1"
        + String(
          repeating: "0", count: 400), "123456789012345678901234567890", "9e307",
      "1.7976931348623159e308",
      "4.9e-324", "01", "1.", ".5", "-", "+1", "1e", "1e+", "2.e3", "0x10", "1_0", "NaN",
      "Infinity", "-01", "1.5e5.5", "--1", "1ee5",
    ]
    for number in numbers {
      let grammatical = number.wholeMatch(of: jsonNumber) != nil
      let finite = grammatical && Double(number)?.isFinite == true
      let skipped = #"{"other":\#(number),"text":"t"}"#
      let bytes = withExactBuffer(Array(skipped.utf8)) { try? OneText(jsonData: $0) }
      #expect((bytes != nil) == grammatical, "bytes \(number)")
      let json = try? OneText(decode: JSON(jsonString: skipped))
      #expect((json != nil) == (grammatical && finite), "JSON \(number)")
      var updated = OneText()
      let update: Void? = try? updated.update(fromJSONString: skipped)
      #expect((update != nil) == grammatical, "update \(number)")
      let nested = #"{"other":[{"deep":[\#(number)]}],"text":"t"}"#
      #expect(((try? OneText(jsonString: nested)) != nil) == grammatical, "nested \(number)")
      let streamed = StreamRun.sync(OneText.self, Data("[\(skipped),\(skipped)]".utf8), .array)
      #expect((streamed.error == nil) == grammatical, "stream \(number)")
      if grammatical { #expect(streamed.values == [OneText(text: "t"), OneText(text: "t")]) }
      // Read by a property, a number beyond Double's range fails everywhere.
      let read = #"{"value":\#(number)}"#
      let doubleRead = try? DoubleHolder(jsonString: read)
      #expect((doubleRead != nil) == (grammatical && finite), "read \(number)")
    }
  }

  // MARK: Repeated keys and the move stack

  @Test("repeated keys keep the first position and the last value, in small and large objects")
  func repeatedKeys() throws {
    var generator = DiffRandom(seed: 0x1404)
    for round in 0..<300 {
      let distinct = 1 + generator.below(round % 3 == 0 ? 150 : 12)
      var order: [String] = []
      var last: [String: JSON] = [:]
      var members: [String] = []
      for index in 0..<(distinct + generator.below(3 * distinct)) {
        let key = "key\(generator.below(distinct))" + (generator.chance(20) ? "-é" : "")
        let value: JSON =
          switch generator.below(4) {
          case 0: .string(String(repeating: "v", count: generator.below(40)) + "\(index)")
          case 1: .array([.number(JSON.Number(Int64(index))), .object(["n": .string(key)])])
          case 2: .object(["deep": .array([.null, .string(key)])])
          default: .number(JSON.Number(Int64(index)))
          }
        if last[key] == nil { order.append(key) }
        last[key] = value
        let spelled =
          generator.chance(30) ? key.replacingOccurrences(of: "k", with: "\\u006b") : key
        members.append("\"\(spelled)\":\(try value.jsonString())")
      }
      let text = "{" + members.joined(separator: ",") + "}"
      let parsed = try #require(parsedExactly(Array(text.utf8)))
      guard case .object(let object) = parsed else {
        Issue.record("not an object")
        continue
      }
      #expect(object.map(\.key) == order, "\(text)")
      for key in order { #expect(parsed[.key(key)] == last[key], "\(key) in \(text)") }
    }
  }

  @Test("storing nil over a held object releases it once, in structs and classes")
  func nilOverHeldObjects() throws {
    _ = try HoldsCounted(jsonString: #"{"counted":{"id":1}}"#)  // the first use, which reflects
    let before = LiveCounted.live
    for round in 0..<50 {
      var held = try HoldsCounted(jsonString: #"{"counted":{"id":\#(round)},"list":[{},null,{}]}"#)
      #expect(held.counted?.id == round)
      try held.update(fromJSONString: #"{"counted":null,"list":[null]}"#)
      #expect(held.counted == nil && held.list?.count == 1)
      let object = try HeldByClass(jsonString: #"{"counted":{"id":1},"list":[{}]}"#)
      try object.update(fromJSONString: #"{"counted":null,"list":null}"#)
      #expect(object.counted == nil && object.list == nil)
      try object.update(fromJSONString: #"{"counted":{"id":2},"list":[{},{}]}"#)
      #expect(object.counted?.id == 2 && object.list?.count == 2)
      #expect((try? object.update(fromJSONString: #"{"counted":null,"list":[{"id":"x"}]}"#)) == nil)
      #expect(object.counted?.id == 2, "a failed update keeps what was there")
    }
    #expect(LiveCounted.live == before)
  }

  @Test("a parse that fails deep inside large containers releases what it built")
  func failingDeepParses() throws {
    _ = try [LiveCounted](jsonString: #"[{"id":1}]"#)  // the first use, which reflects
    let tracked = LiveCounted.live
    for depth in [1, 2, 100, 511, 512, 513] {
      for failure in ["", "x", "1e", "\"\u{1}\"", "[1,]", "{\"a\":}", "\"\\uD800\""] {
        let open = String(
          repeating: "[{\"k\":\"long string value number one\",\"v\":", count: depth / 2)
        let close = String(repeating: "}]", count: depth / 2)
        let text = open + "[1,2,\"three\",{\"four\":[4]}," + failure + "]" + close
        let bytes = Array(text.utf8)
        #expect(parsedExactly(bytes) == nil, "depth \(depth) \(failure)")
        #expect(withExactBuffer(bytes) { try? [LiveCounted](jsonData: $0) } == nil)
      }
    }
    // Arrays of classes that fail on their last element leave no instance alive.
    for count in [1, 5, 64, 300] {
      let elements = (0..<count).map { #"{"id":\#($0)}"# } + [#"{"id":"x"}"#]
      let text = "[" + elements.joined(separator: ",") + "]"
      #expect((try? [LiveCounted](jsonString: text)) == nil)
      #expect((try? [[LiveCounted]](jsonString: "[\(text)]")) == nil)
      #expect((try? [LiveCounted?](jsonString: text)) == nil)
      #expect((try? [LiveCounted](decode: JSON(jsonString: text))) == nil)
      let good = try [LiveCounted](
        jsonString: "[" + elements.dropLast().joined(separator: ",") + "]")
      #expect(good.map(\.id) == Array(0..<count))
    }
    #expect(LiveCounted.live == tracked)
  }
}

/// A class model that counts its live instances.
private final class LiveCounted: JSONCodable, DefaultInitable {
  nonisolated(unsafe) static var live = 0
  var id = 0
  init() { LiveCounted.live += 1 }
  deinit { LiveCounted.live -= 1 }
}

private struct FuzzInner: JSONCodable, DefaultInitable, Equatable {
  var name = ""
  var score: Double? = nil
  var tags: [String] = []
  init() {}
}

private struct FuzzModel: JSONCodable, DefaultInitable, Equatable {
  var id = 0
  var title = ""
  var ratio: Double? = nil
  var maybe: Int?? = nil
  var inner: FuzzInner? = nil
  var list: [FuzzInner] = []
  var map: [String: Int] = [:]
  var flags: [Bool]? = nil
  var color: RawShape? = nil
  var big: UInt64 = 0
  var small: Int8 = 0
  init() {}
}

private struct HoldsCounted: JSONCodable, DefaultInitable {
  var counted: LiveCounted? = nil
  var list: [LiveCounted?]? = nil
  init() {}
}

private final class HeldByClass: JSONCodable, DefaultInitable {
  var counted: LiveCounted? = nil
  var list: [LiveCounted]? = nil
  init() {}
}

private struct LossyHolder: JSONCodable, DefaultInitable {
  var models: [GenericShape<Int>] = []
  var nested: [[GenericShape<Int>]] = []
  var optionals: [GenericShape<Int>?] = []
  var counted: [LiveCounted] = []
  init() {}
  static func specificOptions() -> [String: SpecificOption] {
    ["models": .lossy, "nested": .lossy, "optionals": .lossy, "counted": .lossy]
  }
}

private struct DoubleHolder: JSONCodable {
  var value: Double = 0
}

// MARK: Optionals of every layout, generic models, arrays of models

private struct EmptyShape: JSONCodable, Equatable {}

private struct WideShape: JSONCodable, Equatable {
  var a = 1
  var b = "a string longer than fifteen bytes"
  var c = 2.5
  var d: [Int] = [1, 2]
  var e: Int8 = -3
  var f: UInt64 = .max
  var g = true
  var h: String? = "h"
}

private enum PayloadShape: JSONCodable, Codable, Equatable {
  case number(Int)
  case pair(String, Bool)
  case nothing
}

private struct HashShape: JSONCodable, Hashable {
  var n: Int
  var s: String? = nil
}

private enum RawShape: String, JSONCodable { case red, green }

private final class ClassShape: JSONCodable, DefaultInitable, Equatable {
  var id = 0
  var name: String? = nil
  init() {}
  init(id: Int, name: String?) {
    self.id = id
    self.name = name
  }
  static func == (lhs: ClassShape, rhs: ClassShape) -> Bool {
    lhs.id == rhs.id && lhs.name == rhs.name
  }
}

private struct GenericShape<Value: JSONCodable & Equatable>: JSONCodable, Equatable {
  var value: Value? = nil
  var values: [Value]? = nil
}

/// One field of a zoo model: its key, a value for it, and a check of the decoded model.
private struct ZooField<Model> {
  let key: String
  let text: String
  let check: (Model, _ present: Bool) -> Bool
}

private func zooField<Model, Value: JSONCodable & Equatable>(
  _ key: String, _ value: Value, _ path: KeyPath<Model, Value?>
) throws -> ZooField<Model> {
  let text = try value.jsonString()
  return ZooField(key: key, text: text) { model, present in
    model[keyPath: path] == (present ? value : nil)
  }
}

/// Optionals of every layout side by side; as a struct and as a class.
private protocol OptionalZoo: JSONCodable {
  var tiny: Bool? { get }
  var byte: UInt8?? { get }
  var empty: EmptyShape? { get }
  var wide: WideShape? { get }
  var payload: PayloadShape? { get }
  var payloads: [PayloadShape?]? { get }
  var raw: RawShape?? { get }
  var object: ClassShape? { get }
  var objects: [ClassShape]? { get }
  var generic: GenericShape<Int>? { get }
  var genericText: GenericShape<String>? { get }
  var nested: [[GenericShape<Int>?]]? { get }
  var json: JSON? { get }
  var text: String?? { get }
  var last: Int8? { get }
}

private struct StructZoo: OptionalZoo, DefaultInitable {
  var tiny: Bool?
  var byte: UInt8??
  var empty: EmptyShape?
  var wide: WideShape?
  var payload: PayloadShape?
  var payloads: [PayloadShape?]?
  var raw: RawShape??
  var object: ClassShape?
  var objects: [ClassShape]?
  var generic: GenericShape<Int>?
  var genericText: GenericShape<String>?
  var nested: [[GenericShape<Int>?]]?
  var json: JSON?
  var text: String??
  var last: Int8?
  init() {}
}

/// The zoo's fields in the opposite order, split between a class and its subclass.
private class ClassZooBase: JSONCodable, DefaultInitable {
  var last: Int8?
  var text: String??
  var json: JSON?
  var nested: [[GenericShape<Int>?]]?
  var genericText: GenericShape<String>?
  var generic: GenericShape<Int>?
  var objects: [ClassShape]?
  required init() {}
}

private final class ClassZoo: ClassZooBase, OptionalZoo {
  var object: ClassShape?
  var raw: RawShape??
  var payloads: [PayloadShape?]?
  var payload: PayloadShape?
  var wide: WideShape?
  var empty: EmptyShape?
  var byte: UInt8??
  var tiny: Bool?
}

private func zooFields<Model: OptionalZoo>(_: Model.Type) throws -> [ZooField<Model>] {
  [
    try zooField("tiny", true, \Model.tiny),
    try zooField("byte", UInt8?.some(200), \Model.byte),
    try zooField("empty", EmptyShape(), \Model.empty),
    try zooField("wide", WideShape(), \Model.wide),
    try zooField("payload", PayloadShape.pair("p", true), \Model.payload),
    try zooField("payloads", [.number(1), nil, .nothing], \Model.payloads),
    try zooField("raw", RawShape?.some(.green), \Model.raw),
    try zooField("object", ClassShape(id: 7, name: "seven"), \Model.object),
    try zooField("objects", [ClassShape(id: 1, name: nil), ClassShape()], \Model.objects),
    try zooField("generic", GenericShape(value: 3, values: [4]), \Model.generic),
    try zooField("genericText", GenericShape(value: "3", values: ["4"]), \Model.genericText),
    try zooField("nested", [[GenericShape(value: 1), nil], []], \Model.nested),
    try zooField("json", JSON.array([.null, .bool(false)]), \Model.json),
    try zooField("text", String?.some("a text past the small-string size"), \Model.text),
    try zooField("last", Int8(-1), \Model.last),
  ]
}

extension SpeedPathAttackTests {
  /// Every mix of absent, null and present members, through the bytes, `JSON`,
  /// `update(fromJSONData:)`, a stream and an array.
  private static func checkZoo<Model: OptionalZoo & DefaultInitable>(_: Model.Type, seed: UInt64)
    throws
  {
    let fields = try zooFields(Model.self)
    var generator = DiffRandom(seed: seed)
    for _ in 0..<150 {
      var members: [String] = []
      var present: [Bool] = []
      for field in fields {
        switch generator.below(3) {
        case 0: present.append(false)
        case 1:
          members.append("\"\(field.key)\":null")
          present.append(false)
        default:
          members.append("\"\(field.key)\":\(field.text)")
          present.append(true)
        }
      }
      members.shuffle(using: &generator)
      let text = "{" + members.joined(separator: ",") + "}"
      var updated = Model()
      try updated.update(fromJSONData: Data(text.utf8))
      let streamed = StreamRun.sync(Model.self, Data("[\(text),\(text)]".utf8), .array)
      #expect(streamed.error == nil)
      var decoded: [Model] = [
        try withExactBuffer(Array(text.utf8)) { try Model(jsonData: $0) },
        try Model(decode: JSON(jsonString: text)), updated,
      ]
      decoded += streamed.values
      decoded += try [Model](jsonString: "[\(text),\(text)]")
      decoded += try [Model?](jsonString: "[null,\(text)]").compactMap { $0 }
      for (entry, model) in decoded.enumerated() {
        for (field, isPresent) in zip(fields, present) where !field.check(model, isPresent) {
          Issue.record("\(Model.self) entry \(entry): \(field.key) wrong in \(text)")
        }
      }
    }
  }

  @Test("optionals of every layout: absent, null and present, in structs and classes")
  func optionalZoo() throws {
    try Self.checkZoo(StructZoo.self, seed: 0x3D9E)
    try Self.checkZoo(ClassZoo.self, seed: 0xC0DE)
  }

  @Test("lossy arrays of models leave out exactly the elements that fail, on both paths")
  func lossyArrays() throws {
    _ = try LossyHolder(jsonString: "{}")  // the first use, which reflects
    let before = LiveCounted.live
    var generator = DiffRandom(seed: 0x704D)
    let good = [#"{"value":1}"#, #"{"values":[2]}"#, "{}"]
    let bad = [#"{"value":"x"}"#, #"{"values":[true]}"#, "7", #""s""#, "[]"]
    for _ in 0..<200 {
      var elements: [String] = []
      var kept = 0
      for _ in 0..<generator.below(9) {
        let isGood = generator.chance(60)
        elements.append(isGood ? generator.pick(good) : generator.pick(bad))
        if isGood { kept += 1 }
      }
      let list = "[" + elements.joined(separator: ",") + "]"
      let counted =
        "["
        + elements.map { $0.replacingOccurrences(of: "value", with: "id") }
        .joined(separator: ",") + "]"
      let text =
        #"{"models":\#(list),"nested":[\#(list),[],\#(list)],"optionals":\#(list),"#
        + #""counted":\#(counted)}"#
      let fromBytes = try LossyHolder(jsonString: text)
      let fromJSON = try LossyHolder(decode: JSON(jsonString: text))
      for holder in [fromBytes, fromJSON] {
        #expect(holder.models.count == kept, "\(text)")
        // .lossy leaves out whole inner arrays that fail: it applies to one level.
        let allGood = kept == elements.count
        #expect(holder.nested.map(\.count) == (allGood ? [kept, 0, kept] : [0]))
        #expect(holder.optionals.count == kept)
      }
      #expect(fromBytes.models == fromJSON.models && fromBytes.nested == fromJSON.nested)
      #expect(fromBytes.counted.count == fromJSON.counted.count)
    }
    #expect(LiveCounted.live == before)
  }

  @Test("generic models with several arguments never share a codec")
  func genericInstantiations() throws {
    let ints = #"[{"value":1,"values":[2,3]},{"value":null}]"#
    let texts = #"[{"value":"1","values":["2"]},{}]"#
    for _ in 0..<3 {
      #expect(try [GenericShape<Int>](jsonString: ints).map(\.value) == [1, nil])
      #expect((try? [GenericShape<String>](jsonString: ints)) == nil)
      #expect(try [GenericShape<String>](jsonString: texts).map(\.values) == [["2"], nil])
      #expect((try? [GenericShape<Int>](jsonString: texts)) == nil)
      #expect(
        try [GenericShape<Int>?](jsonString: "[null,\(ints.dropFirst().dropLast())]")
          .map { $0?.value } == [nil, 1, nil])
      let nested = try [[GenericShape<[Int]>]](jsonString: #"[[{"value":[1]}],[],[{}]]"#)
      #expect(nested.map { $0.map(\.value) } == [[[1]], [], [nil]])
      let doubled = try GenericShape<GenericShape<Double>>(
        jsonString: #"{"value":{"value":0.5},"values":[{"values":[1.5]}]}"#)
      #expect(doubled.value?.value == 0.5)
      #expect(doubled.values?.first?.values == [1.5])
      let keyed = try [String: GenericShape<Bool>](jsonString: #"{"a":{"value":true},"b":{}}"#)
      #expect(keyed["a"]?.value == true && keyed["b"]?.value == nil)
      let set = try Set<Int8>(jsonString: "[1,2,2,-128]")
      #expect(set == [1, 2, -128])
      let shapes = try Set<HashShape>(jsonString: #"[{"n":1},{"n":2},{"n":1},{"n":3,"s":"é"}]"#)
      #expect(shapes == [HashShape(n: 1), HashShape(n: 2), HashShape(n: 3, s: "é")])
      let generic = try [[GenericShape<HashShape>?]](jsonString: #"[[null,{"value":{"n":4}}]]"#)
      #expect(generic == [[nil, GenericShape(value: HashShape(n: 4))]])
      let classes = try [ClassShape](jsonString: #"[{"id":1},{"id":2,"name":"b"}]"#)
      #expect(classes == [ClassShape(id: 1, name: nil), ClassShape(id: 2, name: "b")])
      #expect(classes[0] !== classes[1])
    }
  }
}
