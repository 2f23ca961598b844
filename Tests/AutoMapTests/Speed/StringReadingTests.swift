import AutoMap
import Foundation
import Testing

// The reader's string fast paths (word-wise scanning to the first stop byte, escapes resolved
// straight into the new string, keys recognized without scanning) against the simple way,
// spelled out here one scalar or byte at a time.

/// `string` as a JSON string literal whose every scalar is spelled one of the ways RFC 8259
/// allows, chosen at random: as itself, as `\uXXXX` (a surrogate pair above U+FFFF, hex
/// digits in either case), or with its two-character escape.
func randomlySpelled(_ string: String, _ generator: inout DiffRandom) -> String {
  func hex(_ unit: UInt32) -> String {
    let digits = String(unit, radix: 16, uppercase: generator.chance(50))
    return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
  }
  var out = "\""
  for scalar in string.unicodeScalars {
    let short: String? =
      switch scalar {
      case "\"": "\\\""
      case "\\": "\\\\"
      case "/": "\\/"
      case "\n": "\\n"
      case "\r": "\\r"
      case "\t": "\\t"
      case "\u{08}": "\\b"
      case "\u{0C}": "\\f"
      default: nil
      }
    let mustEscape = scalar.value < 0x20 || scalar == "\"" || scalar == "\\"
    if !mustEscape, generator.chance(50) {
      out.unicodeScalars.append(scalar)
    } else if let short, generator.chance(50) {
      out += short
    } else if scalar.value > 0xFFFF {
      let offset = scalar.value - 0x10000
      out += hex(0xD800 + offset >> 10) + hex(0xDC00 + offset & 0x3FF)
    } else {
      out += hex(scalar.value)
    }
  }
  return out + "\""
}

/// The bytes a string literal's content stands for, escapes resolved one at a time (the
/// content is known to be well-formed apart from its raw bytes).
func simplyUnescaped(_ content: [UInt8]) -> [UInt8] {
  var out: [UInt8] = []
  var index = 0
  func hex4(_ at: Int) -> UInt32 {
    UInt32(String(decoding: content[at..<at + 4], as: UTF8.self), radix: 16) ?? 0
  }
  while index < content.count {
    guard content[index] == UInt8(ascii: "\\") else {
      out.append(content[index])
      index += 1
      continue
    }
    let kind = content[index + 1]
    index += 2
    switch kind {
    case UInt8(ascii: "n"): out.append(0x0A)
    case UInt8(ascii: "t"): out.append(0x09)
    case UInt8(ascii: "r"): out.append(0x0D)
    case UInt8(ascii: "b"): out.append(0x08)
    case UInt8(ascii: "f"): out.append(0x0C)
    case UInt8(ascii: "u"):
      var value = hex4(index)
      index += 4
      if (0xD800...0xDBFF).contains(value) {
        value = 0x10000 + (value - 0xD800) << 10 + (hex4(index + 2) - 0xDC00)
        index += 6
      }
      out += Array(String(Unicode.Scalar(value) ?? "?").utf8)
    default: out.append(kind)
    }
  }
  return out
}

/// A model whose keys need no escaping, so the byte path recognizes them without scanning;
/// absent keys keep the defaults.
struct NamedText: JSONCodable, DefaultInitable, Equatable {
  var name = ""
  var text = ""
  init() {}
  init(name: String, text: String) {
    self.name = name
    self.text = text
  }
}

@Suite("String reading agrees with the simple way")
struct StringReadingTests {
  @Test("every spelling of a string reads as the string, as value, key and skipped member")
  func escapedSpellings() throws {
    var generator = DiffRandom(seed: 91)
    for _ in 0..<5_000 {
      let string = randomString(&generator)
      let literal = randomlySpelled(string, &generator)
      #expect(try JSON(jsonString: literal) == .string(string), "\(literal)")
      let document = #"{"name":\#(literal),"text":\#(literal)}"#
      let expected = NamedText(name: string, text: string)
      #expect(try NamedText(jsonString: document) == expected, "\(document)")
      #expect(try NamedText(decode: JSON(jsonString: document)) == expected)
      // As a key: the object's member, and a model key spelled with escapes.
      #expect(try JSON(jsonString: "{\(literal):1}")[.key(string)] == 1)
      #expect(try SkipsUnknown(jsonString: "{\(literal):\(literal),\"known\":2}").known == 2)
    }
  }

