import AutoMap
import Foundation
import Testing

/// A JSON Patch is often input: a client sends it, a server applies it. Whatever the patch,
/// applying it gives a document or an error, never a crash, a hang or a document no one can
/// write; and the walks over `JSON` values (pointers, `test`, diffs, merge patches) take no
/// stack per level, so values deeper than any stack holds still work on a 512 KiB thread.
@Suite struct PatchAttackTests {
  /// Far deeper than a 512 KiB stack holds one frame per level of.
  static let deep = 3_000

  @Test("copying the document into its own deepest container stops at the depth bound")
  func doublingDepth() throws {
    // Each copy puts the whole document inside its deepest object: 4, 8, 16 … levels, and
    // pointers as long, for 20 operations (a million levels).
    var depth = 2
    var operations: [JSON.Patch.Operation] = []
    for _ in 0..<20 {
      let target = try JSON.Index(pointer: String(repeating: "/a", count: depth))
      operations.append(.copy(from: try JSON.Index(pointer: ""), to: target))
      depth *= 2
    }
    let document: JSON = ["a": ["b": 1]]
    let patch = JSON.Patch(operations)
    let outcome = try onThread(stackSize: SmallStackTests.smallStack) {
      var patched = document
      do {
        try patched.apply(patch)
        return "applied"
      } catch let error as JSON.Error {
        return patched == document ? "\(error.kind): \(error.message)" : "changed: \(error)"
      }
    }
    // 2 << 8 is 512 levels, the bound; the next copy, operation 8, would make 1 024.
    #expect(outcome.hasPrefix("tooDeep(limit: 512): operation 8 (copy /a/a/a"))
    #expect(outcome.hasSuffix("the result would nest deeper than 512 arrays and objects"))
    // Up to the bound the copies are made.
    var upToBound = document
    try upToBound.apply(JSON.Patch(Array(operations.prefix(8))))
    #expect(try JSON(jsonData: upToBound.jsonData()) == upToBound)
  }

  @Test("a copy into a deep place stops at the depth bound")
  func deepCopy() throws {
    let chain = try JSON(jsonString: nested(#"{"a":"#, 300, "1", "}"))
    var document: JSON = ["x": chain, "y": chain]
    let original = document
    // "/y" and k × "/a": the copy's 300 levels go inside k + 1 objects.
    func into(_ k: Int) throws -> JSON.Index {
      try JSON.Index(pointer: "/y" + String(repeating: "/a", count: k - 1) + "/b")
    }
    let error = #expect(throws: JSON.Error.self) {
      try document.apply([.copy(from: ["x"], to: try into(212))])
    }
    #expect(error?.kind == .tooDeep(limit: JSON.maximumDepth))
    #expect(
      error?.message.hasSuffix("the result would nest deeper than 512 arrays and objects") == true)
    #expect(document == original)
    try document.apply([.copy(from: ["x"], to: try into(211))])
    #expect(try JSON(jsonData: document.jsonData()) == document)
  }

  @Test("copies of copies are refused before they double the document")
  func doublingSize() throws {
    let root = try JSON.Index(pointer: "")
    let document: JSON = ["a": [1, 2, 3]]
    // Each copy of the whole document into a new member doubles it: 2⁶⁴ values in the end.
    // Copies may hold 65 536 values in all (more than the document's 5): the copies of 5,
    // 10 … 5 × 2¹² values make 40 955, the next would make 81 915.
    let doubling = JSON.Patch((0..<64).map { .copy(from: root, to: .key("c\($0)")) })
    var patched = document
    let error = #expect(throws: JSON.Error.self) { try patched.apply(doubling) }
    #expect(error?.kind == .unencodable)
    #expect(
      error?.message.hasPrefix(
        "operation 13 (copy /c13): the patch's copies would come to more than 65536") == true)
    #expect(error?.path == "c13")
    #expect(patched == document)

