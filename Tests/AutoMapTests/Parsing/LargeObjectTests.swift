import AutoMap
import Foundation
import Testing

/// An object of `count` distinct keys: `{"k0": 0, "k1": 1, …}`.
private func largeObject(_ count: Int, repeating repeats: [(key: Int, value: Int)] = []) -> Data {
  var text = "{"
  for index in 0..<count { text += "\"k\(index)\": \(index)," }
  for (key, value) in repeats { text += "\"k\(key)\": \(value)," }
  text.removeLast()
  return Data((text + "}").utf8)
}

@Suite("Large objects are linear")
struct LargeObjectTests {
  @Test("100 000 distinct keys parse and decode, at a cost linear in the keys")
  func hundredThousandKeys() throws {
    // Linear work grows 4x, quadratic 16x: quadratic repeated-key checks took about 14 s for
    // 64 000 keys in release builds. Sizes compared in one run, in CPU time of this thread,
    // before the large object is tried.
    let objects = [4_000: largeObject(4_000), 16_000: largeObject(16_000)]
    let parsing = try costGrowth(from: 4_000, to: 16_000) { count in
      let json = try JSON(jsonData: objects[count, default: Data()])
      #expect(json.count == count)
    }
    try #require(parsing < 8, "parsing 4x the keys cost \(parsing)x")
    let decoding = try costGrowth(from: 4_000, to: 16_000) { count in
      let dictionary = try [String: Int](jsonData: objects[count, default: Data()])
      #expect(dictionary.count == count)
    }
    try #require(decoding < 8, "decoding 4x the keys cost \(decoding)x")

    let data = largeObject(100_000)
    let json = try JSON(jsonData: data)
    #expect(json.count == 100_000)
    #expect(json["k99999"] == 99_999)
    let dictionary = try [String: Int](jsonData: data)
    #expect(dictionary.count == 100_000)
    #expect(dictionary["k12345"] == 12_345)
    let viaJSON = try [String: Int](decode: json)
    #expect(viaJSON == dictionary)
  }

  @Test("a repeated key in a large object keeps its last value at its first position")
  func repeatedKeysInLargeObjects() throws {
    let data = largeObject(1_000, repeating: [(key: 5, value: -5), (key: 999, value: -1)])
    let json = try JSON(jsonData: data)
    let object = try #require(json.object)
    #expect(object.count == 1_000)
    #expect(object.keys[5] == "k5")
    #expect(json["k5"] == -5)
    #expect(json["k999"] == -1)
    #expect(try [String: Int](jsonData: data)["k5"] == -5)
  }

  @Test("repeated keys, plain or escaped, agree with a reference in objects past the filter")
  func repeatedKeysAgreeWithReference() throws {
    // Beyond 64 members the parser finds repeats through a hash table, hashing a plain key
    // from the input's bytes and an escaped one from its decoded string: both must land on
    // the same entry. Keys come from a small pool, so most repeat.
    var random = DiffRandom(seed: 0x5EED_0B1E_C7)
    for round in 0..<60 {
      let pool = (0..<(20 + random.below(400))).map {
        "key\($0)" + String(repeating: "é", count: $0 % 3)
      }
      var text = "{"
      var expected: [(key: String, value: Int)] = []
      for value in 0..<(65 + random.below(300)) {
        let key = random.pick(pool)
        // Sometimes spell the first character as an escape: `\u006b` for `k`.
        let spelled = random.chance(30) ? "\\u006b" + key.dropFirst() : key
        text += (value == 0 ? "" : ",") + "\"\(spelled)\":\(value)"
        if let position = expected.firstIndex(where: { $0.key == key }) {
          expected[position].value = value
        } else {
          expected.append((key, value))
        }
      }
      let json = try JSON(jsonData: Data((text + "}").utf8))
      let object = try #require(json.object)
      #expect(object.keys == expected.map(\.key), "round \(round)")
      #expect(object.values == expected.map { JSON($0.value) }, "round \(round)")
      for (key, value) in expected {
        #expect(json[.key(key)] == JSON(value), "round \(round): \(key)")
      }
      let decoded = try [String: Int](jsonData: Data((text + "}").utf8))
      #expect(decoded == Dictionary(uniqueKeysWithValues: expected.map { ($0.key, $0.value) }))
    }
  }

