@_spi(Testing) import AutoMap
import Foundation
import Testing

/// `Sources/AutoMap/Platform`: each shim's choice, and each behaving as the API it stands in
/// for. CI runs this suite twice: as built, and with `-DAUTOMAP_FALLBACKS`.
@Suite("Platform shims: new APIs where the system has them, fallbacks elsewhere")
struct PlatformShimTests {
  @Test("the build flag decides: every fallback with -DAUTOMAP_FALLBACKS, the new APIs without")
  func choices() {
    let choices = AutoMapTesting.platformChoices
    #if AUTOMAP_FALLBACKS
      #if canImport(Darwin)
        #expect(choices["lock"] == "os_unfair_lock")
      #else
        #expect(choices["lock"] == "pthread_mutex")
      #endif
      #expect(choices["strings"] == "_tryFromUTF8")
      #expect(choices["asyncIteration"] == "next()")
    #elseif os(Linux)
      // Linux has every new API.
      #expect(choices["lock"] == "Mutex")
      #expect(choices["strings"] == "UTF8Span")
      #expect(choices["asyncIteration"] == "next(isolation:)")
    #endif
  }

  @Test("strings from UTF-8 equal the standard library's, valid or not, ASCII or not")
  func strings() {
    var generator = DiffRandom(seed: 0x5EED_0018)
    let pieces: [[UInt8]] = [
      Array("a".utf8), Array("é".utf8), Array("中".utf8), Array("😀".utf8), [0x7F], [0],
      [0x80], [0xC3], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF], [0xFF],
    ]
    for round in 0..<4_000 {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0...40, using: &generator) {
        // Mostly valid pieces: one in four strings gets an invalid one somewhere.
        let limit = generator.chance(25) ? pieces.count : 6
        bytes += pieces[Int.random(in: 0..<limit, using: &generator)]
      }
      let reference = referenceString(validating: bytes)
      let isASCII = bytes.allSatisfy { $0 < 0x80 }
      #expect(AutoMapTesting.checkedString(bytes, isASCII: isASCII) == reference, "round \(round)")
      // `false` is always allowed for `isASCII`.
      #expect(AutoMapTesting.checkedString(bytes, isASCII: false) == reference, "round \(round)")
    }
  }

  @Test("the lock keeps every change of many threads")
  func lockUnderContention() {
    let counter = AutoMapTesting.lockedCounter()
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<5_000 { counter.increment() }
    }
    #expect(counter.value == 40_000)
  }

  @Test("a large object's key table: racing first lookups, then copies changed apart")
  func sharedKeyTable() throws {
    // Past 16 members an object finds keys through a table built on the first lookup and
    // published once; threads race to build it on each of 50 fresh objects.
    let keys = (0..<200).map { "key\($0)" }
    let text = "{" + keys.enumerated().map { #""\#($1)": \#($0)"# }.joined(separator: ",") + "}"
    for _ in 0..<50 {
      guard case .object(let object) = try JSON(jsonString: text) else {
        Issue.record("not an object")
        return
      }
      let wrong = Shared(0)
      DispatchQueue.concurrentPerform(iterations: 8) { thread in
        for (value, key) in keys.enumerated().shuffled() where object[key] != JSON(value) {
          wrong.withLock { $0 += 1 }
        }
        if object["absent\(thread)"] != nil { wrong.withLock { $0 += 1 } }
      }
      #expect(wrong.current == 0)
      // A copy that grows gets its own table; the original keeps answering as before.
      var copy = object
      copy["key200"] = 200
      copy["key0"] = -1
      #expect(copy["key200"] == 200 && copy["key0"] == -1)
      #expect(object["key200"] == nil && object["key0"] == 0)
      #expect(object["key199"] == 199 && copy["key199"] == 199)
    }
  }

  @Test("streams read an AsyncSequence through the shim, element for element")
  func asyncIteration() async throws {
    let text = Array((0..<300).map { #"{"id": \#($0)}"# }.joined(separator: "\n").utf8)
    let chunks = AsyncStream<[UInt8]> { continuation in
      for start in stride(from: 0, to: text.count, by: 7) {
        continuation.yield(Array(text[start..<min(start + 7, text.count)]))
      }
      continuation.finish()
    }
    let bytes = AsyncStream<UInt8> { continuation in
      for byte in text { continuation.yield(byte) }
      continuation.finish()
    }
    var fromChunks: [Int] = []
    for try await item in JSONStream(of: ShimItem.self, chunks: chunks, format: .lines) {
      fromChunks.append(item.id)
    }
    var fromBytes: [Int] = []
    for try await item in JSONStream(of: ShimItem.self, bytes: bytes, format: .lines) {
      fromBytes.append(item.id)
    }
    #expect(fromChunks == Array(0..<300))
    #expect(fromBytes == Array(0..<300))
  }
}

private struct ShimItem: JSONCodable { var id: Int }
