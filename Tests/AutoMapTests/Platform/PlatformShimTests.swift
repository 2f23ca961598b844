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

  @Test("strings from validated UTF-8 equal the standard library's, ASCII or not, any length")
  func strings() throws {
    var generator = DiffRandom(seed: 0x5EED_0018)
    let pieces: [[UInt8]] = [
      Array("a".utf8), Array("é".utf8), Array("中".utf8), Array("😀".utf8), [0x7F], [0],
    ]
    for round in 0..<2_000 {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0...40, using: &generator) {
        bytes += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
      }
      let reference = try #require(referenceString(validating: bytes))
      let isASCII = bytes.allSatisfy { $0 < 0x80 }
      #expect(AutoMapTesting.validString(bytes, isASCII: isASCII) == reference, "round \(round)")
      // `false` is always allowed for `isASCII`.
      #expect(AutoMapTesting.validString(bytes, isASCII: false) == reference, "round \(round)")
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