    // Copying what was there, or what the patch brought, many times is no such thing.
    var operations: [JSON.Patch.Operation] = [.add(["b"], ["x": [true, false]])]
    for copy in 0..<100 {
      operations.append(.copy(from: ["a"], to: .key("a\(copy)")))
      operations.append(.copy(from: ["b"], to: .key("b\(copy)")))
    }
    try patched.apply(JSON.Patch(operations))
    #expect(patched.object?.count == 202)
    #expect(patched["a99"] == [1, 2, 3])
    #expect(patched["b0", "x", 1] == false)
  }

  @Test("the copies of one patch together hold no more than the document and the patch")
  func copiesTogether() throws {
    // 100 003 (a value each, and the key's byte): one copy of "a" (100 001) fits; a second
    // would make 200 002.
    let large: JSON = ["a": .array(Array(repeating: 0, count: 100_000))]
    var document = large
    let twice: JSON.Patch = [.copy(from: ["a"], to: ["b"]), .copy(from: ["a"], to: ["c"])]
    let error = #expect(throws: JSON.Error.self) { try document.apply(twice) }
    #expect(error?.message.hasPrefix("operation 1 (copy /c): the patch's copies would") == true)
    #expect(document == large)
    try document.apply([.copy(from: ["a"], to: ["b"])])
    #expect(document["b"] == large["a"])
    // A small document can take a copy 65 times of 1 001 values (65 065), not 66.
    let small: JSON = ["t": .array(Array(repeating: 0, count: 1_000))]
    var copies = small
    let many = JSON.Patch((0..<70).map { .copy(from: ["t"], to: .key("t\($0)")) })
    let refused = #expect(throws: JSON.Error.self) { try copies.apply(many) }
    #expect(refused?.message.hasPrefix("operation 65 (copy /t65)") == true)
    #expect(copies == small)
  }

  @Test("the allowance to its last unit: values, and the bytes of strings and keys")
  func allowanceUnits() throws {
    // 65 536 exactly: the object and its key's byte, the array, 65 533 numbers.
    let exact: JSON = ["t": .array(Array(repeating: 0, count: 65_533))]
    let upTo: JSON.Patch = [
      .copy(from: ["t"], to: ["a"]), .copy(from: ["t", 0], to: ["b"]),
      .copy(from: ["t", 1], to: ["c"]),
    ]
    #expect(try exact.applying(upTo)["c"] == 0)
    let past = #expect(throws: JSON.Error.self) {
      try exact.applying(JSON.Patch(upTo.operations + [.copy(from: ["t", 2], to: ["d"])]))
    }
    #expect(past?.message.hasPrefix("operation 3 (copy /d)") == true)
    // What the patch brings counts: a copy of it fits.
    var brought: JSON = ["x": 1]
    try brought.apply([
      .add(["big"], .array(Array(repeating: 0, count: 100_000))),
      .copy(from: ["big"], to: ["again"]),
    ])
    #expect(brought["again"].array?.count == 100_000)
    // A string counts its bytes: a megabyte copied twice is past a document of one megabyte.
    let text: JSON = ["s": .string(String(repeating: "x", count: 1_000_000))]
    let copiedTwice: JSON.Patch = [.copy(from: ["s"], to: ["a"]), .copy(from: ["s"], to: ["b"])]
    let strings = #expect(throws: JSON.Error.self) { try text.applying(copiedTwice) }
    #expect(strings?.message.hasPrefix("operation 1 (copy /b)") == true)
  }

  @Test("moves to deeper places check depth within the allowance; others are not walked")
  func deeperMoves() throws {
    // 100 005: two moves of the array to a deeper place would walk 200 002.
    let document: JSON = ["x": .array(Array(repeating: 0, count: 100_000)), "y": [:]]
    let alternating: JSON.Patch = [
      .move(from: ["x"], to: ["y", "x"]), .move(from: ["y", "x"], to: ["x"]),
      .move(from: ["x"], to: ["y", "x"]),
    ]
    let error = #expect(throws: JSON.Error.self) { try document.applying(alternating) }
    #expect(error?.kind == .unencodable)
    #expect(error?.message.hasPrefix("operation 2 (move /y/x): the patch's moves") == true)
    // A value built in code deeper than the bound moves where it is no deeper, but not deeper.
    var deep: JSON = 1
    for _ in 0..<600 { deep = [deep] }
    var holder: JSON = ["a": ["b": deep]]
    try holder.apply([.move(from: ["a", "b"], to: ["c"])])
    #expect(holder["c"] == deep)
    let deeper = #expect(throws: JSON.Error.self) {
      try holder.apply([.move(from: ["c"], to: ["a", "d"])])
    }
    #expect(deeper?.kind == .tooDeep(limit: JSON.maximumDepth))
  }

  @Test("an add, replace or move whose result is deeper than the bound is refused")
  func deepResults() throws {
    let bottom = try JSON(jsonString: nested("[", JSON.maximumDepth - 1, "1", "]"))
    var document: JSON = ["a": [], "b": ["c": [1]]]
    let original = document
    let refused: [JSON.Patch.Operation] = [
      .add(["a", "-"], bottom),  // 1 + 1 + 511 levels
      .replace(["b", "c"], bottom),
      .add(["b", "d"], [bottom]),
    ]
    for operation in refused {
      let error = #expect(throws: JSON.Error.self) { try document.apply([operation]) }
      #expect(error?.kind == .tooDeep(limit: JSON.maximumDepth), "\(operation)")
      #expect(document == original)
    }
    // At the bound exactly, it is done.
    try document.apply([.add(["d"], bottom)])
    #expect(try document.jsonString().hasSuffix(String(repeating: "]", count: 511) + "}"))
    // A move into the innermost of 510 arrays: {"c":[1]} would be levels 512 and 513.
    try document.apply([.add(["e"], try JSON(jsonString: nested("[", 510, "", "]")))])
    let inner = try JSON.Index(pointer: "/e" + String(repeating: "/0", count: 510))
    let error = #expect(throws: JSON.Error.self) {
      try document.apply([.move(from: ["b"], to: inner)])
    }
    #expect(error?.kind == .tooDeep(limit: JSON.maximumDepth))
    #expect(document["b"] == ["c": [1]])
    try document.apply([.move(from: ["b", "c"], to: inner)])
    #expect(try JSON(jsonData: document.jsonData()) == document)
  }

  @Test("pointers of any length and values of any depth, on a small stack")
  func deepValuesOnSmallStack() throws {
    let problems = try onThread(stackSize: 64 << 20) {
      // Made and freed here: freeing a value deeper than the stack holds is Swift's own
      // recursion, outside AutoMap. What the small stack makes is handed back to be freed.
      let chain = Self.chain(Self.deep, bottom: 1)
      let sameChain = Self.chain(Self.deep, bottom: 1)
      let otherChain = Self.chain(Self.deep, bottom: 2)
      let nullChain = Self.chain(Self.deep, bottom: nil)
      let pointer = try JSON.Index(pointer: String(repeating: "/a", count: Self.deep))
      let (problems, made) = try onThread(stackSize: SmallStackTests.smallStack) {
        var problems: [String] = []
        var made: [JSON] = []
        func expect(_ condition: Bool, _ what: String) { if !condition { problems.append(what) } }

        // The subscript's getter and setter.
        var set = chain
        set[pointer] = 5
        expect(set[pointer] == 5, "set through the pointer")
        made.append(set)

        // Patches: test, remove, and a replace past the bound.
        var patched = chain
        do {
          try patched.apply([.test(pointer, 1), .test([], sameChain), .remove(pointer)])
          expect(patched[pointer].isMissing, "removed")
        } catch { problems.append("patch: \(error)") }
        made.append(patched)
        do {
          try patched.apply([.replace(pointer, 1)])
          problems.append("replaced 3 000 levels down")
        } catch let error as JSON.Error {
          expect(error.kind == .tooDeep(limit: JSON.maximumDepth), "replace: \(error)")
        }
        var shallow: JSON = ["a": 1]
        expect(
          (try? shallow.apply([.add(pointer, 1)])) == nil, "a long pointer into a short document")

        // Equality, hashing, diffs and merge patches. Hashes take every level: values that
        // differ only at the bottom hash apart.
        expect(chain == sameChain && chain != otherChain, "==")
        expect(chain.hashValue == sameChain.hashValue, "equal values hash alike")
        expect(chain.hashValue != otherChain.hashValue, "values that differ deep down hash apart")
        let diff = JSON.patch(from: chain, to: otherChain)
        expect(
          diff.operations.map(\.name) == ["replace"]
            && diff.operations.first?.path.pointer == pointer.pointer
            && diff.operations.first?.value == 2, "diff: \(diff.operations.count) operations")
        var merged: JSON = [:]
        merged.merge(patch: otherChain)
        expect(merged == otherChain, "merge")
        made.append(merged)
        do {
          let mergePatch = try JSON.mergePatch(from: chain, to: otherChain)
          expect(mergePatch == otherChain, "merge patch")
          made.append(mergePatch)
        } catch { problems.append("merge patch: \(error)") }
        do {
          _ = try JSON.mergePatch(from: [:], to: nullChain)
          problems.append("a null member, 3 000 levels down, in a merge patch")
        } catch let error as JSON.Error {
          expect(error.path.hasSuffix(".a.a"), "merge patch error: \(error.path.suffix(20))")
        }
        return (problems, made)
      }
      _ = made
      return problems
    }
    #expect(problems == [])
  }

  @Test("a position that cannot be made, anywhere in a path, leaves the value as it was")
  func positionsNotMade() throws {
    var json: JSON = ["a": 1, "list": [1]]
    let original = json
    json["b", -1, "c"] = 2
    json["a", "b", -2] = 3
    // A pointer from input asks for an array of 10¹⁴ elements: not made.
    json[try JSON.Index(pointer: "/list/99999999999999")] = 4
    json[try JSON.Index(pointer: "/new/0/99999999999999/x")] = 5
    json["list", .position(1 + JSON.fillLimit + 1)] = 6
    // Nor three arrays of a million each, along one path.
    json[try JSON.Index(pointer: "/more" + String(repeating: "/1048576", count: 3))] = 7
    #expect(json == original)
    // As many nulls as the limit allows.
    json["list", .position(1 + JSON.fillLimit)] = 7
    #expect(json["list"].array?.count == 2 + JSON.fillLimit)
    #expect(json["list", .position(1 + JSON.fillLimit)] == 7)
    json["new", 2, "x"] = 8
    #expect(json["new"] == [nil, nil, ["x": 8]])
  }

  @Test("a value equals its copy, as Swift's arrays do, even holding NaN")
  func sharedStorage() {
    let nan = JSON.number(JSON.Number(Double.nan))
    let value: JSON = ["list": [nan], "object": ["x": nan]]
    let copy = value
    #expect(value == copy)
    #expect(value["list"] == copy["list"])
    #expect(value["list"] != [nan])  // not the same storage: NaN is unequal to itself
    #expect(value["object"] != ["x": nan])
  }

  /// `{"a":{"a":…{"a":bottom}…}}`, `levels` objects deep (`nil`: a `null` bottom).
  static func chain(_ levels: Int, bottom: Int?) -> JSON {
    var json: JSON = bottom.map { .number(JSON.Number(Int64($0))) } ?? .null
    for _ in 0..<levels { json = ["a": json] }
    return json
  }
}
