import AutoMap
import Foundation
import Testing

// Each technique that makes a path fast, checked against the simple way of doing the same
// thing on random input: what the fast code must produce is spelled out here, slowly.

/// A model whose fields take the inline leaf paths of the encode loop.
struct Leaves: JSONCodable, Equatable {
  var text = ""
  var maybeText: String? = nil
  var number = 0
  var maybeNumber: Int? = nil
  var ratio = 0.0
  var maybeRatio: Double? = nil
  var flag = false
  var maybeFlag: Bool? = nil
  var wide: Int64 = 0
  var narrow: Int32 = 0
}

/// Strings of every escape and code point class, at lengths around the 8-byte words the
/// scanners use.
func randomString(_ generator: inout DiffRandom) -> String {
  let classes: [ClosedRange<UInt32>] = [
    0x00...0x1F, 0x20...0x7E, 0x22...0x22, 0x5C...0x5C, 0x7F...0x7F, 0x80...0x7FF,
    0x800...0xD7FF, 0xE000...0xFFFF, 0x10000...0x10FFFF,
  ]
  let length = generator.below(40)
  var scalars = String.UnicodeScalarView()
  for _ in 0..<length {
    // Mostly plain ASCII, as real text is, with every class present.
    let range = generator.chance(70) ? classes[1] : generator.pick(classes)
    let value =
      range.lowerBound + UInt32(generator.below(Int(range.upperBound - range.lowerBound) + 1))
    scalars.append(Unicode.Scalar(value) ?? "x")
  }
  return String(scalars)
}

/// RFC 8259 escaping, one scalar at a time: what the word-at-a-time writer must match.
func simplyQuoted(_ string: String) -> String {
  var out = "\""
  for scalar in string.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case "\r": out += "\\r"
    case "\t": out += "\\t"
    case "\u{08}": out += "\\b"
    case "\u{0C}": out += "\\f"
    case "\u{00}"..."\u{1F}":
      let hex = String(scalar.value, radix: 16)
      out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    default: out.unicodeScalars.append(scalar)
    }
  }
  return out + "\""
}

@Suite("Fast paths agree with the simple way")
struct FastPathTests {
  @Test("strings are escaped as RFC 8259 says, by every writer, and read back")
  func stringEscaping() throws {
    var generator = DiffRandom(seed: 21)
    for _ in 0..<10_000 {
      let string = randomString(&generator)
      let expected = simplyQuoted(string)
      #expect(try JSON.string(string).jsonString() == expected)
      #expect(try string.jsonString() == expected)
      let model = Leaves(text: string, maybeText: string)
      let written = try model.jsonString()
      #expect(written.contains(#""text":\#(expected)"#), "\(expected)")
      let readBack = try Leaves(jsonString: written)
      #expect(readBack.text.utf8.elementsEqual(string.utf8))
      #expect(readBack == model)
      #expect(try JSON(jsonString: expected) == .string(string))
    }
  }

  @Test("the inline leaf writers give what the JSON path gives")
  func leaves() throws {
    var generator = DiffRandom(seed: 22)
    for _ in 0..<5_000 {
      let optional = generator.chance(50)
      let model = Leaves(
        text: randomString(&generator), maybeText: optional ? randomString(&generator) : nil,
        number: Int(bitPattern: UInt(generator.next())),
        maybeNumber: optional ? Int(bitPattern: UInt(generator.next())) : nil,
        ratio: Double(bitPattern: generator.next() & ~(0x7FF << 52)) * 1e300,
        maybeRatio: optional ? Double(generator.below(1 << 20)) / 64 : nil,
        flag: generator.chance(50), maybeFlag: optional ? generator.chance(50) : nil,
        wide: Int64(bitPattern: generator.next()),
        narrow: Int32(truncatingIfNeeded: generator.next()))
      let viaBytes = try model.jsonData()
      var reference = try model.json.jsonData()
      #expect(viaBytes == reference)
      #expect(try Leaves(jsonData: viaBytes) == model)
      for options: JSON.WritingOptions in [.sortedKeys, .prettyPrinted, .omitNulls] {
        reference = try JSON(jsonData: model.json.jsonData(options: options)).jsonData()
        #expect(try JSON(jsonData: model.jsonData(options: options)).jsonData() == reference)
      }
    }
  }

  @Test("doubles are written as Double.description writes them, and read back exactly")
  func doubles() throws {
    var generator = DiffRandom(seed: 23)
    var values: [Double] = [
      0, -0.0, 1, -1, 0.1, 1e-5, 1e16, 1e15, 123456789012345680, .leastNonzeroMagnitude,
      .leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .ulpOfOne,
      -65.61361699999998, 100, 1e22, 1e23,
    ]
    for _ in 0..<1_000_000 {
      // Any bit pattern (every exponent), and short decimals as documents hold them.
      let bits = Double(bitPattern: generator.next())
      values.append(
        bits.isFinite ? bits : Double(Int64(bitPattern: generator.next()) % 10_000_000) / 1000)
    }
    var model = Leaves()
    for value in values {
      let text = try JSON(value).jsonString()
      #expect(text == value.description)
      #expect(try Double(jsonString: text).bitPattern == value.bitPattern)
      if value.bitPattern & 0xFFFF == 0 {  // a sample through the model path
        model.ratio = value
        #expect(try model.jsonString().contains(#""ratio":\#(value.description),"#))
      }
    }
  }
}
