import AutoMap
import Foundation
import Testing

/// An array stream decodes the elements that follow one in its buffer ahead, in one loop, and
/// hands them out one by one (`ElementDecoder.decodeFollowing`). Whatever a call gives must
/// stay what that element gives at that call: its value under the caller's key style and
/// configuration, its error with the position the whole document reports, and nothing held
/// after the stream is gone.
@Suite(.serialized) struct StreamAheadTests {
  private struct Named: JSONCodable, Equatable {
    var userName: String?
  }

  private struct Blob: JSONCodable, Equatable {
    var bytes = Data()
  }

  @Test("a key style set between calls reaches elements already decoded ahead")
  func keyStyleBetweenCalls() throws {
    let element = #"{"userName": "plain", "user_name": "snake"}"#
    let text = "[" + Array(repeating: element, count: 60).joined(separator: ", ") + "]"
    var iterator = SyncJSONStream(of: Named.self, data: Data(text.utf8)).makeIterator()
    let snake = JSON.Configuration(keyStyle: .snakeCase)
    var seen: [String?] = []
    for index in 0..<40 {
      let value =
        try index % 3 == 1
        ? JSON.withConfiguration(snake) { try iterator.nextElement() } : iterator.nextElement()
      seen.append(value?.userName)
    }
    #expect(seen == (0..<40).map { $0 % 3 == 1 ? "snake" : "plain" })
    // Many calls in one scope, then out of it again.
    let scoped = try JSON.withConfiguration(snake) {
      try (0..<10).map { _ in try iterator.nextElement()?.userName }
    }
    #expect(scoped == Array(repeating: "snake", count: 10))
    let after = try (0..<10).map { _ in try iterator.nextElement()?.userName }
    #expect(after == Array(repeating: "plain", count: 10))
    #expect(try iterator.nextElement() == nil)
  }

  @Test("a configuration set between calls reaches elements already decoded ahead")
  func configurationBetweenCalls() throws {
    // Base64 by default, hexadecimal in the scope: both read these bytes, differently.
    let element = #"{"bytes": "abcd"}"#
    let hex = JSON.Configuration(dataEncoding: .hex)
    let plain = try Blob(jsonString: element)
    let scoped = try JSON.withConfiguration(hex) { try Blob(jsonString: element) }
    try #require(plain != scoped)  // the configuration changes the value
    let text = "[" + Array(repeating: element, count: 50).joined(separator: ",\n") + "]"
    var iterator = SyncJSONStream(of: Blob.self, data: Data(text.utf8)).makeIterator()
    for index in 0..<50 {
      // Each scope is a binding of its own, even with an equal configuration.
      let inScope = index % 4 == 2 || index % 4 == 3
      let value =
        try inScope
        ? JSON.withConfiguration(hex) { try iterator.nextElement() }
        : iterator.nextElement()
      #expect(value == (inScope ? scoped : plain), "element \(index)")
    }
    #expect(try iterator.nextElement() == nil)
  }

