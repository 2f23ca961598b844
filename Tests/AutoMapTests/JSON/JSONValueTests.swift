import AutoMap
import Foundation
import Testing

@Suite("The JSON value")
struct JSONValueTests {
  let sample: JSON = [
    "data": ["users": [["name": "Ada", "id": 1], ["name": "Alan", "id": 2]]],
    "count": 2, "ok": true, "ratio": 0.5, "note": nil,
  ]

  @Test("literals of every kind")
  func literals() {
    let json: JSON = ["a": 1, "b": [true, nil, 2.5, "x"], "c": [:]]
    #expect(json["a"] == .number(1))
    #expect(json["b"] == .array([.bool(true), .null, .number(2.5), .string("x")]))
    #expect(json["c"] == .object(JSON.Object()))
  }

  @Test("subscripts by key, index and path")
  func subscripts() {
    #expect(sample["data", "users", 1, "name"] == "Alan")
    let path: JSON.Index = ["data", "users", 0]
    #expect(sample[path]["name"] == "Ada")
    #expect(sample[path, "id"] == 1)
    #expect(sample["data"]["users"][1]["id"] == 2)
  }

  @Test("a missing key or index never traps and names its path")
  func missing() throws {
    #expect(Int(sample["nope"]) == nil)
    #expect(sample["data", "users", 5, "name"].isMissing)
    let error = #expect(throws: JSON.Error.self) {
      try String(decode: sample["data", "users", 5, "name"])
    }
    #expect(error?.path == "data.users[5]")
    #expect(error?.description == "at data.users[5]: index 5 out of range (array of 2)")
    let typeError = #expect(throws: JSON.Error.self) { try Int(decode: sample["count", "x"]) }
    #expect(typeError?.path == "count")  // the value there is not an object
    #expect(typeError?.kind == .typeMismatch)
  }

  @Test("setting through a path creates what is missing")
  func settingPaths() throws {
    var json: JSON = nil
    json["a", "b", 2] = 1
    #expect(json == ["a": ["b": [nil, nil, 1]]])
    json["a", "c"] = "x"
    #expect(try json.jsonString() == #"{"a":{"b":[null,null,1],"c":"x"}}"#)
    json["a", "b", 0] = true
    #expect(json["a", "b"] == [true, nil, 1])
  }

  @Test("typed reads")
  func typedReads() throws {
    #expect(Int(sample["count"]) == 2)
    #expect(Double(sample["ratio"]) == 0.5)
    #expect(Bool(sample["ok"]) == true)
    #expect(String(sample["data", "users", 0, "name"]) == "Ada")
    #expect(Int(sample["ratio"]) == nil, "0.5 is not an integer")
    #expect(Int8(JSON(300)) == nil, "300 does not fit Int8")
    #expect(Int(JSON(3.0)) == 3, "an integral double is an integer")
    #expect(try Int(decode: sample["count"]) == 2)
    #expect(throws: JSON.Error.self) { try Int(decode: sample["ok"]) }
  }

  @Test("objects keep order; equality ignores it; hashing agrees")
  func objectOrder() throws {
    let a = try JSON(jsonString: #"{"x": 1, "y": 2}"#)
    let b = try JSON(jsonString: #"{"y": 2, "x": 1}"#)
    #expect(a.object?.keys == ["x", "y"])
    #expect(b.object?.keys == ["y", "x"])
    #expect(a == b)
    #expect(a.hashValue == b.hashValue)
    #expect(Set([a, b]).count == 1)
    #expect(JSON(1) == JSON(1.0))
    #expect(JSON(1).hashValue == JSON(1.0).hashValue)
  }

  @Test("comparing deep documents takes time in proportion to their size")
  func deepEquality() throws {
    // 28 levels that differ only at the bottom, in the same order and in another order at
    // every level: each pair of values is compared once. (It was twice per level, 2^28
    // comparisons: seconds in a release build, minutes in a debug one; at 400 levels, never
    // done.)
    func document(_ bottom: Int64, reordered: Bool) -> JSON {
      var json = JSON(bottom)
      for _ in 0..<28 { json = reordered ? ["b": 1, "a": json] : ["a": json, "b": 1] }
      return json
    }
    let (one, two, shuffled) = (
      document(1, reordered: false), document(2, reordered: true), document(1, reordered: true)
    )
    let clock = ContinuousClock()
    let start = clock.now
    #expect(one != document(2, reordered: false))
    #expect(one != two)
    #expect(one == shuffled)
    #expect(clock.now - start < .milliseconds(500))
  }

  @Test("iteration and count")
  func iteration() {
    #expect(sample.count == 5)
    #expect(sample["data", "users"].map { String($0["name"]) ?? "" } == ["Ada", "Alan"])
    #expect(sample.members.map(\.key) == ["data", "count", "ok", "ratio", "note"])
    #expect(JSON(3).count == 0)
  }

  @Test("description is compact JSON text")
  func description() {
    #expect(sample["data", "users", 0].description == #"{"name":"Ada","id":1}"#)
    #expect(JSON("a\"b").description == #""a\"b""#)
  }
}
