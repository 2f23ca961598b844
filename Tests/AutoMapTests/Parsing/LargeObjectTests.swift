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
}
