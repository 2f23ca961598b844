import AutoMap
import Foundation
import Testing

@Suite("Parse errors")
struct ParseErrorTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let text: [UInt8]
    let offset: Int
    let line: Int
    let column: Int
    let says: String
    var testDescription: String { says }

    init(_ text: String, _ offset: Int, _ line: Int, _ column: Int, _ says: String) {
      self.init(Array(text.utf8), offset, line, column, says)
    }
    init(_ text: [UInt8], _ offset: Int, _ line: Int, _ column: Int, _ says: String) {
      self.text = text
      self.offset = offset
      self.line = line
      self.column = column
      self.says = says
    }
  }

  @Test(
    "each malformed input names what and where",
    arguments: [
      Case("", 0, 1, 1, "empty input"),
      Case("[1,]", 3, 1, 4, "expected a JSON value, found ']'"),
      Case(
        "{\n  \"a\": 1\n  \"b\": 2}", 13, 3, 3,
        "expected ',' or '}' after object member, found '\"'"),
      Case("[01]", 1, 1, 2, "leading zero in number"),
      Case("[1] x", 4, 1, 5, "expected end of input after the JSON value, found 'x'"),
      Case("\"a\u{01}\"", 2, 1, 3, "control character byte 0x01 in string"),
      Case([0x22, 0x61, 0xFF, 0x22], 2, 1, 3, "invalid UTF-8 in string"),
      Case(#"["\ud800"]"#, 2, 1, 3, "high surrogate \\uD800 not followed by a low surrogate"),
      Case(#"["\udc00"]"#, 2, 1, 3, "lone low surrogate \\uDC00"),
      Case(#"["\x"]"#, 2, 1, 3, "invalid escape"),
      Case("[\"abc", 1, 1, 2, "unterminated string"),
      Case("[1e]", 3, 1, 4, "expected a digit in exponent"),
      Case("[-]", 2, 1, 3, "expected a digit after '-'"),
      Case("[1.]", 3, 1, 4, "expected a digit after '.'"),
      Case("tru", 0, 1, 1, "expected a JSON value"),
      Case("{1: 2}", 1, 1, 2, "expected a string key, found '1'"),
    ])
  func malformed(_ input: Case) throws {
    let error = #expect(throws: JSON.Error.self) { try JSON(jsonData: Data(input.text)) }
    #expect(error?.kind == .malformed(offset: input.offset, line: input.line, column: input.column))
    #expect(error?.description.contains(input.says) == true, "\(String(describing: error))")
    #expect(error?.description.contains("line \(input.line), column \(input.column)") == true)
  }
}
