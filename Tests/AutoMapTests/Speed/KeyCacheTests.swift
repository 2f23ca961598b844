import AutoMap
import Foundation
import Testing

// The parser reuses the `String` of a key it has already made when the text spells the same
// bytes (Parsing/KeyCache.swift). Checked here against the keys the generator wrote, on
// documents built to stress the table: keys of every length around its limits, near
// misses, escapes, non-ASCII bytes, the end of input, and more distinct keys than it holds.

@Suite("Repeated keys are reused only when their bytes are the same")
struct KeyCacheTests {
  /// Keys that differ in one byte at every position, in length, in escapes and in encoding.
  static func keyPool(_ generator: inout DiffRandom) -> [String] {
    var pool: [String] = ["", "a", "é", "e\u{301}", "🙂", "id", "id_str", "ID"]
    for length in [7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 32, 33, 40] {
      let base = String((0..<length).map { _ in generator.pick(Array("abcxyz_")) })
      pool.append(base)
      // The same length with one byte changed, at the first, a middle and the last byte.
      for position in Set([0, length / 2, length - 1]) {
        var bytes = Array(base.utf8)
        bytes[position] =
          bytes[position] == UInt8(ascii: "q") ? UInt8(ascii: "r") : UInt8(ascii: "q")
        pool.append(String(decoding: bytes, as: UTF8.self))
      }
      pool.append(base + "é")
      pool.append(String(base.dropLast()))
    }
    return pool
  }

  @Test("random objects keep exactly the keys written, spelled plainly or with escapes")
  func keysAsWritten() throws {
    var generator = DiffRandom(seed: 131)
    let pool = Self.keyPool(&generator)
    for round in 0..<300 {
      // Objects of 1 to 40 members drawn from the pool (a repeated key keeps its last value).
      var objects: [[(String, Int)]] = []
      var text = "["
      for index in 0..<generator.below(60) + 1 {
        var members: [(String, Int)] = []
        var seen = Set<[UInt8]>()
        for value in 0..<generator.below(40) + 1 {
          let key = generator.pick(pool)
          guard seen.insert(Array(key.utf8)).inserted else { continue }
          members.append((key, value))
        }
        objects.append(members)
        text += (index == 0 ? "" : ",") + "{"
        for (position, (key, value)) in members.enumerated() {
          let spelled = generator.chance(10) ? randomlySpelled(key, &generator) : "\"\(key)\""
          text += (position == 0 ? "" : ",") + spelled + ":\(value)"
        }
        text += "}"
      }
      text += "]"
      let json = try JSON(jsonString: text)
      for (index, members) in objects.enumerated() {
        guard
          case .object(let object)? = json[.position(index)].isMissing
            ? nil : json[.position(index)]
        else {
          Issue.record("round \(round): element \(index) is not an object")
          continue
        }
        #expect(object.keys.map { Array($0.utf8) } == members.map { Array($0.0.utf8) })
        #expect(object.values == members.map { JSON($0.1) })
      }
    }
  }

  @Test("a key that ends the input, or is read past the table's 32-byte window, is exact")
  func keysAtTheEnd() throws {
    // Enough keys first to switch the table on, then the same keys again ever closer to the
    // end of the input, where the cache must not load bytes beyond it.
    let warm = (0..<40).map { #""k\#($0)":0"# }.joined(separator: ",")
    for length in 0..<40 {
      let key = String(repeating: "k", count: length)
      let text = "{" + warm + #",""# + key + #"":{""# + key + #"":1}}"#
      let json = try JSON(jsonString: text)
      #expect(json[.key(key), .key(key)] == 1, "key of \(length) bytes")
      guard case .object(let inner) = json[.key(key)] else {
        Issue.record("no inner object for a key of \(length) bytes")
        continue
      }
      #expect(inner.keys == [key])
    }
  }

  @Test("keys that differ in one eight-byte word only are told apart")
  func keysDifferingInOneWord() throws {
    // 150 keys per word position, alike everywhere else: slots and probe windows overlap, so
    // a comparison the table skipped would hand out a wrong key.
    var generator = DiffRandom(seed: 132)
    for word in 0..<4 {
      for length in [8 * word + 1, 8 * word + 8, 32] {
        let keys = (0..<150).map { number in
          var bytes = Array(repeating: UInt8(ascii: "a"), count: length)
          bytes[8 * word] = UInt8(ascii: "a") + UInt8(number % 26)
          bytes[min(8 * word + 1, length - 1)] = UInt8(ascii: "A") + UInt8(number / 26)
          return String(decoding: bytes, as: UTF8.self)
        }
        let unique = Array(Set(keys))
        let order = (0..<3).map { _ in unique.shuffled(using: &generator) }
        let text =
          "["
          + order.map { keys in
            "{" + keys.map { #""\#($0)":0"# }.joined(separator: ",") + "}"
          }.joined(separator: ",") + "]"
        let json = try JSON(jsonString: text)
        for (index, keys) in order.enumerated() {
          guard case .object(let object) = json[.position(index)] else {
            Issue.record("element \(index) is not an object")
            continue
          }
          let wrong = zip(object.keys, keys).filter { $0 != $1 }.count
          #expect(
            object.count == keys.count && wrong == 0,
            "word \(word), length \(length): \(wrong) of \(keys.count) keys wrong")
        }
      }
    }
  }

  @Test("more distinct keys than the table holds all read back")
  func manyDistinctKeys() throws {
    // 5 000 distinct keys fill the table and make it give up; repeats after that still work.
    let keys = (0..<5_000).map { "key-\($0)-\(String(repeating: "x", count: $0 % 30))" }
    let once = keys.map { #""\#($0)":1"# }.joined(separator: ",")
    let text = "[{" + once + "},{" + once + "}]"
    let json = try JSON(jsonString: text)
    for index in 0..<2 {
      guard case .object(let object) = json[.position(index)] else {
        Issue.record("element \(index) is not an object")
        continue
      }
      #expect(object.keys == keys)
    }
  }
}