  @Test("removing, adding and setting members of large objects agree with a reference")
  func removalsAgreeWithReference() throws {
    // A removal updates the key table in place (its slot taken out, later positions moved
    // down) when no copy shares it. Objects shrink below the table's size and grow past it
    // again; a copy made along the way must keep answering as it did.
    var random = DiffRandom(seed: 0x0B7E_C7_2E_3A_0E)
    for round in 0..<40 {
      // Some keys come in two spellings of one text ("é" as one scalar, and as "e" and a
      // combining accent): two keys, as JSON compares keys by their bytes.
      let pool = (0..<(20 + random.below(600))).flatMap { index -> [String] in
        index % 5 == 0 ? ["caf\u{E9}\(index)", "cafe\u{301}\(index)"] : ["k\(index)"]
      }
      func same(_ a: String, _ b: String) -> Bool { a.utf8.elementsEqual(b.utf8) }
      var object = JSON.Object()
      var expected: [(key: String, value: Int)] = []
      var copies: [(JSON.Object, [(key: String, value: Int)])] = []
      for step in 0..<(200 + random.below(800)) {
        let key = random.pick(pool)
        let position = expected.firstIndex { same($0.key, key) }
        if random.chance(40) {
          #expect(object.removeValue(forKey: key) == position.map { JSON(expected[$0].value) })
          if let position { expected.remove(at: position) }
        } else {
          object[key] = JSON(step)
          if let position { expected[position].value = step } else { expected.append((key, step)) }
        }
        if random.chance(3) { copies.append((object, expected)) }
        if random.chance(10) || step % 97 == 0 {
          #expect(
            object.keys.elementsEqual(expected.map(\.key), by: same), "round \(round), step \(step)"
          )
          for key in pool {
            let value = expected.first { same($0.key, key) }.map { JSON($0.value) }
            #expect(object[key] == value, "round \(round), step \(step): \(key)")
          }
        }
      }
      for (copy, members) in copies {
        #expect(
          copy.keys.elementsEqual(members.map(\.key), by: same), "round \(round): a copy changed")
        for (key, value) in members { #expect(copy[key] == JSON(value)) }
      }
    }
  }

  @Test("a merge patch that removes many members of a wide object costs in proportion")
  func mergePatchRemovalsAreLinear() throws {
    // Each `null` of a merge patch used to remove its member on its own, rebuilding the key
    // table after each: a quarter of the members cost their count times the object's.
    func documents(_ count: Int) -> (JSON, JSON) {
      var object = JSON.Object()
      var patch = JSON.Object()
      for index in 0..<count {
        object["k\(index)"] = JSON(index)
        if index % 4 == 1 { patch["k\(index)"] = .null }
        if index % 4 == 2 { patch["k\(index)"] = "changed" }
      }
      patch["added"] = true
      return (.object(object), .object(patch))
    }
    let inputs = [4_000: documents(4_000), 16_000: documents(16_000)]
    let growth = costGrowth(from: 4_000, to: 16_000) { count in
      let (document, patch) = inputs[count]!
      #expect(document.merging(patch: patch).count == count - count / 4 + 1)
    }
    #expect(growth < 8, "merging 4x the members cost \(growth)x")

    // The result keeps the members' order: the removed go, the rest stay where they were,
    // and new members come last in the patch's order.
    let (document, patch) = documents(40)
    let merged = try #require(document.merging(patch: patch).object)
    var expected: [String] = (0..<40).filter { $0 % 4 != 1 }.map { "k\($0)" }
    expected.append("added")
    #expect(merged.keys == expected)
    #expect(merged["k2"] == "changed" && merged["k3"] == 3 && merged["k1"] == nil)
  }
}
