import AutoMap
import Foundation
import Testing

/// Where a stream's errors say they are, and what skipping does.
@Suite struct StreamErrorTests {
  private let good = #"{"id": 1, "name": "Ada", "tags": []}"#

  @Test func anArrayElementErrorStartsWithItsIndex() throws {
    let text = "[\(good),\n \(good),\n {\"id\": \"7\", \"name\": \"x\", \"tags\": []}]"
    let streamed = StreamRun.sync(StreamUser.self, Data(text.utf8), .array)
    #expect(streamed.values.count == 2)
    let error = try #require(streamed.error)
    #expect(error.path == "[2].id")
    #expect(error.line == nil)
    #expect(error == StreamRun.whole(StreamUser.self, Data(text.utf8)).error)
  }

  @Test func aJSONLinesErrorSaysItsLineAndIndex() throws {
    let text = "\(good)\n\n\(good)\r\n  \n{\"id\": 1.5, \"name\": \"x\", \"tags\": []}\n\(good)\n"
    let streamed = StreamRun.sync(StreamUser.self, Data(text.utf8), .lines)
    #expect(streamed.values.count == 2)
    let error = try #require(streamed.error)
    #expect(error.path == "[2].id")
    #expect(error.line == 5)
    #expect(error.kind == .typeMismatch)
    #expect(error.description.hasPrefix("at [2].id (line 5): "))
  }

  @Test func malformedTextIsPlacedInTheStream() throws {
    let lines = "\(good)\n\(good)\n{\"id\": 1,, \"name\": \"x\"}\n"
    let error = try #require(StreamRun.sync(StreamUser.self, Data(lines.utf8), .lines).error)
    let offset = 2 * (good.utf8.count + 1) + 9
    #expect(error.kind == .malformed(offset: offset, line: 3, column: 10))
    #expect(error.path == "[2]")
    #expect(error.line == 3)
    #expect(error.description.contains("at byte \(offset) (line 3, column 10)"))

    let array = "[\(good),\n  {\"id\": 1 \"name\": \"x\"}]"
    let arrayError = try #require(StreamRun.sync(StreamUser.self, Data(array.utf8), .array).error)
    #expect(arrayError.kind == StreamRun.whole(StreamUser.self, Data(array.utf8)).error?.kind)
    #expect(arrayError.kind == .malformed(offset: good.utf8.count + 14, line: 2, column: 12))
  }

  @Test(arguments: [
    ("", "empty input"), ("  ", "found end of input"), ("{}", "expected '['"),
    ("[1 2]", "expected ','"),
    ("[1,]", "expected a JSON value"), ("[1", "expected ','"), ("[1] x", "end of input"),
    ("[\"abc", "unterminated string"), ("[{\"a\": [1}]", "malformed"), ("[,1]", "expected"),
    ("[1]]", "end of input"), ("[tru]", "malformed"),
  ])
  func brokenArraysThrow(text: String, says: String) throws {
    for chunkSize in [1, 2, 1 << 20] {
      let streamed = StreamRun.sync(Int.self, Data(text.utf8), .array, options: .chunked(chunkSize))
      let error = try #require(streamed.error, "\(text)")
      #expect(error.description.contains(says), "\(text): \(error)")
      #expect(StreamRun.whole(Int.self, Data(text.utf8)).error != nil)
    }
  }

  @Test func emptyStreamsHaveNoElements() {
    for (text, format) in [
      ("[]", JSON.StreamFormat.array), (" \n[ \r\n ]\n", .array), ("\u{FEFF}[1]", .array),
      ("", .lines), ("\n\r\n  \n", .lines), ("\u{FEFF}1\n2", .lines),
    ] {
      let streamed = StreamRun.sync(Int.self, Data(text.utf8), format)
      #expect(streamed.error == nil, "\(text.debugDescription)")
      #expect(streamed.values == (text.contains("1") ? (text.contains("2") ? [1, 2] : [1]) : []))
    }
  }

