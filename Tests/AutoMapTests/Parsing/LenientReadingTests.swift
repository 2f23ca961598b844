import AutoMap
import Foundation
import Testing

@Suite("Lenient reading: JSON5 and its parts")
struct LenientReadingTests {
  /// (option, text, the value it means): each text needs its option and no other.
  static let features: [(String, JSON.ReadingOptions, String, JSON)] = [
    ("line comment", .comments, "[1, // one\n 2]", [1, 2]),
    ("block comment", .comments, "/* a\n b */ {\"a\": /* x */ 1}", ["a": 1]),
    ("trailing comma in array", .trailingCommas, "[1, 2, ]", [1, 2]),
    ("trailing comma in object", .trailingCommas, "{\"a\": 1,\n}", ["a": 1]),
    ("single quotes", .singleQuotedStrings, #"['it\'s "so"', 'x']"#, [#"it's "so""#, "x"]),
    (
      "unquoted keys", .unquotedKeys, #"{name: "Ada", $id_2: 1, ümlaut: true}"#,
      ["name": "Ada", "$id_2": 1, "ümlaut": true]
    ),
    ("hexadecimal", .hexadecimalNumbers, "[0xC8, -0x10, 0XfF]", [200, -16, 255]),
    ("decimal points", .decimalPoints, "[.5, 5., -.25, 5.e1]", [0.5, 5.0, -0.25, 50.0]),
    ("plus signs", .plusSigns, "[+1, +0.5]", [1, 0.5]),
    (
      "non-finite numbers", .nonFiniteNumbers, "[Infinity, -Infinity, NaN]",
      ["Infinity", "-Infinity", "NaN"]
    ),
    (
      "string escapes", .stringEscapes, "[\"a\\\nb\", \"\\x41\\v\\0\", \"\\q\"]",
      ["ab", "A\u{0B}\u{0}", "q"]
    ),
    ("JSON5 whitespace", .json5Whitespace, "\u{FEFF}[1,\u{0C}\u{A0}2\u{2028}]", [1, 2]),
  ]

  @Test("each extension alone, and strict JSON refuses it", arguments: features)
  func feature(name: String, option: JSON.ReadingOptions, text: String, expected: JSON) throws {
    #expect(try JSON(jsonString: text, reading: option) == expected, "\(name)")
    #expect(try JSON(jsonString: text, reading: .json5) == expected, "\(name) in JSON5")
    #expect(throws: JSON.Error.self, "\(name) is not strict JSON") { try JSON(jsonString: text) }
    #expect(throws: JSON.Error.self, "\(name): no option, no extension") {
      try JSON(jsonString: text, reading: [])
    }
  }

