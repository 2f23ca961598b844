import AutoMap
import Foundation
import Testing

@Suite("JSON Patch (RFC 6902)")
struct JSONPatchTests {
  /// RFC 6902 appendix A, as (section, document, patch, result or nil for an error).
  static let appendixA: [(String, String, String, String?)] = [
    (
      "A.1", #"{"foo": "bar"}"#, #"[{"op": "add", "path": "/baz", "value": "qux"}]"#,
      #"{"baz": "qux", "foo": "bar"}"#
    ),
    (
      "A.2", #"{"foo": ["bar", "baz"]}"#, #"[{"op": "add", "path": "/foo/1", "value": "qux"}]"#,
      #"{"foo": ["bar", "qux", "baz"]}"#
    ),
    (
      "A.3", #"{"baz": "qux", "foo": "bar"}"#, #"[{"op": "remove", "path": "/baz"}]"#,
      #"{"foo": "bar"}"#
    ),
    (
      "A.4", #"{"foo": ["bar", "qux", "baz"]}"#, #"[{"op": "remove", "path": "/foo/1"}]"#,
      #"{"foo": ["bar", "baz"]}"#
    ),
    (
      "A.5", #"{"baz": "qux", "foo": "bar"}"#,
      #"[{"op": "replace", "path": "/baz", "value": "boo"}]"#, #"{"baz": "boo", "foo": "bar"}"#
    ),
    (
      "A.6", #"{"foo": {"bar": "baz", "waldo": "fred"}, "qux": {"corge": "grault"}}"#,
      #"[{"op": "move", "from": "/foo/waldo", "path": "/qux/thud"}]"#,
      #"{"foo": {"bar": "baz"}, "qux": {"corge": "grault", "thud": "fred"}}"#
    ),
    (
      "A.7", #"{"foo": ["all", "grass", "cows", "eat"]}"#,
      #"[{"op": "move", "from": "/foo/1", "path": "/foo/3"}]"#,
      #"{"foo": ["all", "cows", "eat", "grass"]}"#
    ),
    (
      "A.8", #"{"baz": "qux", "foo": ["a", 2, "c"]}"#,
      #"[{"op": "test", "path": "/baz", "value": "qux"}, {"op": "test", "path": "/foo/1", "value": 2}]"#,
      #"{"baz": "qux", "foo": ["a", 2, "c"]}"#
    ),
    ("A.9", #"{"baz": "qux"}"#, #"[{"op": "test", "path": "/baz", "value": "bar"}]"#, nil),
    (
      "A.10", #"{"foo": "bar"}"#,
      #"[{"op": "add", "path": "/child", "value": {"grandchild": {}}}]"#,
      #"{"foo": "bar", "child": {"grandchild": {}}}"#
    ),
    (
      "A.11", #"{"foo": "bar"}"#, #"[{"op": "add", "path": "/baz", "value": "qux", "xyz": 123}]"#,
      #"{"foo": "bar", "baz": "qux"}"#
    ),
    ("A.12", #"{"foo": "bar"}"#, #"[{"op": "add", "path": "/baz/bat", "value": "qux"}]"#, nil),
    // A.13 (an operation with two "op" members) cannot be written as a JSON value: AutoMap's
    // reader keeps the last of repeated keys, as everywhere.
    (
      "A.14", #"{"/": 9, "~1": 10}"#, #"[{"op": "test", "path": "/~01", "value": 10}]"#,
      #"{"/": 9, "~1": 10}"#
    ),
    ("A.15", #"{"/": 9, "~1": 10}"#, #"[{"op": "test", "path": "/~01", "value": "10"}]"#, nil),
    (
      "A.16", #"{"foo": ["bar"]}"#, #"[{"op": "add", "path": "/foo/-", "value": ["abc", "def"]}]"#,
      #"{"foo": ["bar", ["abc", "def"]]}"#
    ),
  ]

  @Test("RFC 6902 appendix A", arguments: appendixA)
  func appendix(section: String, document: String, patch: String, result: String?) throws {
    let original = try JSON(jsonString: document)
    let operations = try JSON.Patch(jsonString: patch)
    if let result {
      #expect(try original.applying(operations) == JSON(jsonString: result), "\(section)")
    } else {
      var changed = original
      #expect(throws: JSON.Error.self, "\(section) fails") { try changed.apply(operations) }
      #expect(changed == original, "\(section): a failed patch changes nothing")
    }
  }

  @Test("a failing operation leaves the value as it was, even after earlier ones succeeded")
  func atomic() {
    var json: JSON = ["a": [1, 2], "b": ["c": true]]
    let before = json
    #expect(throws: JSON.Error.self) {
      try json.apply([
        .add(["a", "-"], 3), .remove(["b", "c"]), .replace(["a", 0], "x"), .remove(["missing"]),
      ])
    }
    #expect(json == before)
  }

  @Test("an error names the operation's position, name and pointer, and where it failed")
  func errorNamesOperation() throws {
    let json: JSON = ["users": [["name": "Ada"]]]
    let patch = try JSON.Patch(
      jsonString: #"""
        [{"op": "test", "path": "/users/0/name", "value": "Ada"},
         {"op": "replace", "path": "/users/0/email", "value": "a@b"}]
        """#)
    #expect {
      try json.applying(patch)
    } throws: { error in
      guard let error = error as? JSON.Error else { return false }
      return error.message == #"operation 1 (replace /users/0/email): no key "email""#
        && error.pointer == "/users/0/email" && error.path == "users[0].email"
        && error.kind == .missingValue
    }
    #expect {
      try json.applying([.add(["users", 5], "x")])
    } throws: { error in
      guard let error = error as? JSON.Error else { return false }
      return error.message.hasPrefix("operation 0 (add /users/5): index 5 is past the end")
        && error.pointer == "/users/5"
    }
    #expect {
      try json.applying([.test(["users", 0, "name"], "Grace")])
    } throws: { error in
      guard let error = error as? JSON.Error else { return false }
      return error.message
        == #"operation 0 (test /users/0/name): test failed: expected string "Grace", found string "Ada""#
    }
  }

  @Test("a malformed patch document names the member that is wrong")
  func malformedPatch() {
    let cases: [(String, String)] = [
      (#"[{"op": "add", "value": 1}]"#, "[0].path"),
      (#"[{"path": "/a"}]"#, "[0].op"),
      (#"[{"op": "add", "path": "/a"}, {"op": "spam", "path": "/a"}]"#, "[0].value"),
      (#"[{"op": "remove", "path": "/a"}, {"op": "spam", "path": "/a"}]"#, "[1].op"),
      (#"[{"op": "move", "path": "/a"}]"#, "[0].from"),
      (#"[{"op": "copy", "from": "a", "path": "/a"}]"#, "[0].from"),
      (#"[{"op": "remove", "path": null}]"#, "[0].path"),
      (#"{"op": "remove", "path": "/a"}"#, ""),
    ]
    for (text, path) in cases {
      #expect(throws: JSON.Error.self, "\(text)") { try JSON.Patch(jsonString: text) }
      do {
        _ = try JSON.Patch(jsonString: text)
      } catch let error as JSON.Error {
        #expect(error.path == path, "\(text)")
      } catch {
        Issue.record("\(error)")
      }
    }
  }

  @Test("a patch writes its JSON form and reads it back")
  func roundTrip() throws {
    let patch: JSON.Patch = [
      .add(["a/b", "-"], [1, nil]), .remove(["x", 0]), .replace([], "whole"),
      .move(from: ["m~n"], to: ["o"]), .copy(from: ["p"], to: ["q", 1]), .test(["r"], true),
    ]
    let text = try patch.jsonString()
    #expect(
      text
        == #"[{"op":"add","path":"/a~1b/-","value":[1,null]},{"op":"remove","path":"/x/0"},"#
        + #"{"op":"replace","path":"","value":"whole"},{"op":"move","from":"/m~0n","path":"/o"},"#
        + #"{"op":"copy","from":"/p","path":"/q/1"},{"op":"test","path":"/r","value":true}]"#)
    let read = try JSON.Patch(jsonString: text)
    #expect(try read.json == patch.json)
  }

  @Test("move into its own child is refused; onto itself changes nothing")
  func moveIntoItself() throws {
    let json: JSON = ["a": ["b": 1]]
    #expect(throws: JSON.Error.self) {
      try json.applying([.move(from: ["a"], to: ["a", "b", "c"])])
    }
    #expect(try json.applying([.move(from: ["a"], to: ["a"])]) == json)
    #expect(throws: JSON.Error.self) { try json.applying([.move(from: ["z"], to: ["z"])]) }
  }

  @Test("test compares strings by code points, numbers by value")
  func testEquality() throws {
    let json: JSON = ["s": "\u{E9}", "n": 1]
    #expect(throws: JSON.Error.self) { try json.applying([.test(["s"], "e\u{301}")]) }
    #expect(try json.applying([.test(["s"], "\u{E9}"), .test(["n"], 1.0)]) == json)
  }

  @Test("patch(from:to:) gives a patch that turns one value into the other", arguments: 0..<200)
  func diffProperty(seed: Int) throws {
    var random = DiffRandom(seed: UInt64(seed))
    let source = JSONValueGenerator.value(&random, depth: 3)
    let target = JSONValueGenerator.mutated(source, &random, depth: 3)
    let patch = JSON.patch(from: source, to: target)
    #expect(try source.applying(patch) == target, "\(source) -> \(target) by \(patch)")
    #expect(JSON.patch(from: target, to: target).operations.isEmpty)
  }

  @Test("patch(from:to:) on arrays keeps the common start and end")
  func diffArrays() {
    let patch = JSON.patch(from: [1, 2, 3, 4, 5], to: [1, 2, 9, 8, 7, 4, 5])
    #expect(patch == [.replace([2], 9), .add([3], 8), .add([4], 7)])
    let shorter = JSON.patch(from: ["a", "b", "c", "d"], to: ["a", "d"])
    #expect(shorter == [.remove([2]), .remove([1])])
    #expect(JSON.patch(from: ["a": 1], to: [1]) == [.replace([], [1])])
  }

  @Test(
    "runs of removals give what one operation at a time gives, result or error", arguments: 0..<120)
  func removalRunsAgree(seed: Int) throws {
    // Consecutive `remove`s of one object's members, or of one array's elements from the
    // last down, go in one pass. Against the same operations applied one patch each: members
    // small and large objects have, missing, repeated, spelled two ways (canonically
    // equivalent); positions falling, repeated, rising, past the end, malformed; missing
    // parents.
    var random = DiffRandom(seed: UInt64(seed) &+ 0xDE1E7E)
    let width = random.chance(50) ? 5 + random.below(10) : 17 + random.below(300)
    var members = JSON.Object()
    for index in 0..<width { members["k\(index)"] = JSON(index) }
    members["caf\u{E9}"] = "precomposed"
    members["cafe\u{301}"] = "decomposed"
    let length = 3 + random.below(40)
    let list = JSON.array((0..<length).map { JSON($0) })
    let document: JSON = ["inner": .object(members), "list": list, "n": 0]
    let listShare = random.chance(50) ? 1 : 6  // of 12: some patches mostly remove elements
    var lastPosition = length
    // Most patches write positions from the last down, as diffs do (and sometimes one
    // twice); a messy one also writes others.
    let messy = random.chance(30)
    func position() -> String {
      if messy {
        switch random.below(10) {
        case 0: return "-"
        case 1: return "01"
        case 2: return "\(random.below(length + 2))"
        default: break
        }
      }
      if random.chance(10) { return "\(min(lastPosition, length - 1))" }  // the same again
      lastPosition = lastPosition > 0 ? random.below(lastPosition) : length - 1
      return "\(lastPosition)"
    }
    func key() -> String {
      switch random.below(20) {
      case 0: return "missing\(random.below(3))"
      case 1: return random.chance(50) ? "caf\u{E9}" : "cafe\u{301}"
      default: return "k\(random.below(width + 2))"
      }
    }
    var operations: [JSON.Patch.Operation] = []
    for _ in 0..<(1 + random.below(40)) {
      let choice = random.below(12)
      if choice < listShare {
        operations.append(.remove(["list", .key(position())]))
        continue
      }
      switch choice {
      case 6: operations.append(.remove(["absent", .key(key())]))
      case 7: operations.append(.add(["inner", .key(key())], true))
      case 8: operations.append(.add(["list", 0], true))
      default: operations.append(.remove(["inner", .key(key())]))
      }
    }
    var expected = document
    var expectedError: (message: String, error: JSON.Error)?
    for (position, operation) in operations.enumerated() {
      do {
        try expected.apply([operation])
      } catch let error as JSON.Error {
        // A one-operation patch names its operation 0.
        let message = error.message.replacingOccurrences(
          of: "operation 0 ", with: "operation \(position) ")
        expectedError = (message, error)
        break
      }
    }
    do {
      let patched = try document.applying(JSON.Patch(operations))
      #expect(
        expectedError == nil, "seed \(seed): no error, expected \(expectedError?.message ?? "")")
      #expect(patched == expected, "seed \(seed)")
      if case .object(let patchedInner) = patched["inner"],
        case .object(let inner) = expected["inner"]
      {
        #expect(patchedInner.keys == inner.keys, "seed \(seed): the members' order")
      }
      #expect(patched["list"] == expected["list"], "seed \(seed): the elements")
    } catch let error as JSON.Error {
      #expect(error.message == expectedError?.message, "seed \(seed)")
      #expect(error.path == expectedError?.error.path && error.kind == expectedError?.error.kind)
    }
  }

  @Test("a patch that removes many members of a wide object costs in proportion")
  func removalsAreLinear() throws {
    // One at a time, each removal moved the object's later members and rebuilt its key
    // table: a quarter of the members cost their count times the object's.
    func inputs(_ count: Int) -> (JSON, JSON.Patch) {
      var object = JSON.Object()
      for index in 0..<count { object["k\(index)"] = JSON(index) }
      let removals = stride(from: 1, to: count, by: 4).map { index -> JSON.Patch.Operation in
        .remove(.key("k\(index)"))
      }
      return (.object(object), JSON.Patch(removals + [.replace(["k0"], "first")]))
    }
    let sized = [4_000: inputs(4_000), 16_000: inputs(16_000)]
    let growth = try costGrowth(from: 4_000, to: 16_000) { count in
      let (document, patch) = try #require(sized[count])
      #expect(try document.applying(patch).count == count - count / 4)
    }
    #expect(growth < 8, "removing 4x the members cost \(growth)x")
  }

  @Test("pointers whose keys are two spellings of one text name two places")
  func spellingsAreTwoParents() throws {
    // "café" with "é" as one scalar, and as "e" and a combining accent: two keys, as JSON
    // compares keys by their bytes (Swift's `==` takes them for one).
    let (composed, decomposed) = ("caf\u{E9}", "cafe\u{301}")
    let document: JSON = [composed: ["x": 1, "y": 2], decomposed: ["y": 3]]
    // A run of removals from two parents: each from its own.
    let removed = try document.applying([
      .remove([.key(composed), "x"]), .remove([.key(decomposed), "y"]),
    ])
    #expect(removed == [composed: ["y": 2], decomposed: [:]])
    // One that fails on the second parent fails, and changes nothing.
    let onlyFirst: JSON = [composed: ["x": 1, "y": 2], decomposed: [:]]
    #expect(throws: JSON.Error.self) {
      try onlyFirst.applying([.remove([.key(composed), "x"]), .remove([.key(decomposed), "y"])])
    }
    // A move from one to the other is a move, not one onto itself.
    let moved = try document.applying([.move(from: [.key(composed)], to: [.key(decomposed)])])
    #expect(moved == [decomposed: ["x": 1, "y": 2]])
    let nested = try document.applying([
      .move(from: [.key(composed)], to: [.key(decomposed), "inner"])
    ])
    #expect(nested == [decomposed: ["y": 3, "inner": ["x": 1, "y": 2]]])
  }
}