  @Test("strings mixing escapes with invalid bytes are rejected exactly when invalid")
  func invalidBytesAmongEscapes() throws {
    var generator = DiffRandom(seed: 92)
    let pieces: [[UInt8]] = [
      Array("a".utf8), Array("\\n".utf8), Array("\\u00e9".utf8), Array("\\uD83D\\uDE00".utf8),
      Array("é".utf8), Array("語".utf8), Array("😀".utf8), Array("\\\"".utf8), [0xC3], [0x80],
      [0xE8, 0xAA], [0xF0, 0x9F], [0xFF], [0xED, 0xA0, 0x80], Array("abcdefgh".utf8),
    ]
    for _ in 0..<20_000 {
      var content: [UInt8] = []
      for _ in 0..<generator.below(12) { content += generator.pick(pieces) }
      let reference = referenceString(validating: simplyUnescaped(content))
      let literal = [UInt8(ascii: "\"")] + content + [UInt8(ascii: "\"")]
      let parsed = try? JSON(jsonData: Data(literal))
      #expect(parsed == reference.map(JSON.string), "\(content)")
      let document = Data(#"{"name":"x","text":"#.utf8) + literal + Data("}".utf8)
      #expect((try? NamedText(jsonData: document))?.text == reference, "\(content)")
      let skipped = Data(#"{"other":"#.utf8) + literal + Data(#","known":1}"#.utf8)
      #expect((try? SkipsUnknown(jsonData: skipped)) != nil ? reference != nil : reference == nil)
    }
  }

  @Test("raw UTF-8 is accepted exactly when the standard library accepts it, wherever it sits")
  func rawUTF8AgreesWithStandardLibrary() throws {
    var generator = DiffRandom(seed: 3629)
    // Every boundary of the grammar's byte ranges, whole characters of each length, and
    // ASCII runs of every length around the eight-byte step.
    let edges: [UInt8] = [
      0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC,
      0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
    ]
    let characters: [[UInt8]] = [
      Array("é".utf8), Array("語".utf8), Array("😀".utf8), Array("\u{10FFFF}".utf8),
    ]
    for _ in 0..<30_000 {
      var content: [UInt8] = []
      for _ in 0..<generator.below(10) {
        switch generator.below(3) {
        case 0: content.append(generator.pick(edges))
        case 1: content += generator.pick(characters)
        default: content += Array(repeating: UInt8(ascii: "a"), count: generator.below(10))
        }
      }
      let reference = referenceString(validating: content)
      let valid = reference != nil
      let literal = [UInt8(ascii: "\"")] + content + [UInt8(ascii: "\"")]
      #expect((try? JSON(jsonData: Data(literal))) == reference.map(JSON.string), "\(content)")
      let named = Data(#"{"name":"x","text":"#.utf8) + literal + Data("}".utf8)
      #expect((try? NamedText(jsonData: named))?.text == reference, "\(content)")
      let member = Data(#"{"other":"#.utf8) + literal + Data(#","known":1}"#.utf8)
      #expect((try? SkipsUnknown(jsonData: member)) != nil ? valid : !valid, "\(content)")
      let key = Data("{".utf8) + literal + Data(":1}".utf8)
      #expect((try? JSON(jsonData: key)) != nil ? valid : !valid, "\(content)")
    }
  }

  @Test("keys are recognized by their bytes only when the text spells exactly them")
  func predictedKeys() throws {
    // Near misses of the expected key: prefixes, extensions, escapes, case, the end of input.
    let documents: [(String, NamedText?)] = [
      (#"{"name":"a","text":"b"}"#, NamedText(name: "a", text: "b")),
      (#"{"nam":"a","text":"b"}"#, NamedText(name: "", text: "b")),
      (#"{"names":"a","text":"b"}"#, NamedText(name: "", text: "b")),
      (#"{"n\u0061me":"a","text":"b"}"#, NamedText(name: "a", text: "b")),
      (#"{"Name":"a","text":"b"}"#, NamedText(name: "", text: "b")),
      (#"{"name\"":"a","text":"b"}"#, NamedText(name: "", text: "b")),
      (#"{"text":"b","name":"a"}"#, NamedText(name: "a", text: "b")),
      (#"{"name":"a","text":"b","name":"c"}"#, NamedText(name: "c", text: "b")),
      (#"{"name""#, nil),
      (#"{"name"#, nil),
      (#"{"name":"a","text"#, nil),
    ]
    for (text, expected) in documents {
      #expect((try? NamedText(jsonString: text)) == expected, "\(text)")
      #expect((try? NamedText(decode: JSON(jsonString: text))) == expected, "\(text)")
    }
  }
}
