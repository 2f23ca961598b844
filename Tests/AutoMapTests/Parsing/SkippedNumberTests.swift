import AutoMap
import Foundation
import Testing

/// Reads `a` only: every other member's value is stepped over.
private struct OnlyA: JSONCodable, Equatable {
  var a = 0
}

@Suite("Numbers stepped over are checked as strictly as numbers read")
struct SkippedNumberTests {
  /// Every text of up to `length` bytes over the bytes a number is made of, and a few others.
  static func texts(upTo length: Int) -> [String] {
    let alphabet = Array("-+.eE019x")
    var texts = [""]
    var all: [String] = []
    for _ in 0..<length {
      texts = texts.flatMap { text in alphabet.map { text + String($0) } }
      all += texts
    }
    return all
  }

  @Test("a skipped member's number: accepted and refused as the parser does, same errors")
  func skippedAsParsed() throws {
    var accepted = 0
    for text in Self.texts(upTo: 4) + ["-0.5e+10", "12.50E-07", "-01.5", "1.e5", "1e+", "--1"] {
      let document = #"{"skip": \#(text), "a": 1}"#
      let skipped = Result { try OnlyA(jsonString: document) }
      // The parser reads the number's value: the same text as an element it must hold.
      let parsed = Result { try JSON(jsonString: document) }
      switch (skipped, parsed) {
      case (.success(let value), .success):
        #expect(value == OnlyA(a: 1), "\(text)")
        accepted += 1
      case (.success(let value), .failure(let error as JSON.Error)):
        // `JSON` refuses a number beyond `Double`'s range, which a model refuses only where it
        // reads one: a skipped one is valid JSON.
        guard case .numberOutOfRange = error.kind else {
          Issue.record("\(text): skipped \(value), parsed \(error)")
          continue
        }
      case (.failure(let a as JSON.Error), .failure(let b as JSON.Error)):
        #expect(a.kind == b.kind && a.message == b.message, "\(text): \(a) / \(b)")
      default:
        Issue.record("\(text): skipped \(skipped), parsed \(parsed)")
      }
    }
    // Numbers of every form were among them.
    #expect(accepted > 100)
    for text in ["-0", "0.0e+1", "10E-9", "1.5", "-9e9", "0e0"] {
      #expect(try OnlyA(jsonString: #"{"skip": \#(text), "a": 2}"#) == OnlyA(a: 2), "\(text)")
    }
  }

  @Test("skipped numbers in arrays and nested objects, at the end of the input")
  func nestedAndAtTheEnd() throws {
    let document = #"{"skip": [1, -2.5e3, {"n": 0.25}, [1e-2]], "a": 3, "z": 12"#
    for cut in document.indices.dropFirst() {
      let text = String(document[..<cut])
      let skipped = Result { try OnlyA(jsonString: text) }
      let parsed = Result { try JSON(jsonString: text) }
      if case .failure(let a as JSON.Error) = skipped, case .failure(let b as JSON.Error) = parsed {
        #expect(a.message == b.message, "\(text)")
      } else {
        Issue.record("\(text): skipped \(skipped), parsed \(parsed)")
      }
    }
    #expect(try OnlyA(jsonString: document + "}") == OnlyA(a: 3))
  }

  /// Long runs of digits are stepped over eight bytes at a time: every run length around the
  /// word size, in each part of a number, followed by every byte value, must be taken exactly
  /// as the parser takes it (the same document accepted, the same error where it is invalid).
  @Test("long digit runs, ended by every byte, in the integer, fraction and exponent")
  func longDigitRuns() throws {
    var accepted = 0
    for prefix in ["", "-", "1.", "-7.", "3e", "5E+", "2.5e-"] {
      for length in 1...26 {
        // Exponents of zeros (with leading zeros, valid JSON), so that every number stays
        // within `Double`'s range, which the parser checks and a skip does not.
        let inExponent = prefix.lowercased().contains("e")
        let digits = (0..<length).map {
          inExponent ? UInt8(ascii: "0") : UInt8(ascii: "1") + UInt8(($0 * 7) % 9)
        }
        for last in 0...255 {
          let bytes =
            Array(#"{"skip": "#.utf8) + Array(prefix.utf8) + digits + [UInt8(last)]
            + Array(#", "a": 1}"#.utf8)
          let data = Data(bytes)
          let skipped = Result { try OnlyA(jsonData: data) }
          let parsed = Result { try JSON(jsonData: data) }
          switch (skipped, parsed) {
          case (.success(let value), .success):
            #expect(value == OnlyA(a: 1))
            accepted += 1
          case (.failure(let a as JSON.Error), .failure(let b as JSON.Error)):
            #expect(a.kind == b.kind && a.message == b.message, "\(prefix) \(length) \(last)")
          default:
            Issue.record("\(prefix) \(length) byte \(last): skipped \(skipped), parsed \(parsed)")
          }
        }
      }
    }
    // A digit or whitespace as the last byte is taken in every part and length. (A skip
    // that stops too early is not seen here: the byte path then fails, and the document is
    // decoded through `JSON` values. One that goes too far decodes what the parser refuses.)
    #expect(accepted >= 7 * 26 * 14)
  }
}