  @Test func nestingIsBoundedAsInTheWholeDocument() throws {
    let limit = JSON.maximumDepth
    for levels in [limit - 2, limit - 1, limit, limit + 5_000] {
      let element = String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
      let text = Data("[1, \(element)]".utf8)
      let streamed = StreamRun.sync(JSON.self, text, .array, options: .chunked(64))
      let whole = StreamRun.whole(JSON.self, text)
      #expect((streamed.error == nil) == (whole.error == nil), "\(levels) levels")
      if let error = streamed.error {
        #expect(error.kind == .tooDeep(limit: limit))
        #expect(error.path == "[1]")
      }
    }
  }

  @Test func anElementLargerThanTheLimitEndsTheStreamOrIsSkipped() throws {
    var options = JSON.StreamOptions.chunked(8)
    options.maximumElementSize = 64
    let big = "\"" + String(repeating: "x", count: 200) + "\""
    let array = StreamRun.sync(
      String.self, Data("[\"a\", \(big), \"b\"]".utf8), .array, options: options)
    #expect(array.values == ["a"])
    #expect(array.error?.description.contains("maximumElementSize") == true)
    #expect(array.error?.path == "[1]")

    options.skipsBadElements = true
    let lines = StreamRun.sync(
      String.self, Data("\"a\"\n\(big)\n\"b\"\n".utf8), .lines, options: options)
    #expect(lines.values == ["a", "b"])
    #expect(lines.skipped == 1)
    #expect(lines.error == nil)
  }

  @Test func badLinesAreSkippedCountedAndReported() throws {
    let reported = Reported()
    var options = JSON.StreamOptions.chunked(16, skipping: true)
    options.onSkip = { reported.add($0) }
    let text = "1\n\"two\"\n3\n{oops\n\n5\n[\n"
    let streamed = StreamRun.sync(Int.self, Data(text.utf8), .lines, options: options)
    #expect(streamed.values == [1, 3, 5])
    #expect(streamed.skipped == 3)
    #expect(streamed.error == nil)
    #expect(reported.lines == [2, 4, 7])
    #expect(reported.paths == ["[1]", "[3]", "[5]"])
  }

  @Test func arrayElementsThatDoNotMapAreSkippedButBrokenStructureStops() {
    let options = JSON.StreamOptions.chunked(4, skipping: true)
    let skipped = StreamRun.sync(
      Int.self, Data(#"[1, "x", 2.5, 3, {"a": 1}, 4]"#.utf8), .array, options: options)
    #expect(skipped.values == [1, 3, 4])
    #expect(skipped.skipped == 3)
    let broken = StreamRun.sync(Int.self, Data("[1, 2 3, 4]".utf8), .array, options: options)
    #expect(broken.values == [1, 2])
    #expect(broken.error != nil)
  }

  @Test func keyStyleAppliesToEveryElement() {
    struct Person: JSONDecodable, Equatable { var firstName: String }
    var options = JSON.StreamOptions()
    options.keyStyle = .snakeCase
    let text = #"{"first_name": "Ada"}"# + "\n" + #"{"first_name": "Alan"}"#
    let streamed = StreamRun.sync(Person.self, Data(text.utf8), .lines, options: options)
    #expect(streamed.values.map(\.firstName) == ["Ada", "Alan"])
    let array = "[" + text.replacingOccurrences(of: "\n", with: ",") + "]"
    let fromArray = StreamRun.sync(Person.self, Data(array.utf8), .array, options: options)
    #expect(fromArray.values.map(\.firstName) == ["Ada", "Alan"])
  }
}

/// Collects what `onSkip` reports, from any thread.
final class Reported: @unchecked Sendable {
  private let lock = NSLock()
  private var errors: [JSON.Error] = []
  func add(_ error: JSON.Error) { lock.withLock { errors.append(error) } }
  var lines: [Int?] { lock.withLock { errors.map(\.line) } }
  var paths: [String] { lock.withLock { errors.map(\.path) } }
}
