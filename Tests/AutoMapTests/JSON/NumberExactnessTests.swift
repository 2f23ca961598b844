@_spi(Testing) import AutoMap
import Foundation
import Testing

struct Wide: JSONCodable, Equatable {
  var value: Int64
}

struct Unsigned: JSONCodable, Equatable {
  var value: UInt64
}

struct Money: JSONCodable, Equatable {
  var amount: Decimal
}

struct Measure: JSONCodable, Equatable {
  var value: Double
}

struct Recovered: JSONCodable, Equatable {
  var a: Double = 0
  var b: Float = 0
  var c: Double? = nil
  var d: [Double] = []
  static func specificOptions() -> [String: SpecificOption] {
    ["a": .defaultValue(-1.0), "b": .nonNil, "c": .lossy, "d": .lossy]
  }
}

extension Recovered: DefaultInitable {}

/// Decodes `text` through every entry point; all must agree.
private func agreed<T: JSONDecodable & Equatable>(_: T.Type, _ text: String) throws -> T {
  ProcessWideState.forgetReflection()
  let first = try T(jsonString: text)
  let bytes = try T(jsonData: Data(text.utf8))
  let tree = try T(decode: JSON(jsonString: text))
  #expect(first == bytes)
  #expect(bytes == tree)
  return tree
}

/// The error every entry point gives for `text` (they must agree).
private func agreedError<T: JSONDecodable>(_: T.Type, _ text: String) -> JSON.Error? {
  ProcessWideState.forgetReflection()
  let first = #expect(throws: JSON.Error.self) { try T(jsonString: text) }
  let bytes = #expect(throws: JSON.Error.self) { try T(jsonData: Data(text.utf8)) }
  let tree = #expect(throws: JSON.Error.self) { try T(decode: JSON(jsonString: text)) }
  #expect(first?.description == bytes?.description)
  #expect(bytes?.description == tree?.description)
  return bytes
}

