import AutoMap
import Foundation
import Testing

@Suite("JSON Pointer (RFC 6901)")
struct JSONPointerTests {
  /// RFC 6901, section 5: the example document.
  static let document: JSON = [
    "foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, #"i\j"#: 5,
    #"k"l"#: 6, " ": 7, "m~n": 8,
  ]

  /// RFC 6901, section 5: each pointer in its string form and the value it finds.
  static let stringForm: [(String, JSON)] = [
    ("", document), ("/foo", ["bar", "baz"]), ("/foo/0", "bar"), ("/", 0), ("/a~1b", 1),
    ("/c%d", 2), ("/e^f", 3), ("/g|h", 4), (#"/i\j"#, 5), (#"/k"l"#, 6), ("/ ", 7),
    ("/m~0n", 8),
  ]

  /// RFC 6901, section 6: the same pointers as URI fragments.
  static let fragmentForm: [(String, JSON)] = [
    ("#", document), ("#/foo", ["bar", "baz"]), ("#/foo/0", "bar"), ("#/", 0), ("#/a~1b", 1),
    ("#/c%25d", 2), ("#/e%5Ef", 3), ("#/g%7Ch", 4), ("#/i%5Cj", 5), ("#/k%22l", 6),
    ("#/%20", 7), ("#/m~0n", 8),
  ]

  @Test("RFC 6901 section 5: every pointer finds its value", arguments: stringForm)
  func rfcStringForm(pointer: String, expected: JSON) throws {
    let index = try JSON.Index(pointer: pointer)
    #expect(Self.document[index] == expected)
    #expect(Self.document[pointer: pointer] == expected)
    #expect(index.pointer == pointer, "the pointer writes back as it was read")
  }

  @Test("RFC 6901 section 6: URI fragments find the same values", arguments: fragmentForm)
  func rfcFragmentForm(pointer: String, expected: JSON) throws {
    #expect(Self.document[try JSON.Index(pointer: pointer)] == expected)
  }

  @Test("an index written as literals spells its pointer with ~0 and ~1")
  func literalsToPointer() {
    let index: JSON.Index = ["a/b", 0, "m~n", ""]
    #expect(index.pointer == "/a~1b/0/m~0n/")
    #expect(JSON.Index.path([]).pointer == "")
  }

  @Test(
    "malformed pointers are refused with the byte where they go wrong",
    arguments: [("foo", 0), ("/a~2", 3), ("/a~", 3), ("a/b", 0), ("#%zz", 0)])
  func malformed(pointer: String, offset: Int) {
    #expect {
      try JSON.Index(pointer: pointer)
    } throws: { error in
      guard let error = error as? JSON.Error,
        case .malformed(let at, _, _) = error.kind
      else { return false }
      return at == offset && error.message.contains("JSON Pointer")
    }
    let json: JSON = ["a": 1]
    #expect(json[pointer: pointer].isMissing)
  }

  @Test("digits are a key in an object and a position in an array")
  func digitsEitherWay() throws {
    let json: JSON = ["0": ["x", "y"], "list": [["1": "one"], "second"]]
    #expect(json[pointer: "/0/1"] == "y")
    #expect(json[pointer: "/list/0/1"] == "one")
    #expect(json[pointer: "/list/1"] == "second")
    // Leading zeros and "-" name no element of an array.
    #expect(json[pointer: "/list/01"].isMissing)
    #expect(json[pointer: "/list/-"].isMissing)
    #expect(json[pointer: "/list/1e0"].isMissing)
  }

  @Test("a missing value names its path, and the error spells it as a pointer")
  func missingNamesPointer() throws {
    let json: JSON = ["data": ["users": [["name": "Ada"]]]]
    guard case .missing(let error) = json[pointer: "/data/users/0/email"] else {
      Issue.record("expected missing")
      return
    }
    #expect(error.path == "data.users[0].email")
    #expect(error.pointer == "/data/users/0/email")
    guard case .missing(let outOfRange) = json[pointer: "/data/users/3"] else {
      Issue.record("expected missing")
      return
    }
    #expect(outOfRange.pointer == "/data/users/3")
  }

  @Test("decoding errors give their path as a pointer")
  func decodingErrorPointer() {
    struct Point: JSONDecodable, Equatable { var x: Int }
    #expect {
      try [String: [Point]](jsonString: #"{"a/b": [{"x": 1}, {"x": "two"}]}"#)
    } throws: { error in
      (error as? JSON.Error)?.pointer == "/a~1b/1/x"
    }
  }

  @Test("a pointer reads straight from bytes, as a path of literals does")
  func pointerOnBytes() throws {
    let data = Data(#"{"data": {"0": [10, 20, 30]}, "list": [{"n": 1}, {"n": 2}]}"#.utf8)
    #expect(try Int(jsonData: data, at: try JSON.Index(pointer: "/data/0/2")) == 30)
    #expect(try Int(jsonData: data, at: try JSON.Index(pointer: "/list/1/n")) == 2)
    #expect(throws: JSON.Error.self) {
      try Int(jsonData: data, at: try JSON.Index(pointer: "/list/-"))
    }
    #expect(throws: JSON.Error.self) {
      try Int(jsonData: data, at: try JSON.Index(pointer: "/list/0/n/0"))
    }
  }

  @Test("setting through a pointer creates objects for keys, arrays for digits; - appends")
  func settingThroughPointer() throws {
    var json: JSON = ["list": [1]]
    json[try JSON.Index(pointer: "/list/-")] = 2
    json[try JSON.Index(pointer: "/new/0/name")] = "x"
    json[try JSON.Index(pointer: "/obj/a~1b")] = true
    #expect(json == ["list": [1, 2], "new": [["name": "x"]], "obj": ["a/b": true]])
  }

  @Test("indices and patches tell two spellings of one key apart, as documents do")
  func spellingsAreTwoIndices() {
    // "café" with "é" as one scalar, and as "e" and a combining accent: Swift's `==` takes
    // them for one string; JSON keys, and so indices and patches, are their bytes.
    let (composed, decomposed) = ("caf\u{E9}", "cafe\u{301}")
    #expect(JSON.Index.key(composed) != JSON.Index.key(decomposed))
    #expect(Set([JSON.Index.key(composed), JSON.Index.key(decomposed)]).count == 2)
    #expect(JSON.Index.path(["a", .key(composed)]) == JSON.Index.path(["a", .key(composed)]))
    let patches: [JSON.Patch] = [[.remove([.key(composed)])], [.remove([.key(decomposed)])]]
    #expect(patches[0] != patches[1])
    // The same key, made twice, is one index whatever its storage.
    let rebuilt = String(decoding: Array(composed.utf8), as: UTF8.self)
    #expect(JSON.Index.key(composed) == JSON.Index.key(rebuilt))
    #expect(JSON.Index.key(composed).hashValue == JSON.Index.key(rebuilt).hashValue)
    #expect(JSON.Index.key("ab") != JSON.Index.path(["a", "b"]))
  }
}
