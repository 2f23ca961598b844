import AutoMap
import Foundation
import Testing

// Issue 20, finding 1, and attacks of its kind: untyped graphs (`Any`) as Objective-C era code
// hands them over. A graph that contains itself, one nested too deep, odd `NSNumber`s and
// leaves with no JSON form are errors naming the place; a graph that shares a part converts.

struct GraphHolder: JSONCodable, Equatable {
  var items: [JSON]
}

@Suite("Untyped graphs: cycles, depth, sharing and odd leaves")
struct ObjectGraphAttackTests {
  /// The error each `Any` entry point gives for `graph`, which must be the same.
  func refusal(_ graph: Any, sourceLocation: SourceLocation = #_sourceLocation) -> JSON.Error? {
    let direct = #expect(throws: JSON.Error.self, sourceLocation: sourceLocation) {
      try JSON(jsonObject: graph)
    }
    let model = #expect(throws: JSON.Error.self, sourceLocation: sourceLocation) {
      try GraphHolder(jsonObject: ["items": graph])
    }
    let array = #expect(throws: JSON.Error.self, sourceLocation: sourceLocation) {
      try [JSON](jsonObject: [graph])
    }
    #expect(model?.kind == direct?.kind, sourceLocation: sourceLocation)
    #expect(array?.kind == direct?.kind, sourceLocation: sourceLocation)
    if let direct {
      let prefixed = { (prefix: String) in
        direct.path.isEmpty
          ? prefix : prefix + (direct.path.hasPrefix("[") ? "" : ".") + direct.path
      }
      #expect(model?.path == prefixed("items"), sourceLocation: sourceLocation)
      #expect(array?.path == prefixed("[0]"), sourceLocation: sourceLocation)
    }
    return direct
  }

  @Test("an NSMutableArray that contains itself is an error at the place it does")
  func selfContainingArray() {
    let array = NSMutableArray()
    array.add(1)
    array.add(array)
    defer { array.removeAllObjects() }
    let error = refusal(array)
    #expect(error?.kind == .typeMismatch)
    #expect(error?.path == "[1]")
    #expect(error?.message.contains("contains itself") == true, "\(String(describing: error))")
  }

  @Test("an NSMutableDictionary that contains itself, directly or through an array")
  func selfContainingDictionary() {
    let dictionary = NSMutableDictionary()
    dictionary["name"] = "loop"
    dictionary["me"] = dictionary
    defer { dictionary.removeAllObjects() }
    let error = refusal(dictionary)
    #expect(error?.kind == .typeMismatch)
    #expect(error?.path == "me")
    #expect(error?.message.contains("contains itself") == true, "\(String(describing: error))")

    let outer = NSMutableDictionary()
    let list = NSMutableArray()
    outer["list"] = list
    list.add(["up": outer] as [String: Any])
    defer { list.removeAllObjects() }
    let indirect = refusal(outer)
    #expect(indirect?.kind == .typeMismatch)
    #expect(indirect?.path == "list[0].up")
  }

  @Test("a Swift array holding a Foundation array that holds itself")
  func cycleBelowSwiftContainers() {
    let array = NSMutableArray()
    array.add(array)
    defer { array.removeAllObjects() }
    let error = refusal([["a": [0, array]]] as [Any])
    #expect(error?.kind == .typeMismatch)
    #expect(error?.path == "[0].a[1][0]")
  }

  @Test("a graph that shares one array twice (no cycle) converts, both places alike")
  func sharedSubgraph() throws {
    let shared = NSMutableArray(array: [1, "two", NSNull()])
    let root = NSMutableArray(array: [shared, shared])
    let json = try JSON(jsonObject: ["a": shared, "b": root] as [String: Any])
    #expect(json == ["a": [1, "two", nil], "b": [[1, "two", nil], [1, "two", nil]]])
    let dictionary = NSMutableDictionary(dictionary: ["k": true])
    let twice = try JSON(jsonObject: NSArray(array: [dictionary, dictionary]))
    #expect(twice == [["k": true], ["k": true]])
  }

  @Test("Swift values inside Foundation containers come out as they went in")
  func swiftValuesInFoundationContainers() throws {
    let array = NSMutableArray(array: [JSON.bool(true), ["k": 1] as JSON, "s", 2.5, [1, 2]])
    let dictionary = NSMutableDictionary(dictionary: ["json": JSON.null, "list": array])
    #expect(
      try JSON(jsonObject: dictionary) == [
        "json": nil, "list": [true, ["k": 1], "s", 2.5, [1, 2]],
      ])
    let error = #expect(throws: JSON.Error.self) {
      try JSON(jsonObject: NSArray(array: [1, Date(timeIntervalSince1970: 0)]))
    }
    #expect(error?.kind == .typeMismatch)
    #expect(error?.path == "[1]")
  }

  @Test("Foundation graphs nested to the bound convert, one deeper is the depth error")
  func foundationDepth() throws {
    func nested(_ levels: Int) -> Any {
      var value: Any = NSNumber(value: 1)
      for level in 0..<levels {
        value =
          level.isMultiple(of: 2)
          ? NSArray(object: value) : NSDictionary(object: value, forKey: "k" as NSString)
      }
      return value
    }
    // The root is level 1, as in text: `[1]` nests one level.
    #expect(throws: Never.self) { try JSON(jsonObject: nested(JSON.maximumDepth)) }
    let error = #expect(throws: JSON.Error.self) {
      try JSON(jsonObject: nested(JSON.maximumDepth + 1))
    }
    #expect(error?.kind == .tooDeep(limit: JSON.maximumDepth))
    var text = "1"
    for level in 0..<JSON.maximumDepth {
      text = level.isMultiple(of: 2) ? "[\(text)]" : #"{"k":\#(text)}"#
    }
    #expect(try JSON(jsonObject: nested(JSON.maximumDepth)) == JSON(jsonString: text))
  }

  @Test("NSNumber edge values: booleans, the ends of the integer ranges, non-finite numbers")
  func numberEdges() throws {
    let graph = NSArray(array: [
      NSNumber(value: true), NSNumber(value: Int8(1)), NSNumber(value: UInt64.max),
      NSNumber(value: Int64.min), NSNumber(value: 0.5), NSNumber(value: Float(0.25)),
    ])
    let json = try JSON(jsonObject: graph)
    #expect(
      json == [
        true, 1, .number(JSON.Number(UInt64.max)), .number(JSON.Number(Int64.min)), 0.5, 0.25,
      ])
    for (value, path) in [
      (NSArray(array: [1, NSNumber(value: Double.nan)]) as Any, "[1]"),
      (["f": Float.nan] as [String: Any], "f"),
      (["d": -Double.infinity] as [String: Any], "d"),
      // Found by the graph fuzz target: the decimal NaN converted, and could not be written.
      (NSArray(array: [0, NSDecimalNumber.notANumber]) as Any, "[1]"),
      (["n": Decimal.nan] as [String: Any], "n"),
    ] {
      let error = #expect(throws: JSON.Error.self) { try JSON(jsonObject: value) }
      #expect(error?.kind == .typeMismatch)
      #expect(error?.path == path)
      #expect(error?.message.contains("not finite") == true, "\(String(describing: error))")
    }
  }

  @Test("leaves with no JSON form: a Date, a class instance, a non-String key")
  func leavesWithNoJSONForm() {
    final class Opaque {}
    let cases: [(Any, String, String)] = [
      (NSMutableArray(array: [Date(timeIntervalSince1970: 0)]), "[0]", "Date"),
      (["x": [Opaque()]] as [String: Any], "x[0]", "Opaque"),
      (NSDictionary(dictionary: [1: "one"]), "", "keys are not all strings"),
      (
        ["k": NSDictionary(dictionary: [2: "two"])] as [String: Any], "k",
        "keys are not all strings"
      ),
    ]
    for (value, path, fragment) in cases {
      let error = #expect(throws: JSON.Error.self) { try JSON(jsonObject: value) }
      #expect(error?.kind == .typeMismatch)
      #expect(error?.path == path)
      #expect(error?.message.contains(fragment) == true, "\(String(describing: error))")
    }
  }
}