extension ProcessWideState {
  @Suite("Numbers are exact", .serialized)
  struct NumberExactnessTests {
    @Test(
      "integers below Int64.min are out of range, never clamped",
      arguments: ["-9223372036854775809", "-9223372036854776832", "-18446744073709551616"])
    func belowInt64Min(text: String) throws {
      let error = agreedError(Wide.self, #"{"value": \#(text)}"#)
      #expect(error?.description == "at value: expected Int64, found number \(text) (out of range)")
      let json = try JSON(jsonString: text)
      #expect(Int64(json) == nil)
    }

    @Test("Int64.min and UInt64.max are exact")
    func limits() throws {
      #expect(try agreed(Wide.self, #"{"value": -9223372036854775808}"#).value == .min)
      #expect(try agreed(Unsigned.self, #"{"value": 18446744073709551615}"#).value == .max)
      #expect(agreedError(Unsigned.self, #"{"value": 18446744073709551616}"#) != nil)
    }

    @Test(
      "integral numbers with a fraction or exponent read exactly from their text",
      arguments: [
        ("9007199254740993.0", Int64(9_007_199_254_740_993)), ("12e2", 1200), ("1.5e1", 15),
        ("-9223372036854775808.000", .min), ("0.0", 0), ("-0", 0), ("1E+2", 100),
        ("92233720368547758.07e2", .max),
      ])
    func integralWithFraction(text: String, value: Int64) throws {
      #expect(try agreed(Wide.self, #"{"value": \#(text)}"#).value == value)
    }

    @Test(
      "numbers whose text is not integral are not integers, whatever their Double",
      arguments: ["1.00000000000000001", "1e-400", "0.5", "9007199254740993.5"])
    func notIntegral(text: String) {
      let error = agreedError(Wide.self, #"{"value": \#(text)}"#)
      #expect(error?.description.hasSuffix("(not an integer)") == true)
    }

    @Test("integral numbers beyond 64 bits are out of range")
    func integralOutOfRange() {
      for text in ["1e19", "9223372036854775808.0", "123456789012345678901234567890"] {
        let error = agreedError(Wide.self, #"{"value": \#(text)}"#)
        #expect(error?.description.hasSuffix("(out of range)") == true, "\(text)")
      }
    }

    @Test(
      "Decimal reads every digit it holds and writes them back",
      arguments: [
        "0.10000000000000001", "-65.613616999999977", "9007199254740993",
        "123456789012345678901234567890", "0.1", "-1.5", "3.14159265358979323846264338327950288",
      ])
    func decimals(text: String) throws {
      let money = try agreed(Money.self, #"{"amount": \#(text)}"#)
      #expect(money.amount == Decimal(string: text))
      let written = try money.jsonString()
      #expect(try Money(jsonString: written) == money)
      #expect(try money.json == JSON(jsonString: written))
      if text.count <= 38 { #expect(written == #"{"amount":\#(text)}"#) }
    }

    @Test("a Decimal writes exactly, integers included")
    func decimalWrites() throws {
      let exact = try #require(Decimal(string: "9007199254740993"))
      #expect(try Money(amount: exact).jsonString() == #"{"amount":9007199254740993}"#)
      #expect(try Money(amount: 12).jsonString() == #"{"amount":12}"#)
    }

    @Test("-0 keeps its sign")
    func negativeZero() throws {
      for text in ["-0", "-0.0", "-0e5"] {
        let value = try agreed(Measure.self, #"{"value": \#(text)}"#).value
        #expect(value == 0 && value.sign == .minus, "\(text)")
      }
      #expect(try Double(decode: JSON(jsonString: "-0")).sign == .minus)
      #expect(try [Double](jsonString: "[-0]")[0].sign == .minus)
    }

    @Test("a number beyond Double's range is an unusable value that options recover")
    func outOfDoubleRange() throws {
      // From text, on first and later uses alike: a mapping error at the property's path.
      ProcessWideState.forgetReflection()
      let first = #expect(throws: JSON.Error.self) { try Measure(jsonString: #"{"value": 1e400}"#) }
      let error = #expect(throws: JSON.Error.self) { try Measure(jsonString: #"{"value": 1e400}"#) }
      #expect(first?.description == error?.description)
      #expect(error?.description == "at value: expected Double, found number 1e400 (out of range)")
      #expect(error?.kind == .typeMismatch)
      // A `JSON` value cannot hold it: JSON(jsonString:) already refuses it, with its position.
      #expect(throws: JSON.Error.self) {
        try Measure(decode: JSON(jsonString: #"{"value": 1e400}"#))
      }
      #expect(throws: JSON.Error.self) { try Double(decode: JSON(Double.infinity)) }
      let text = #"{"a": 1e400, "b": -1e400, "c": 1e999, "d": [1, 1e400, 2]}"#
      ProcessWideState.forgetReflection()
      let firstUse = try Recovered(jsonString: text)
      let later = try Recovered(jsonString: text)
      #expect(firstUse == later)
      #expect(later == Recovered(a: -1, b: 0, c: nil, d: [1, 2]))
      // A JSON property keeps the number, and writes it back as it was.
      struct Raw: JSONCodable { var raw: JSON }
      #expect(try Raw(jsonString: #"{"raw": [1e400]}"#).jsonString() == #"{"raw":[1e400]}"#)
    }

    @Test("JSON(jsonData:) reports a number beyond Double's range with its position")
    func parseOutOfRange() {
      let error = #expect(throws: JSON.Error.self) { try JSON(jsonString: "[1,\n 1e400]") }
      #expect(error?.kind == .numberOutOfRange(offset: 5, line: 2, column: 2))
      #expect(
        error?.description
          == "number out of range at byte 5 (line 2, column 2): 1e400 is beyond the range of Double"
      )
    }

    @Test("equal values are equal numbers, exactly for integers")
    func equality() throws {
      let exact = try JSON(jsonString: "9007199254740993.0")
      #expect(exact == JSON(Int64(9_007_199_254_740_993)))
      #expect(exact != JSON(Int64(9_007_199_254_740_992)))
      #expect(try JSON(jsonString: "1.0") == 1)
      #expect(try JSON(jsonString: "12e2") == 1200)
      #expect(try JSON(jsonString: "0.1") == 0.1)
      let one = try JSON(jsonString: "1.0")
      let set: Set<JSON> = [one, 1, try JSON(jsonString: "1e0")]
      #expect(set.count == 1)
    }

    @Test("parsed numbers compare as their values, whatever their spelling")
    func parsedEquality() throws {
      // `==` decides two parsed decimals from their doubles and digits when it can. Below
      // 2^53 every integer is a double, so equal values are exactly equal doubles.
      var random = DiffRandom(seed: 0x0E0A_15)
      func spelling(_ integer: Int, _ scale: Int) -> String {
        // integer × 10^-scale, written with extra zeros, as an exponent, or signed.
        let digits = String(integer.magnitude)
        let sign = integer < 0 ? "-" : ""
        switch integer == 0 ? 0 : random.below(3) {
        case 0: return "\(sign)\(digits)e-\(scale)"
        case 1:
          let padded = String(repeating: "0", count: max(0, scale + 1 - digits.count)) + digits
          let cut = padded.count - scale
          return "\(sign)\(padded.prefix(cut)).\(padded.dropFirst(cut))"
            + String(repeating: "0", count: random.below(3))
        default: return "\(sign)\(digits)0e-\(scale + 1)"
        }
      }
      for _ in 0..<3_000 {
        let integer = random.below(2_000) - 1_000
        let scale = 1 + random.below(6)
        let other = random.chance(50) ? integer : integer + random.below(3) - 1
        let a = try JSON(jsonString: spelling(integer, scale))
        let b = try JSON(jsonString: spelling(other, random.chance(70) ? scale : scale + 1))
        guard case .number(let x) = a, case .number(let y) = b else {
          Issue.record("not numbers: \(a), \(b)")
          continue
        }
        #expect((a == b) == (x.doubleValue == y.doubleValue), "\(a) and \(b)")
        if a == b { #expect(a.hashValue == b.hashValue, "\(a) and \(b) hash apart") }
      }
      let pairs: [(String, String, Bool)] = [
        ("-0.0", "0.0", true), ("-1.5", "1.5", false), ("1.50", "1.5", true),
        ("9007199254740993.0", "9007199254740993", true),
        ("9007199254740993.0", "9007199254740992.0", false),
        ("12e2", "1200.0", true), ("0.1", "0.10000000000000001", true),
      ]
      for (first, second, equal) in pairs {
        #expect(
          (try JSON(jsonString: first) == JSON(jsonString: second)) == equal, "\(first) \(second)")
      }
    }

    @Test(
      "parsed numbers write back with the digits they were read with",
      arguments: [
        "[0.1]", "[-65.613616999999977]", "[12.50]", "[1.5e10]", "[0.00125]", "[-0]", "[-0.0]",
        "[1e-300]", "[123456789012345678901234567890]", "[9007199254740993.0]",
      ])
    func digitsRoundTrip(text: String) throws {
      let json = try JSON(jsonString: text)
      let written = try json.jsonString()
      // The same digits (an exponent may be respelled: 1.5e10 is written 15e9), the same value.
      #expect(Self.digits(written) == Self.digits(text), "\(text) written \(written)")
      #expect(String(decoding: try json.jsonData(), as: UTF8.self) == written)
      #expect(try JSON(jsonString: written) == json)
    }

    /// The significant digits of a number's text: its mantissa's digits, leading zeros left out.
    static func digits(_ text: String) -> String {
      String(text.prefix { $0 != "e" && $0 != "E" }.filter(\.isNumber).drop { $0 == "0" })
    }

    @Test("doubles are correctly rounded, near halfway points and across exponents")
    func correctlyRounded() throws {
      var texts = [
        "9007199254740993e0", "9007199254740993.0", "9007199254740995e0", "18014398509481993e-1",
        "0.1", "0.3", "-65.613616999999977", "1.7976931348623157e308", "2.2250738585072011e-308",
        "2.2250738585072014e-308", "4.9e-324", "1e-400", "123456789012345678e-27",
        "7.450580596923828125e-9", "1.00000000000000011102230246251565404236316680908203125",
        "9223372036854775807e55", "18446744073709551615e-27", "1e23", "8.98846567431158e307",
      ]
      var generator = DiffRandom(seed: 8)  // the differential test's SplitMix64
      for _ in 0..<20_000 {
        let significand = generator.next() >> (generator.next() % 12)
        let exponent = Int(generator.next() % 100) - 40
        let digits = String(significand)
        let point = Int(generator.next() % UInt64(digits.count + 1))
        let fraction = point == digits.count ? "" : "." + digits.dropFirst(point)
        let integer = point == 0 ? "0" : String(digits.prefix(point))
        let sign = generator.next() % 2 == 0 ? "" : "-"
        texts.append("\(sign)\(integer)\(fraction)e\(exponent)")
      }
      for text in texts {
        let expected = try #require(Double(text))
        let parsed = try #require(Double(JSON(jsonString: text)))
        #expect(parsed.bitPattern == expected.bitPattern, "\(text)")
        #expect(try Double(jsonString: text).bitPattern == expected.bitPattern, "\(text)")
      }
    }

    @Test("a JSON value stays 24 bytes")
    func layout() {
      #expect(MemoryLayout<JSON>.stride == 24)
    }
  }
}