  /// Documents of many elements over many lines, one of them broken (malformed, or not
  /// mapping): the stream reports the error the whole document reports, at the same byte,
  /// line and column, after the elements before it; skipping, it yields every other one.
  @Test(arguments: 0..<24)
  func errorsAfterElementsDecodedAhead(seed: Int) throws {
    var random = DiffRandom(seed: UInt64(31_000 + seed))
    let count = 20 + random.below(60)
    let broken = random.below(count)
    let malformed = seed % 2 == 0
    var users = (0..<count).map { id in
      StreamDocuments.user(&random, id: id, valid: malformed || id != broken)
    }
    if malformed {
      // A byte no value starts with, after the element's first member.
      var text = users[broken]
      text.insert("x", at: text.index(after: text.firstIndex(of: ",")!))
      users[broken] = text
    }
    var text = "["
    for (index, user) in users.enumerated() {
      if index > 0 { text += random.pick([",", ", ", ",\n", "\n,\n  ", " ,\r\n"]) }
      // Some elements span lines of their own.
      text += random.chance(30) ? user.replacingOccurrences(of: ", \"", with: ",\n  \"") : user
    }
    text += "\n]"
    let data = Data(text.utf8)
    let whole = StreamRun.whole(StreamUser.self, data)
    let expectedError = try #require(whole.error, "seed \(seed)")
    let alone = users.map { try? StreamUser(jsonString: $0) }
    #expect(alone.filter { $0 == nil }.count == 1)
    for chunkSize in [1 << 20, 4096, 333, 64] {
      let streamed = StreamRun.sync(StreamUser.self, data, .array, options: .chunked(chunkSize))
      #expect(streamed.values == alone[..<broken].compactMap { $0 }, "chunk \(chunkSize)")
      #expect(streamed.error?.kind == expectedError.kind, "seed \(seed), chunk \(chunkSize)")
      // A stream's malformed element names its index; the whole document, no path.
      let path = malformed ? "[\(broken)]" : expectedError.path
      #expect(streamed.error?.path == path, "seed \(seed), chunk \(chunkSize)")
      #expect(streamed.error?.message == expectedError.message, "seed \(seed), chunk \(chunkSize)")
      if !malformed {
        let skipping = StreamRun.sync(
          StreamUser.self, data, .array, options: .chunked(chunkSize, skipping: true))
        #expect(skipping.values == alone.compactMap { $0 }, "chunk \(chunkSize)")
        #expect(skipping.skipped == 1)
        #expect(skipping.error == nil)
      }
    }
  }

  /// Numbers may go on in the next read: one that reaches the end of the buffer is never
  /// handed out from there, however the buffer cuts the text.
  @Test func numbersCutByTheBuffer() throws {
    let numbers = (0..<300).map { index in (index * 7919) % 1_000_003 - 500_000 }
    let text = "[" + numbers.map(String.init).joined(separator: ",") + "]"
    let doubles = (0..<300).map { Double($0) * 1.25e-3 }
    let doubleText = "[" + doubles.map { "\($0)" }.joined(separator: ", ") + "]"
    for chunkSize in Array(1...48) + [1 << 20] {
      let streamed = StreamRun.sync(
        Int.self, Data(text.utf8), .array, options: .chunked(chunkSize))
      #expect(streamed.error == nil, "chunk \(chunkSize)")
      #expect(streamed.values == numbers, "chunk \(chunkSize)")
      let fractions = StreamRun.sync(
        Double.self, Data(doubleText.utf8), .array, options: .chunked(chunkSize))
      #expect(fractions.values == doubles, "chunk \(chunkSize)")
      let literals = StreamRun.sync(
        Bool?.self, Data("[true,false, null ,true]".utf8), .array,
        options: .chunked(chunkSize))
      #expect(literals.values == [true, false, nil, true], "chunk \(chunkSize)")
    }
  }

