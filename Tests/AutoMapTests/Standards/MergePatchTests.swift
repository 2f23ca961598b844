import AutoMap
import Testing

@Suite("JSON Merge Patch (RFC 7386)")
struct MergePatchTests {
  /// RFC 7386 appendix A, as (original, patch, result).
  static let appendixA: [(String, String, String)] = [
    (#"{"a":"b"}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
    (#"{"a":"b"}"#, #"{"b":"c"}"#, #"{"a":"b","b":"c"}"#),
    (#"{"a":"b"}"#, #"{"a":null}"#, #"{}"#),
    (#"{"a":"b","b":"c"}"#, #"{"a":null}"#, #"{"b":"c"}"#),
    (#"{"a":["b"]}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
    (#"{"a":"c"}"#, #"{"a":["b"]}"#, #"{"a":["b"]}"#),
    (#"{"a":{"b":"c"}}"#, #"{"a":{"b":"d","c":null}}"#, #"{"a":{"b":"d"}}"#),
    (#"{"a":[{"b":"c"}]}"#, #"{"a":[1]}"#, #"{"a":[1]}"#),
    (#"["a","b"]"#, #"["c","d"]"#, #"["c","d"]"#),
    (#"{"a":"b"}"#, #"["c"]"#, #"["c"]"#),
    (#"{"a":"foo"}"#, #"null"#, #"null"#),
    (#"{"a":"foo"}"#, #""bar""#, #""bar""#),
    (#"{"e":null}"#, #"{"a":1}"#, #"{"e":null,"a":1}"#),
    (#"[1,2]"#, #"{"a":"b","c":null}"#, #"{"a":"b"}"#),
    (#"{}"#, #"{"a":{"bb":{"ccc":null}}}"#, #"{"a":{"bb":{}}}"#),
  ]

  @Test("RFC 7386 appendix A", arguments: appendixA)
  func appendix(original: String, patch: String, result: String) throws {
    let target = try JSON(jsonString: original)
    let change = try JSON(jsonString: patch)
    let expected = try JSON(jsonString: result)
    #expect(target.merging(patch: change) == expected)
    // The patch made from the two values does the same.
    let made = try JSON.mergePatch(from: target, to: expected)
    #expect(target.merging(patch: made) == expected, "made \(made)")
  }

  @Test("RFC 7386 section 3: the example document")
  func sectionThree() throws {
    let document = try JSON(
      jsonString: #"""
        {"title": "Goodbye!", "author": {"givenName": "John", "familyName": "Doe"},
         "tags": ["example", "sample"], "content": "This will be unchanged"}
        """#)
    let patch = try JSON(
      jsonString: #"""
        {"title": "Hello!", "phoneNumber": "+01-123-456-7890", "author": {"familyName": null},
         "tags": ["example"]}
        """#)
    let expected = try JSON(
      jsonString: #"""
        {"title": "Hello!", "author": {"givenName": "John"}, "tags": ["example"],
         "content": "This will be unchanged", "phoneNumber": "+01-123-456-7890"}
        """#)
    #expect(document.merging(patch: patch) == expected)
    #expect(try JSON.mergePatch(from: document, to: expected) == patch)
  }

  @Test("a target with a null member no merge patch reaches is refused at that member")
  func unreachableNull() {
    #expect {
      try JSON.mergePatch(from: ["a": ["b": 1]], to: ["a": ["b": nil]])
    } throws: { error in
      (error as? JSON.Error)?.path == "a.b"
    }
    #expect {
      try JSON.mergePatch(from: [1], to: ["x": ["y": nil]])
    } throws: { error in
      (error as? JSON.Error)?.path == "x.y"
    }
    // A null already there, or inside an array, is fine.
    #expect(throws: Never.self) {
      try JSON.mergePatch(from: ["e": nil], to: ["e": nil, "f": [nil]])
    }
  }

  @Test(
    "mergePatch(from:to:) gives a patch that turns one value into the other", arguments: 0..<200)
  func property(seed: Int) throws {
    var random = DiffRandom(seed: UInt64(seed))
    let source = JSONValueGenerator.value(&random, depth: 3)
    let target = JSONValueGenerator.mutated(source, &random, depth: 3)
    do {
      let patch = try JSON.mergePatch(from: source, to: target)
      #expect(source.merging(patch: patch) == target, "\(source) -> \(target) by \(patch)")
    } catch let error as JSON.Error {
      // Only a null member the patch cannot set: check that one is there.
      #expect(target[try JSON.Index(pointer: error.pointer)] == nil, "\(error)")
    }
  }
}
