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
}