  @Test("calls that each bind a configuration of their own stop the decoding ahead")
  func scopePerCall() throws {
    let text = "[" + (0..<600).map { #"{"id": \#($0)}"# }.joined(separator: ",") + "]"
    let scope = JSON.Configuration(dataEncoding: .hex)
    let before = HookedRow.hooks.current
    var iterator = SyncJSONStream(of: HookedRow.self, data: Data(text.utf8)).makeIterator()
    var ids: [Int] = []
    while let row = try JSON.withConfiguration(scope, { try iterator.nextElement() }) {
      ids.append(row.id)
    }
    #expect(ids == Array(0..<600))
    // One run ahead at most was decoded in vain, not one per call.
    #expect(HookedRow.hooks.current - before <= 600 + 64)
  }

  @Test("without decoding ahead, each element's own code runs when it is asked for")
  func hooksOneAtATime() throws {
    let text = "[" + (0..<100).map { #"{"id": \#($0)}"# }.joined(separator: ",") + "]"
    try expectOneHookPerElement(HookedRow.self, text, count: 5, chunkSize: 1 << 20) { $0.id }
  }

  @Test("without decoding ahead, an element the buffer cuts is still decoded once")
  func cutElementsOnce() throws {
    let pad = String(repeating: "x", count: 37)
    let text =
      "["
      + (0..<120).map { #"{"id": \#($0), "child": {"id": \#($0)}, "pad": "\#(pad)"}"# }
      .joined(separator: ",") + "]"
    for chunkSize in [64, 100, 1000] {
      // The child's hook: once for each element.
      try expectOneHookPerElement(Parent.self, text, count: 120, chunkSize: chunkSize) { $0.id }
    }
  }

  /// Reads `count` elements of `text` one at a time, without decoding ahead: each call runs
  /// `HookedRow.didDecode()` once.
  private func expectOneHookPerElement<T: JSONDecodable>(
    _: T.Type, _ text: String, count: Int, chunkSize: Int, id: (T) -> Int
  ) throws {
    var options = JSON.StreamOptions()
    options.decodesAhead = false
    options.chunkSize = chunkSize
    var iterator = SyncJSONStream(of: T.self, data: Data(text.utf8), options: options)
      .makeIterator()
    for index in 0..<count {
      let before = HookedRow.hooks.current
      #expect(try iterator.nextElement().map(id) == index)
      #expect(HookedRow.hooks.current - before == 1, "chunk \(chunkSize), element \(index)")
    }
  }
}

/// A model that counts the runs of its `didDecode()`.
private struct HookedRow: JSONCodable {
  static let hooks = Shared(0)
  var id = 0
  mutating func didDecode() throws { Self.hooks.withLock { $0 += 1 } }
}

/// `HookedRow` for the test under `ProcessWideState`, which runs beside `StreamAheadTests`:
/// a count of its own, that theirs does not see.
private struct AheadRow: JSONCodable {
  static let hooks = Shared(0)
  var id = 0
  mutating func didDecode() throws { Self.hooks.withLock { $0 += 1 } }
}

/// A model whose child counts its decodes.
private struct Parent: JSONCodable {
  var id = 0
  var child = HookedRow()
  var pad = ""
}

/// A class model that counts its live instances.
private final class TrackedRow: JSONCodable, DefaultInitable {
  static let live = Shared(0)
  var id = 0
  required init() { Self.live.withLock { $0 += 1 } }
  deinit { Self.live.withLock { $0 -= 1 } }
}

extension ProcessWideState {
  /// Decoding ahead is a path (the elements after the first are read from the buffer): beside
  /// a test that forgets reflection, the first call can be a first use, read through `JSON`,
  /// which decodes nothing ahead. So this lives under the process-wide parent.
  @Suite("Streams decode ahead by default")
  struct StreamAheadPathTests {
    @Test("with decoding ahead (the default), the first call decodes the elements after it too")
    func firstCallDecodesAhead() throws {
      ProcessWideState.expectInside()
      let text = "[" + (0..<100).map { #"{"id": \#($0)}"# }.joined(separator: ",") + "]"
      _ = try SyncJSONStream(of: AheadRow.self, data: Data(text.utf8)).map { try $0.get() }
      var ahead = SyncJSONStream(of: AheadRow.self, data: Data(text.utf8)).makeIterator()
      let before = AheadRow.hooks.current
      _ = try ahead.nextElement()
      #expect(AheadRow.hooks.current - before > 1)
    }

    @Test("elements decoded ahead and never asked for are freed with the stream")
    func aheadValuesAreFreed() throws {
      ProcessWideState.expectInside()
      let text = "[" + (0..<100).map { #"{"id": \#($0)}"# }.joined(separator: ",") + "]"
      // A first use reads through `JSON`, which decodes nothing ahead.
      _ = try SyncJSONStream(of: TrackedRow.self, data: Data(text.utf8)).map { try $0.get() }
      let before = TrackedRow.live.current
      do {
        var iterator = SyncJSONStream(of: TrackedRow.self, data: Data(text.utf8)).makeIterator()
        let first = try iterator.nextElement()
        let second = try iterator.nextElement()
        #expect(first?.id == 0)
        #expect(second?.id == 1)
        // More were decoded ahead than were taken.
        #expect(TrackedRow.live.current - before > 2)
      }
      #expect(TrackedRow.live.current == before)
    }
  }
}
