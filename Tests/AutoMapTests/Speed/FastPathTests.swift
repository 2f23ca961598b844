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

/// A model whose arrays take the inline scalar-array writers.
struct ScalarArrays: JSONCodable, Equatable {
  var doubles: [Double] = []
  var ints: [Int] = []
  var wides: [Int64] = []
  var strings: [String] = []
  var flags: [Bool] = []
  var rings: [[Double]] = []
  var grid: [[Int]] = []
}

/// A model that skips every member but one.
struct SkipsUnknown: JSONCodable, Equatable {
  var known: Int? = nil
}

/// Keys that sort differently by their own bytes and by their quoted, escaped form.
struct AwkwardKeys: JSONCodable, Equatable {
  var plain = 1
  var bang = 2
  var quote = 3
  var space = 4
  var hash = 5
  static func specificOptions() -> [String: SpecificOption] {
    [
      "plain": .index(["a"]), "bang": .index(["a!"]), "quote": .index(["a\""]),
      "space": .index(["a "]), "hash": .index(["a#"]),
    ]
  }
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

  @Test("the inline scalar-array writers give what the JSON path gives")
  func scalarArrays() throws {
    var generator = DiffRandom(seed: 26)
    func some<T>(_ generator: inout DiffRandom, _ make: (inout DiffRandom) -> T) -> [T] {
      (0..<generator.below(6)).map { _ in make(&generator) }
    }
    func double(_ generator: inout DiffRandom) -> Double {
      generator.chance(50)
        ? Double(bitPattern: generator.next() & ~(0x7FF << 52)) * 1e300
        : Double(generator.below(1 << 20)) / 64
    }
    for _ in 0..<3_000 {
      let model = ScalarArrays(
        doubles: some(&generator, double),
        ints: some(&generator) { Int(bitPattern: UInt($0.next())) },
        wides: some(&generator) { Int64(bitPattern: $0.next()) },
        strings: some(&generator, randomString),
        flags: some(&generator) { $0.chance(50) },
        rings: some(&generator) { some(&$0, double) },
        grid: some(&generator) { some(&$0) { Int($0.below(1000)) - 500 } })
      for options: JSON.WritingOptions in [[], .sortedKeys, .prettyPrinted] {
        let viaBytes = try model.jsonData(options: options)
        #expect(viaBytes == (try model.json.jsonData(options: options)))
        #expect(try ScalarArrays(jsonData: viaBytes) == model)
      }
    }
    // A value that cannot be written names its place on both paths.
    let bad = ScalarArrays(rings: [[1], [2, .nan]])
    let viaBytes = #expect(throws: JSON.Error.self) { try bad.jsonData() }
    let viaJSON = #expect(throws: JSON.Error.self) { try bad.json.jsonData() }
    #expect(viaBytes?.description == viaJSON?.description)
    #expect(
      viaBytes?.description.contains("rings[1][1]") == true, "\(String(describing: viaBytes))")
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

  @Test("whitespace runs of any length and mix parse as no whitespace does")
  func whitespace() throws {
    var generator = DiffRandom(seed: 24)
    let compact = #"{"a":[1,{"b":"x y","c":[true,false,null]},-2.5e3],"d":{},"e":[],"f":"\\"}"#
    let expected = try JSON(jsonString: compact)
    let breaks = Set("{}[],:".utf8)
    for _ in 0..<2_000 {
      var text: [UInt8] = []
      var inString = false
      for byte in compact.utf8 {
        if byte == UInt8(ascii: "\""), text.last != UInt8(ascii: "\\") { inString.toggle() }
        text.append(byte)
        guard !inString, breaks.contains(byte) else { continue }
        for _ in 0..<generator.below(generator.chance(30) ? 40 : 4) {
          text.append(generator.chance(80) ? 0x20 : generator.pick([0x0A, 0x0D, 0x09]))
        }
      }
      #expect(
        try JSON(jsonData: Data(text)) == expected, "\(String(decoding: text, as: UTF8.self))")
    }
  }

  @Test("strings are valid UTF-8 exactly when the standard library says so, on every path")
  func utf8Validation() throws {
    var generator = DiffRandom(seed: 25)
    for _ in 0..<20_000 {
      // Valid text with, sometimes, one byte changed to anything but a quote, a backslash
      // or a control character.
      var bytes = Array(randomString(&generator).utf8).filter {
        $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
      }
      if !bytes.isEmpty, generator.chance(40) {
        bytes[generator.below(bytes.count)] = UInt8(0x20 + generator.below(0xE0))
        bytes.removeAll { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
      }
      let valid = referenceString(validating: bytes) != nil
      let quoted = Data([UInt8(ascii: "\"")] + bytes + [UInt8(ascii: "\"")])
      #expect((try? JSON(jsonData: quoted)) != nil || !valid)
      #expect((try? JSON(jsonData: quoted)) == nil || valid)
      // Skipped as an unknown member of a model: still checked.
      let member = Data(#"{"unknown":"#.utf8) + quoted + Data(#","known":1}"#.utf8)
      #expect((try? SkipsUnknown(jsonData: member)) != nil || !valid)
      #expect((try? SkipsUnknown(jsonData: member)) == nil || valid)
    }
  }

  @Test("mapping from JSON finds members in any order")
  func memberOrder() throws {
    var generator = DiffRandom(seed: 26)
    let model = Leaves(
      text: "t", maybeText: "m", number: 1, maybeNumber: 2, ratio: 0.5, maybeRatio: nil,
      flag: true, maybeFlag: false, wide: 3, narrow: 4)
    guard case .object(let object) = try model.json else {
      throw JSON.Error.custom("not an object")
    }
    for _ in 0..<500 {
      var members = object.members.map { ($0.key, $0.value) }
      members.shuffle(using: &generator)
      if generator.chance(30) { members.removeAll { $0.0 == "maybeText" } }
      let shuffled = JSON.object(JSON.Object(members))
      var expected = model
      if !members.contains(where: { $0.0 == "maybeText" }) { expected.maybeText = nil }
      #expect(try Leaves(decode: shuffled) == expected)
      #expect(try Leaves(jsonData: shuffled.jsonData()) == expected)
    }
  }

  @Test(".sortedKeys orders by the keys' bytes on the byte path as on the JSON path")
  func sortedKeys() throws {
    let model = AwkwardKeys()
    for options: JSON.WritingOptions in [.sortedKeys, [.sortedKeys, .prettyPrinted]] {
      let viaBytes = try model.jsonString(options: options)
      #expect(viaBytes == (try model.json.jsonString(options: options)))
    }
    #expect(try model.jsonString(options: .sortedKeys) == #"{"a":1,"a ":4,"a!":2,"a\"":3,"a#":5}"#)
  }
}
