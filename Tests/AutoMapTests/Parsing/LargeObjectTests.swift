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
  @Test("100 000 distinct keys parse and decode in linear time")
  func hundredThousandKeys() throws {
    let data = largeObject(100_000)
    let clock = ContinuousClock()
    let parsing = try clock.measure {
      let json = try JSON(jsonData: data)
      #expect(json.count == 100_000)
      #expect(json["k99999"] == 99_999)
    }
    // Quadratic repeated-key checks took about 14 s for 64 000 keys in release builds.
    #expect(parsing < .seconds(5), "parsing took \(parsing)")
    let decoding = try clock.measure {
      let dictionary = try [String: Int](jsonData: data)
      #expect(dictionary.count == 100_000)
      let viaJSON = try [String: Int](decode: JSON(jsonData: data))
      #expect(viaJSON == dictionary)
    }
    #expect(decoding < .seconds(10), "decoding took \(decoding)")
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