  @Test("errors give the byte, line and column of the text as written")
  func errorPositions() throws {
    let text = "{\n  // settings\n  name: 'demo', /* the count */ count: tru\n}"
    let bytes = Array(text.utf8)
    // Line 3 starts at byte 16; the translation moved "tru" (quoted key, comment), the error
    // is placed back where it was written.
    let literal = try #require(bytes.indices.first { bytes[$0...].starts(with: Array("tru".utf8)) })
    #expect {
      try JSON(jsonString: text, reading: .json5)
    } throws: { error in
      guard let error = error as? JSON.Error,
        case .malformed(let offset, let line, let column) = error.kind
      else { return false }
      return offset == literal && line == 3 && column == literal - 15
        && error.description.contains("at byte \(literal) (line 3, column \(literal - 15))")
    }
    #expect {
      try JSON(jsonString: "[1, /* never closed ", reading: .comments)
    } throws: { error in
      (error as? JSON.Error)?.kind == .malformed(offset: 4, line: 1, column: 5)
    }
  }

  @Test("a strict document reads the same with every option")
  func strictUnchanged() throws {
    let text = #"{"a": [1, 2.5e3, "x\u00e9\n", true, null], "b": {"c": -0}}"#
    #expect(try JSON(jsonString: text, reading: .json5) == JSON(jsonString: text))
  }

  @Test("random text never traps: it reads, or fails with a positioned JSON.Error")
  func randomText() {
    let pieces = [
      "{", "}", "[", "]", ",", ":", "'", "\"", "\\", "/", "*", "//", "/*", "*/", "\n", "\r",
      " ", "a", "$", "_", "0", "1", "0x", "F", ".", "e", "+", "-", "Infinity", "NaN", "\u{A0}",
      "\u{2028}", "\u{FEFF}", "é", "\\x4", "\\u00", "true", "null",
    ]
    var random = DiffRandom(seed: 22)
    for _ in 0..<3000 {
      let text = (0..<random.below(24)).map { _ in random.pick(pieces) }.joined()
      let bytes = Array(text.utf8)
      for options in [
        JSON.ReadingOptions.json5, [.comments], [.singleQuotedStrings, .stringEscapes],
      ] {
        do {
          _ = try JSON(jsonData: bytes, reading: options)
        } catch let error as JSON.Error {
          if case .malformed(let offset, _, _) = error.kind {
            #expect(offset >= 0 && offset <= bytes.count, "\(text.debugDescription): \(error)")
          }
        } catch {
          Issue.record("\(text.debugDescription): \(error)")
        }
      }
    }
  }

  @Test("models read JSON5 through the same mapping")
  func models() throws {
    struct Config: JSONCodable, Equatable {
      static let keyStyle = JSON.KeyStyle.snakeCase
      let serverName: String
      let retries: Int
      let ratio: Double
    }
    let text = """
      // the server
      {
        server_name: 'example.org',
        retries: 0x3,   // hex
        ratio: .5,
      }
      """
    #expect(
      try Config(jsonString: text, reading: .json5)
        == Config(serverName: "example.org", retries: 3, ratio: 0.5))
    #expect(throws: JSON.Error.self) {
      try Config(jsonString: text, reading: [.comments, .unquotedKeys])
    }
  }

  @Test("non-finite numbers reach Double properties through the configuration")
  func nonFinite() throws {
    let configuration = JSON.Configuration(nonFiniteNumbers: .strings())
    let values = try JSON.withConfiguration(configuration) {
      try [Double](jsonString: "[Infinity, -Infinity]", reading: .json5)
    }
    #expect(values == [.infinity, -.infinity])
  }
}

/// The public JSON5 test suite (github.com/json5/json5-tests), read from the folder
/// `AUTOMAP_JSON5_TESTS` names (or `../shared/data/json5-tests`): `.json` and `.json5` cases
/// must be read with `.json5`, `.js` and `.txt` cases refused. Nothing of it is copied here.
@Suite("json5-tests conformance")
struct JSON5SuiteTests {
  static let folder = SharedData.suite("AUTOMAP_JSON5_TESTS", "json5-tests")

  @Test(
    "every case is read or refused as its extension says",
    .enabled(
      if: folder != nil,
      "set AUTOMAP_JSON5_TESTS to a checkout of json5-tests (or put it in ../shared/data/json5-tests)"
    ))
  func suite() throws {
    let folder = try #require(Self.folder)
    let files =
      FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
    var counts: [String: (passed: Int, total: Int)] = [:]
    for file in files.sorted() {
      let kind = (file as NSString).pathExtension
      guard ["json", "json5", "js", "txt"].contains(kind) else { continue }
      let data = try Data(contentsOf: folder.appendingPathComponent(file))
      let result = Result { try JSON(jsonData: data, reading: .json5) }
      var passed: Bool
      switch (kind, result) {
      case ("json", .success(let value)):
        passed = (try? JSON(jsonData: data)) == value  // the same value as strict reading
      case ("json5", .success): passed = true
      case ("js", .failure), ("txt", .failure): passed = true
      default: passed = false
      }
      if !passed { Issue.record("\(file) (\(kind)): \(result)") }
      // The configuration reads it as the argument does.
      let configured = Result { try JSON(jsonData: data, configuration: .init(reading: .json5)) }
      let scoped = Result {
        try JSON.withConfiguration(.init(reading: .json5)) { try JSON(jsonData: data) }
      }
      for (name, other) in [("configuration", configured), ("withConfiguration", scoped)] {
        switch (result, other) {
        case (.success(let value), .success(let same)):
          #expect(value == same || value.description == same.description, "\(file) \(name)")
        case (.failure, .failure): break
        default: Issue.record("\(file): \(name) gives \(other), reading: gives \(result)")
        }
      }
      counts[kind, default: (0, 0)].total += 1
      if passed { counts[kind, default: (0, 0)].passed += 1 }
    }
    for (kind, count) in counts.sorted(by: { $0.key < $1.key }) {
      print("json5-tests .\(kind): \(count.passed) of \(count.total) pass")
    }
    #expect(counts.values.reduce(0) { $0 + $1.total } > 100, "the suite was read")
  }
}
