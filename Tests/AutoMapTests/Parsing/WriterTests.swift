import AutoMap
import Foundation
import Testing

@Suite("Writer")
struct WriterTests {
  @Test("compact, pretty and sorted")
  func layouts() throws {
    let json: JSON = ["b": [1, 2], "a": ["c": nil], "e": [], "d": [:]]
    #expect(try json.jsonString() == #"{"b":[1,2],"a":{"c":null},"e":[],"d":{}}"#)
    #expect(
      try json.jsonString(options: .sortedKeys) == #"{"a":{"c":null},"b":[1,2],"d":{},"e":[]}"#)
    #expect(
      try json.jsonString(options: [.prettyPrinted, .sortedKeys]) == """
        {
          "a": {
            "c": null
          },
          "b": [
            1,
            2
          ],
          "d": {},
          "e": []
        }
        """)
  }

  @Test("escapes control characters, quotes and backslashes; keeps non-ASCII")
  func escaping() throws {
    let json = JSON("q\"b\\n\n t\t c\u{1} e\u{1F} Zoë 😀 /")
    #expect(try json.jsonString() == #""q\"b\\n\n t\t c\u0001 e\u001f Zoë 😀 /""#)
  }

  @Test("numbers: integers exactly, doubles shortest round-trip, non-finite refused")
  func numbers() throws {
    let json: JSON = [
      JSON(Int64.max), JSON(Int64.min), JSON(UInt64.max), 0.1, 1e-5, 100.0, -0.0,
      JSON(Double.leastNonzeroMagnitude),
    ]
    #expect(
      try json.jsonString()
        == "[9223372036854775807,-9223372036854775808,18446744073709551615,0.1,1e-05,100.0,-0.0,5e-324]"
    )
    #expect(throws: JSON.Error.self) { try JSON(Double.infinity).jsonString() }
    #expect(throws: JSON.Error.self) { try JSON(Double.nan).jsonData() }
  }

  @Test(
    "parse(write(x)) == x",
    arguments: [
      ["a": [1, 2.5, "x", nil, true], "b": ["c": ["d": []]]] as JSON, JSON(Int64.min),
      JSON(UInt64.max), JSON(0.30000000000000004), JSON("\u{0}\u{7F}\u{FFFF}𝄞"), [:] as JSON,
    ])
  func roundTrip(value: JSON) throws {
    for options: JSON.WritingOptions in [[], .prettyPrinted, .sortedKeys] {
      #expect(try JSON(jsonData: value.jsonData(options: options)) == value)
    }
  }
}
