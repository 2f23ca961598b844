import AutoMap
import Foundation
import Testing

@Suite("Parser")
struct ParserTests {
  @Test("parses every kind of value")
  func kinds() throws {
    let json = try JSON(
      jsonString:
        #" {"s": "x", "n": -1.5e3, "i": 42, "t": true, "f": false, "z": null, "a": [1, [2]], "o": {}} "#
    )
    #expect(json["s"] == "x")
    #expect(json["n"] == -1500.0)
    #expect(json["i"] == 42)
    #expect(json["t"] == true)
    #expect(json["f"] == false)
    #expect(json["z"] == nil)
    #expect(json["a"] == [1, [2]])
    #expect(json["o"] == [:])
    #expect(json.object?.keys == ["s", "n", "i", "t", "f", "z", "a", "o"])
  }

  @Test("keeps integers exact across Int64 and UInt64")
  func integerLimits() throws {
    let json = try JSON(
      jsonString:
        "[9223372036854775807, -9223372036854775808, 18446744073709551615, 18446744073709551616]")
    #expect(Int64(json[0]) == .max)
    #expect(Int64(json[1]) == .min)
    #expect(UInt64(json[2]) == .max)
    #expect(Int64(json[2]) == nil)
    #expect(UInt64(json[3]) == nil, "2^64 does not fit and is read as a double")
    #expect(Double(json[3]) == 18_446_744_073_709_551_616.0)
  }

  @Test(
    "doubles are correctly rounded",
    arguments: [
      "0.1", "1e-7", "2.2250738585072014e-308", "4.9e-324", "1.7976931348623157e308",
      "-65.613616999999977", "0.30000000000000004", "123456789012345678901234567890",
      "9007199254740993", "1.00000000000000011102230246251565404236316680908203125",
    ])
  func doubleRounding(text: String) throws {
    let json = try JSON(jsonString: text)
    #expect(Double(json) == Double(text), "\(text)")
  }

  @Test("duplicate keys keep the last value at the first position")
  func duplicateKeys() throws {
    let json = try JSON(jsonString: #"{"a": 1, "b": 2, "a": 3}"#)
    #expect(json.object?.keys == ["a", "b"])
    #expect(json["a"] == 3)
    // Also in large objects, which use a hash table.
    let many = (0..<40).map { "\"k\($0)\": \($0)" }.joined(separator: ",")
    let large = try JSON(jsonString: "{\(many), \"k7\": 700}")
    #expect(large.count == 40)
    #expect(large["k7"] == 700)
    #expect(large["k39"] == 39)
  }

  @Test("strings: escapes, surrogate pairs, non-ASCII")
  func strings() throws {
    let json = try JSON(
      jsonString: #"["a\"b\\c\/d\b\f\n\r\t", "\u00e9\u4e2d\ud83d\ude00", "Zoë 東京 😀"]"#)
    #expect(json[0] == "a\"b\\c/d\u{8}\u{c}\n\r\t")
    #expect(json[1] == "é中😀")
    #expect(json[2] == "Zoë 東京 😀")
  }

  @Test("skips a UTF-8 byte order mark")
  func byteOrderMark() throws {
    #expect(try JSON(jsonData: Data([0xEF, 0xBB, 0xBF]) + Data("[1]".utf8)) == [1])
  }

  @Test("nesting is bounded: 512 levels parse, 513 and 100 000 are errors")
  func depthLimit() throws {
    let ok = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
    #expect(try JSON(jsonString: ok).count == 1)
    for depth in [513, 100_000] {
      let error = #expect(throws: JSON.Error.self) {
        try JSON(jsonString: String(repeating: "[", count: depth))
      }
      #expect(error?.kind == .tooDeep(limit: 512))
    }
  }
}
