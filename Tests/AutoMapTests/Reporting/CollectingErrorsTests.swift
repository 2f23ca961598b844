import AutoMap
import Foundation
import Testing

/// Every problem in one report (issue 11, item 2): with `collectsAllErrors` a failing decode
/// goes on through sibling fields, elements and nested models and throws one `JSON.Error`
/// listing them all.
@Suite("Reporting: every problem in one error")
struct CollectingErrorsTests {
  static let all = JSON.Configuration(collectsAllErrors: true)

  /// The error `body` throws, or a failed expectation.
  static func error(_ body: () throws -> Any) -> JSON.Error? {
    do {
      _ = try body()
      Issue.record("expected an error")
    } catch let error as JSON.Error {
      return error
    } catch {
      Issue.record("not a JSON.Error: \(error)")
    }
    return nil
  }

  static let shapeText = #"""
    {"name": 5, "points": [{"x": 1, "y": "2"}, {"x": 3}, {"x": 4, "y": 5}],
     "origin": {"x": null, "y": 0}, "tags": {"a": 1, "b": "two", "c": 3}}
    """#

  @Test("a model's problems are listed with their paths, in document order")
  func listsEveryProblem() throws {
    let error = try #require(
      Self.error { try RShape(jsonString: Self.shapeText, configuration: Self.all) })
    #expect(error.problemCount == 5)
    #expect(
      error.problems.map(\.path) == ["name", "points[0].y", "points[1].y", "origin.x", "tags.b"])
    #expect(
      error.description == """
        5 problems:
        at name: expected String, found number 5
        at points[0].y: expected Int, found string "2"
        at points[1].y: missing key "y" for RPoint.y (Int)
        at origin.x: expected Int for RPoint.x, found null
        at tags.b: expected Int, found string "two"
        """)
    // The error itself is the first problem, as without the option.
    let first = try #require(Self.error { try RShape(jsonString: Self.shapeText) })
    #expect(first.problemCount == 1)
    #expect(first.problems == [first])
    #expect(error.kind == first.kind && error.path == first.path && error.message == first.message)
    #expect(error.problems[0] == first)
    #expect(first.description == "at name: expected String, found number 5")
  }

  /// A byte decode that fails is decoded again through `JSON`, where problems are collected:
  /// the byte entry points' lists agree with the `JSON` path's by construction, and this
  /// guards that routing. First uses: `FirstUseTests`.
  @Test("every entry point lists the same problems")
  func entryPointsAgree() throws {
    let texts = [
      Self.shapeText,
      #"[{"x": "a", "y": "b"}, 7, {"x": 1, "y": 2}, {"y": null}]"#,
    ]
    for text in texts {
      let fromJSON = Self.error {
        try RShape(decode: JSON(jsonString: text), configuration: Self.all)
      }
      let viaBytes = Self.error { try RShape(jsonData: Data(text.utf8), configuration: Self.all) }
      let viaString = Self.error { try RShape(jsonString: text, configuration: Self.all) }
      let scoped = Self.error {
        try JSON.withConfiguration(Self.all) { try RShape(jsonString: text) }
      }
      #expect(fromJSON == viaBytes && viaBytes == viaString && viaString == scoped)
      let points = Self.error { try [RPoint](jsonData: Data(text.utf8), configuration: Self.all) }
      let pointsJSON = Self.error {
        try [RPoint](decode: JSON(jsonString: text), configuration: Self.all)
      }
      #expect(points == pointsJSON)
    }
    let points = try #require(
      Self.error { try [RPoint](jsonString: texts[1], configuration: Self.all) })
    #expect(points.problems.map(\.path) == ["[0].x", "[0].y", "[1]", "[3].x", "[3].y"])
  }

  @Test("collecting never changes whether a document decodes, or to what")
  func sameOutcome() throws {
    // A nested model's problems are covered by the options around them: still a value.
    let text = #"""
      {"id": 1, "status": "archived", "friends": "x", "scores": [1, "2", 3], "best": {"x": "?"},
       "byRegion": {"eu": 1, "mars": 2}, "limits": {"a": 1, "b": null}, "ratio": "fast"}
      """#
    let plain = try RMember(jsonString: text)
    let collected = try RMember(jsonString: text, configuration: Self.all)
    #expect(plain == collected)
    #expect(
      collected.nickname == "anonymous" && collected.scores == [1, 3] && collected.best == nil)
  }

  @Test("validation runs only when every field decoded")
  func validation() throws {
    let fields = try #require(
      Self.error {
        try [RChecked](
          jsonString: #"[{"low": "a", "high": 1}, {"low": 5, "high": 1}]"#, configuration: Self.all)
      })
    #expect(
      fields.problems.map(\.description) == [
        #"at [0].low: expected Int, found string "a""#, "at [1]: low must not exceed high",
      ])
  }

  @Test("without the option nothing changes")
  func offByDefault() throws {
    let error = try #require(Self.error { try RShape(jsonString: Self.shapeText) })
    #expect(error.problemCount == 1 && error.problems.count == 1)
    let off = try #require(
      Self.error {
        try RShape(jsonString: Self.shapeText, configuration: .init(collectsAllErrors: false))
      })
    #expect(off == error)
    // An inner call's `nil` keeps the enclosing call's choice.
    let inner = try #require(
      Self.error {
        try JSON.withConfiguration(Self.all) {
          try RShape(jsonString: Self.shapeText, configuration: .init(dateTransform: .iso8601))
        }
      })
    #expect(inner.problemCount == 5)
  }

  @Test("malformed text and unmappable models stop at once")
  func stopsWhereNothingMoreCanBeRead() throws {
    let malformed = try #require(
      Self.error { try [RPoint](jsonString: #"[{"x": "a"}, {"x": 1,]"#, configuration: Self.all) })
    #expect(malformed.problemCount == 1)
    guard case .malformed = malformed.kind else {
      Issue.record("expected malformed, got \(malformed)")
      return
    }
    let broken = try #require(
      Self.error {
        try RHolder(
          jsonString: #"{"first": "x", "broken": [{"id": 1}, {"id": 2}], "last": "y"}"#,
          configuration: Self.all)
      })
    // The first problem, then the model that cannot be mapped, once; nothing after it.
    #expect(broken.problemCount == 2)
    #expect(broken.problems.map(\.kind) == [.typeMismatch, .invalidModel])
    #expect(broken.problems.map(\.path) == ["first", "broken[0]"])
  }

  @Test("thousands of problems: capped at 100, all counted, in linear time")
  func capped() throws {
    // Four times the problems cost about four times as much, sixteen if collecting were
    // quadratic: sizes compared in one run, before the large document is tried.
    let texts = [2_500, 10_000].map { count in
      (count, "[" + Array(repeating: #""x""#, count: count).joined(separator: ",") + "]")
    }
    let growth = try costGrowth(from: 2_500, to: 10_000) { count in
      let text = texts.first { $0.0 == count }?.1 ?? ""
      let error = try #require(Self.error { try [Int](jsonString: text, configuration: Self.all) })
      #expect(error.problemCount == count)
    }
    try #require(growth < 8, "4x the problems cost \(growth)x")
    let count = 100_000
    let text = "[" + Array(repeating: #""x""#, count: count).joined(separator: ",") + "]"
    let error = try #require(Self.error { try [Int](jsonString: text, configuration: Self.all) })
    #expect(error.problemCount == count)
    #expect(error.problems.count == JSON.Error.problemLimit)
    #expect(error.problems.last?.path == "[99]")
    let lines = error.description.split(separator: "\n")
    #expect(lines.count == 101)
    #expect(lines.first == "100000 problems, the first 100 listed:")

    // Nested: every inner array full, the outer list still capped; counts add up.
    let inner = "[" + Array(repeating: "true", count: 300).joined(separator: ",") + "]"
    let nested = "[" + Array(repeating: inner, count: 300).joined(separator: ",") + "]"
    let deep = try #require(Self.error { try [[Int]](jsonString: nested, configuration: Self.all) })
    #expect(deep.problemCount == 90_000)
    #expect(deep.problems.count == 100)
    #expect(deep.problems[99].path == "[0][99]")
  }

  @Test("nesting too deep is still refused, and ends the collecting")
  func deepNesting() throws {
    let depth = JSON.maximumDepth + 10
    let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    let error = try #require(Self.error { try [[Int]](jsonString: text, configuration: Self.all) })
    #expect(error.problemCount == 1)
    #expect(error.kind == .tooDeep(limit: JSON.maximumDepth))

    // A hand-built value deeper than models may go, with a bad value at every level: the
    // levels' problems are collected until the limit, which ends it.
    var json: JSON = ["v": 0, "next": []]
    for _ in 0..<depth { json = ["v": "x", "next": [json]] }
    let nested = try #require(Self.error { try RNode(decode: json, configuration: Self.all) })
    let levels = JSON.maximumDepth / 2  // a model and its array count one level each
    #expect(nested.problemCount == levels + 1)
    #expect(nested.problems.count == JSON.Error.problemLimit)
    #expect(nested.problems[1].path == "next[0].v")
  }
}

struct RNode: JSONDecodable {
  var v: Int
  var next: [RNode]
}
