@_spi(Testing) import AutoMap
import Foundation
import Testing

// JSON keys are the same key when their UTF-8 bytes are (RFC 8259 §8.3). Swift's `String ==`
// is canonical equivalence, under which "é" (U+00E9) equals "e" + U+0301 and the Kelvin sign
// U+212A equals "K". Every path must use the bytes.

private let composed = "caf\u{E9}"
private let decomposed = "cafe\u{301}"
private let kelvin = "\u{212A}"

struct TwoCafes: JSONCodable, Equatable {
  var composed = 0
  var decomposed = 0
  var kelvin = 0
  var letter = 0
  static func specificOptions() -> [String: SpecificOption] {
    [
      "composed": .index(["caf\u{E9}"]), "decomposed": .index(["cafe\u{301}"]),
      "kelvin": .index(["\u{212A}"]), "letter": .index(["K"]),
    ]
  }
}

@Suite("Keys are compared by their bytes on every path", .serialized)
struct KeyBytesTests {
  @Test("canonically equal keys that differ in bytes stay two keys when parsed")
  func parsedObjects() throws {
    #expect(composed == decomposed && kelvin == "K")  // the trap: Swift says equal
    // Small (filter), past 16 members (lookup table) and past 64 (parser's hash index).
    for padding in [0, 20, 100] {
      let filler = (0..<padding).map { #""k\#($0)":0,"# }.joined()
      let text = #"{\#(filler)"caf\u00e9":1,"cafe\u0301":2,"\u212a":3,"K":4}"#
      let object = try #require(try JSON(jsonString: text).object)
      #expect(object.count == padding + 4)
      #expect(object[composed] == 1)
      #expect(object[decomposed] == 2)
      #expect(object[kelvin] == 3)
      #expect(object["K"] == 4)
      #expect(object.index(forKey: decomposed) == padding + 1)
    }
  }

  @Test("a repeated key is a byte-for-byte repeat, also when written with escapes")
  func repeats() throws {
    let text = #"{"caf\u00e9":1,"cafe\u0301":2,"café":3}"#
    let object = try #require(try JSON(jsonString: text).object)
    #expect(object.keys == [composed, decomposed])
    #expect(object[composed] == 3 && object[decomposed] == 2)
  }

  @Test("building, editing and comparing objects uses the bytes")
  func objectAPI() {
    var object: JSON.Object = [composed: 1]
    object[decomposed] = 2
    #expect(object.count == 2)
    object[decomposed] = nil
    #expect(object.keys == [composed])
    let a: JSON.Object = [composed: 1]
    let b: JSON.Object = [decomposed: 1]
    #expect(a != b)
    #expect(JSON.object(a) != JSON.object(b))
    var large = JSON.Object((0..<40).map { ("k\($0)", JSON(integerLiteral: $0)) })
    large[kelvin] = 1
    large["K"] = 2
    #expect(large.count == 42 && large[kelvin] == 1 && large["K"] == 2)
    large[kelvin] = nil
    #expect(large.count == 41 && large[kelvin] == nil && large["K"] == 2)
  }

  @Test("models: every entry point reads each field from its own key")
  func models() throws {
    let text = #"{"caf\u00e9":1,"cafe\u0301":2,"\u212a":3,"K":4}"#
    let decoded = try agreedDecoding(TwoCafes.self, text)?.get()
    #expect(decoded == TwoCafes(composed: 1, decomposed: 2, kelvin: 3, letter: 4))
    // Swapped order: still by bytes, not by position.
    let swapped = #"{"K":4,"\u212a":3,"cafe\u0301":2,"caf\u00e9":1}"#
    #expect(try agreedDecoding(TwoCafes.self, swapped)?.get() == decoded)
    // Only the decomposed key present: the composed key is missing, on every path.
    let one = #"{"cafe\u0301":2,"K":4,"\u212a":3}"#
    let missing = agreedDecoding(TwoCafes.self, one)
    #expect(throws: JSON.Error.self) { try missing?.get() }
    if case .failure(let error) = missing { #expect(error.path == "[\"\(composed)\"]") }
    // Encoding writes four keys, and reads back the same.
    let written = try #require(try JSON(jsonData: decoded.jsonData()).object)
    #expect(written.count == 4)
    #expect(try TwoCafes(decode: .object(written)) == decoded)
  }

  @Test("reading at a path follows the key's bytes")
  func paths() throws {
    let text = #"{"cafe\u0301":{"v":2},"caf\u00e9":{"v":1}}"#
    #expect(try Int(jsonData: Data(text.utf8), at: [.key(composed), "v"]) == 1)
    #expect(try Int(jsonData: Data(text.utf8), at: [.key(decomposed), "v"]) == 2)
    #expect(try JSON(jsonString: text)[.key(composed), "v"] == 1)
    #expect(try JSON(jsonString: text)[.key(decomposed), "v"] == 2)
  }

  @Test("dictionaries of String keys follow Swift's equality on every path alike")
  func dictionaries() throws {
    let text = #"{"caf\u00e9":1,"cafe\u0301":2}"#
    let viaBytes = try [String: Int](jsonData: Data(text.utf8))
    let viaJSON = try [String: Int](decode: JSON(jsonString: text))
    #expect(viaBytes == viaJSON)
    #expect(viaBytes.count == 1 && viaBytes[composed] == 2)
  }
}
