import AutoMap
import Foundation
import Testing

// The writer stores short texts (a key with its comma and colon, a number's digits) straight
// into room it keeps past the text. These attack that room: texts on every side of its
// boundaries, a short write abandoned halfway, members taken back, and every digit count.

private struct InPlaceRow: JSONCodable, Equatable {
  var id = 0
  var big: UInt64 = 0
  var small: Int64 = 0
  var ratio = 0.0
  var name = ""
  var note: String? = nil
}

private struct TakenBackRow: JSONCodable, Equatable {
  var id = 0
  var name = ""
  var extra: JSON = .null
  var note: String? = nil
  var last: JSON = .null
}

@Suite("Writing in place")
struct WrittenInPlaceTests {
  /// Integers at every digit count and its edges, both signs, as models and as `JSON`.
  @Test("every digit count of an integer, at its edges")
  func digitCounts() throws {
    var unsigned: [UInt64] = [0, 1, 9, UInt64.max, UInt64.max - 1]
    var power: UInt64 = 10
    for _ in 1...19 {
      unsigned += [power - 1, power, power + 1]
      if power > UInt64.max / 10 { break }
      power *= 10
    }
    let signed: [Int64] =
      [Int64.min, Int64.min + 1, Int64.max, -1, -9, -10]
      + unsigned.filter { $0 <= UInt64(Int64.max) }.map { -Int64($0) }
    let rows = unsigned.enumerated().map { index, big in
      InPlaceRow(id: index, big: big, small: signed[index % signed.count])
    }
    let text = String(decoding: try rows.jsonData(), as: UTF8.self)
    let expected =
      "["
      + rows.map {
        #"{"id":\#($0.id),"big":\#($0.big),"small":\#($0.small),"ratio":0.0,"name":"","note":null}"#
      }.joined(separator: ",") + "]"
    #expect(text == expected)
    #expect(try [InPlaceRow](jsonData: Data(text.utf8)) == rows)
    let json = JSON.array(unsigned.map { JSON($0) } + signed.map { JSON($0) })
    #expect(
      try json.jsonString()
        == "[" + (unsigned.map { "\($0)" } + signed.map { "\($0)" }).joined(separator: ",") + "]")
  }

  /// Strings of every length up to past the room a writer starts with, clean and with an
  /// escape at each end: the text grows across each boundary with every remainder.
  @Test("strings of every length, across the room's boundaries")
  func stringLengths() throws {
    var values: [String] = []
    var expected: [String] = []
    for length in 0...300 {
      let clean =
        String(repeating: "é", count: length / 2) + String(repeating: "a", count: length % 2)
      values.append(clean)
      expected.append("\"\(clean)\"")
      values.append("\"" + clean + "\n")
      expected.append(#""\""# + clean + #"\n""#)
    }
    let text = try JSON.array(values.map { JSON($0) }).jsonString()
    #expect(text == "[" + expected.joined(separator: ",") + "]")
    // Through `description`, whose writer starts with a smaller room.
    #expect(JSON.array(values.map { JSON($0) }).description == text)
    let rows = values.enumerated().map { InPlaceRow(id: $0.offset, name: $0.element) }
    #expect(try [InPlaceRow](jsonData: rows.jsonData()) == rows)
  }

  /// Keys short enough to go in one write, with a byte to escape at each position: the write
  /// in place is abandoned where the byte is, and the key written again in full.
  @Test("a short key with a byte to escape, at every position")
  func shortKeysWithEscapes() throws {
    for length in 1...30 {
      for position in 0..<length {
        var bytes = Array(repeating: UInt8(ascii: "k"), count: length)
        bytes[position] = UInt8(ascii: "\"")
        let key = String(decoding: bytes, as: UTF8.self)
        let escaped = key.replacingOccurrences(of: "\"", with: #"\""#)
        let json: JSON = ["a": 1, .init(stringLiteral: key): 2, "z": 3]
        let text = try json.jsonString()
        #expect(text == #"{"a":1,"\#(escaped)":2,"z":3}"#, "key \(key)")
        #expect(try JSON(jsonData: Data(text.utf8)) == json)
      }
    }
  }

  /// Members taken back (`.omitNulls`: a `JSON` null is written, then taken back) and the
  /// text written on over them, in a document much larger than the writer's buffers: rows of
  /// every length put each null on every side of a move of the written bytes to the text.
  @Test("members taken back, then written over")
  func takenBack() throws {
    let rows: [TakenBackRow] = (0..<3_000).map { index in
      var row = TakenBackRow(id: index, name: String(repeating: "n", count: index % 97))
      row.extra = index % 2 == 0 ? JSON.null : JSON("x")
      row.note = index % 3 == 0 ? "note" : nil
      row.last = index % 5 == 0 ? JSON.null : JSON(index)
      return row
    }
    let options: JSON.WritingOptions = [.omitNulls]
    let full = try JSON(jsonData: rows.jsonData())
    let omitted = try JSON(jsonData: rows.jsonData(options: options))
    func withoutNulls(_ row: JSON) -> JSON {
      let members = (row.object?.members ?? []).filter { $0.value != JSON.null }
      return JSON.object(JSON.Object(members.map { ($0.key, $0.value) }))
    }
    let expected = JSON.array((full.array ?? []).map(withoutNulls))
    #expect(omitted == expected)
    // Nulls were written, and each was taken back.
    #expect(String(decoding: try rows.jsonData(), as: UTF8.self).contains(#""extra":null"#))
    #expect(!String(decoding: try rows.jsonData(options: options), as: UTF8.self).contains("null"))
  }
}
