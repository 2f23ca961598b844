import AutoMap
import Foundation
import Testing

// Issue 20: the attacks on the surface added after issue 8 (the Codable bridge, streams,
// polymorphism, configuration and reports) that no other suite makes. Each must end in a value
// or a `JSON.Error`, never a trap, a hang or a leak.

// MARK: Hostile Codable implementations

/// Keeps its decoder and encoder after `init(from:)` and `encode(to:)` return.
final class KeptCoders: @unchecked Sendable {  // every access under `lock`
  private let lock = NSLock()
  private var decoders: [any Decoder] = []
  private var encoders: [any Encoder] = []
  func keep(_ decoder: any Decoder) { lock.withLock { decoders.append(decoder) } }
  func keep(_ encoder: any Encoder) { lock.withLock { encoders.append(encoder) } }
  /// Lets the kept coders go. (Their paths are indirect enums, whose tagged pointers
  /// LeakSanitizer does not see as references: coders kept until exit would look leaked.)
  func release() {
    lock.withLock {
      decoders = []
      encoders = []
    }
  }
  var lastDecoder: (any Decoder)? { lock.withLock { decoders.last } }
  var lastEncoder: (any Encoder)? { lock.withLock { encoders.last } }
}

let keptCoders = KeptCoders()

struct EscapingCoder: Codable, Equatable {
  var value: Int
  init(value: Int) { self.value = value }
  init(from decoder: any Decoder) throws {
    keptCoders.keep(decoder)
    value = try decoder.singleValueContainer().decode(Int.self)
  }
  func encode(to encoder: any Encoder) throws {
    keptCoders.keep(encoder)
    var container = encoder.singleValueContainer()
    try container.encode(value)
  }
}

/// Asks its decoder for containers twice, of the wrong kind, and reads past their end, as
/// `mode` says; encodes nothing, twice, or two kinds.
struct HostileCodable: Codable, Equatable {
  enum Key: String, CodingKey { case a, b }
  var a: Int

  init(a: Int) { self.a = a }

  init(from decoder: any Decoder) throws {
    switch hostileMode.value {
    case "keyedTwice":
      let first = try decoder.container(keyedBy: Key.self)
      let second = try decoder.container(keyedBy: Key.self)
      a = try first.decode(Int.self, forKey: .a) + second.decode(Int.self, forKey: .a)
    case "wrongKind":
      var unkeyed = try decoder.unkeyedContainer()  // the value is an object
      a = try unkeyed.decode(Int.self)
    case "singleThenKeyed":
      _ = try? decoder.singleValueContainer().decode(Int.self)
      a = try decoder.container(keyedBy: Key.self).decode(Int.self, forKey: .a)
    case "pastTheEnd":
      var unkeyed = try decoder.container(keyedBy: Key.self).nestedUnkeyedContainer(forKey: .b)
      var sum = 0
      while true { sum += try unkeyed.decode(Int.self) }  // throws at the end
    default:
      a = try decoder.container(keyedBy: Key.self).decode(Int.self, forKey: .a)
    }
  }

  func encode(to encoder: any Encoder) throws {
    switch hostileMode.value {
    case "nothing": break
    case "twice":
      var first = encoder.container(keyedBy: Key.self)
      try first.encode(a, forKey: .a)
      var second = encoder.container(keyedBy: Key.self)
      try second.encode(a + 1, forKey: .b)
    case "singleTwice":
      var single = encoder.singleValueContainer()
      try single.encode(a)
      try single.encode(a + 1)
    case "wrongKind":
      var keyed = encoder.container(keyedBy: Key.self)
      try keyed.encode(a, forKey: .a)
      var unkeyed = encoder.unkeyedContainer()
      try unkeyed.encode(a)
    default:
      var keyed = encoder.container(keyedBy: Key.self)
      try keyed.encode(a, forKey: .a)
    }
  }
}

/// The mode of `HostileCodable`, per task.
enum hostileMode {
  @TaskLocal static var value = ""
}

struct HoldsHostile: JSONCodable, Equatable {
  var item: HostileCodable
}

struct HoldsEscaping: JSONCodable, Equatable {
  var item: EscapingCoder
  var items: [EscapingCoder]
}

// MARK: Polymorphism

protocol AttackNode: AnyObject {}

final class AttackLink: AttackNode, JSONCodable, DefaultInitable {
  var next: (any AttackNode)?
  var tag = 0
  init() {}
}

// MARK: Tests

@Suite("Attacks on the new surface: Codable, streams, polymorphism, scopes")
struct NewSurfaceAttackTests {
  static let registered: Bool = {
    (try? JSON.registerPolymorphic((any AttackNode).self, types: ["link": AttackLink.self]))
      != nil
  }()

  @Test("a decoder and an encoder kept after init(from:) and encode(to:) stay usable values")
  func keptCoders() throws {
    defer { AutoMapTests.keptCoders.release() }
    let value = try HoldsEscaping(jsonString: #"{"item": 1, "items": [2, 3]}"#)
    #expect(
      value
        == HoldsEscaping(item: EscapingCoder(value: 1), items: [.init(value: 2), .init(value: 3)]))
    // The kept decoder still reads the value it was given, long after the decode ended.
    let decoder = try #require(AutoMapTests.keptCoders.lastDecoder)
    #expect(try decoder.singleValueContainer().decode(Int.self) == 3)
    #expect(throws: DecodingError.self) { try decoder.container(keyedBy: HostileCodable.Key.self) }
    _ = try value.jsonData()
    // The kept encoder writes into a value nobody reads any more: no crash, no effect.
    let encoder = try #require(AutoMapTests.keptCoders.lastEncoder)
    var container = encoder.singleValueContainer()
    try container.encode(99)
    #expect(try value.jsonString() == #"{"item":1,"items":[2,3]}"#)
  }

  @Test(
    "a decoder asked for containers twice, of the wrong kind, or read past the end",
    arguments: ["keyedTwice", "wrongKind", "singleThenKeyed", "pastTheEnd"])
  func hostileDecoding(mode: String) throws {
    let text = #"{"item": {"a": 2, "b": [1, 2]}}"#
    let viaBytes = hostileMode.$value.withValue(mode) {
      Result { try HoldsHostile(jsonString: text) }
    }
    let viaJSON = hostileMode.$value.withValue(mode) {
      Result { try HoldsHostile(decode: JSON(jsonString: text)) }
    }
    switch mode {
    case "keyedTwice": #expect(try viaBytes.get().item.a == 4)
    case "singleThenKeyed": #expect(try viaBytes.get().item.a == 2)
    case "wrongKind":
      #expect(throws: JSON.Error.self) { try viaBytes.get() }
      if case .failure(let error as JSON.Error) = viaBytes { #expect(error.path == "item") }
    default:
      #expect(throws: JSON.Error.self) { try viaBytes.get() }
      if case .failure(let error as JSON.Error) = viaBytes { #expect(error.path == "item.b[2]") }
    }
    #expect("\(viaBytes)" == "\(viaJSON)", "bytes and JSON agree")
  }

  @Test(
    "encode(to:) that writes nothing, twice, or two kinds",
    arguments: ["nothing", "twice", "singleTwice", "wrongKind"])
  func hostileEncoding(mode: String) throws {
    let value = HoldsHostile(item: HostileCodable(a: 1))
    let json = hostileMode.$value.withValue(mode) { Result { try value.json } }
    let text = hostileMode.$value.withValue(mode) { Result { try value.jsonString() } }
    switch mode {
    case "nothing":
      // As JSONEncoder: a value that writes nothing is an empty object.
      #expect(try json.get() == ["item": [:]])
    case "twice":
      // Two keyed containers of one value write into the same object, as JSONEncoder does.
      #expect(try json.get() == ["item": ["a": 1, "b": 2]])
    case "singleTwice":
      // JSONEncoder traps; here the last value written stands.
      #expect(try json.get() == ["item": 2])
    case "wrongKind":
      #expect(throws: JSON.Error.self) { try json.get() }
    default: break
    }
    // Whatever the outcome, both entry points give the same one.
    switch (json, text) {
    case (.success(let json), .success(let text)): #expect(try JSON(jsonString: text) == json)
    case (.failure(let a), .failure(let b)): #expect("\(a)" == "\(b)")
    default: Issue.record("json and jsonString disagree: \(json) vs \(text)")
    }
  }

  // MARK: Streams

  /// The array and the JSON Lines form of the same users.
  static let users = (0..<6).map {
    StreamUser(
      id: $0, name: "u\($0)", tags: $0 % 2 == 0 ? [] : ["a\"", "b"],
      address: $0 % 3 == 0 ? nil : StreamAddress(city: "K", zip: $0), score: 1.5)
  }

  @Test("input cut at every byte: the elements before the cut, then the end or an error")
  func truncatedEverywhere() async throws {
    let array = try Self.users.jsonData(options: [.prettyPrinted])
    let lines = Data(
      try Self.users.map { try $0.jsonString() }.joined(separator: "\n").utf8 + [0x0A])
    for (format, data) in [(JSON.StreamFormat.array, array), (.lines, lines)] {
      for cut in 0...data.count {
        let prefix = data.prefix(cut)
        let streamed = StreamRun.sync(StreamUser.self, prefix, format)
        #expect(
          streamed.values == Array(Self.users.prefix(streamed.values.count)),
          "\(format) cut at \(cut)")
        if format == .array && cut < data.count {
          // An array is complete only at its closing bracket.
          #expect(streamed.error != nil, "array cut at \(cut)")
        }
        // The same cut read in chunks of one byte by the asynchronous stream.
        if cut % 17 == 0 || cut == data.count {
          let chunks = prefix.map { [$0] }
          let streamedAsync = await StreamRun.async(StreamUser.self, chunks: chunks, format)
          #expect(streamedAsync.values == streamed.values, "async \(format) cut at \(cut)")
          #expect(
            streamedAsync.error?.kind == streamed.error?.kind, "async \(format) cut at \(cut)")
        }
      }
    }
  }

  @Test("a byte source that throws midway ends the stream with its error")
  func throwingSource() async throws {
    struct SourceBroke: Error {}
    let text = Array(#"[1, 2, 3, 4"#.utf8)
    let bytes = AsyncThrowingStream<UInt8, any Error> { continuation in
      for byte in text.prefix(6) { continuation.yield(byte) }
      continuation.finish(throwing: SourceBroke())
    }
    var seen: [Int] = []
    do {
      for try await value in JSONStream(of: Int.self, bytes: bytes) { seen.append(value) }
      Issue.record("the stream ended without the source's error")
    } catch {
      let thrown = (error as? JSON.Error)?.underlying ?? error
      #expect(thrown is SourceBroke, "\(error)")
    }
    #expect(seen == [1, 2])
  }

  @Test("copies of an iterator share one position: each element is yielded once")
  func iteratorCopies() throws {
    let data = try Self.users.jsonData()
    var first = SyncJSONStream(of: StreamUser.self, data: data).makeIterator()
    var second = first
    var seen: [StreamUser] = []
    while true {
      guard let a = try first.nextElement() else { break }
      seen.append(a)
      guard let b = try second.nextElement() else { break }
      seen.append(b)
    }
    #expect(seen == Self.users)
    #expect(try first.nextElement() == nil)
    #expect(try second.nextElement() == nil)
  }

  @Test("cancelled in the middle of an element: the stream ends with the cancellation")
  func cancelledMidElement() async throws {
    let (chunks, feed) = AsyncStream<[UInt8]>.makeStream()
    let (progress, report) = AsyncStream<Int>.makeStream()
    feed.yield(Array(#"[{"id": 1, "name": "a", "tags": []}, {"id": 2, "na"#.utf8))
    let reader = Task {
      var seen: [Int] = []
      do {
        for try await user in JSONStream(of: StreamUser.self, chunks: chunks) {
          seen.append(user.id)
          report.yield(user.id)
        }
      } catch is CancellationError {
        return seen
      } catch {
        return [-1] + seen
      }
      return [-2] + seen
    }
    var reported = progress.makeAsyncIterator()
    #expect(await reported.next() == 1)
    reader.cancel()  // waiting for the rest of the second element
    #expect(await reader.value == [1])
    feed.yield(Array(#"me": "b", "tags": []}]"#.utf8))
    feed.finish()
  }

  @Test("a writer used after finish() refuses, and writes nothing more")
  func writerAfterFinish() throws {
    try withTemporaryFolder { folder in
      let url = folder.appendingPathComponent("users.jsonl")
      let writer = try JSONStreamWriter(to: url, format: .lines)
      try writer.write(Self.users[0])
      try writer.finish()
      let written = try Data(contentsOf: url)
      let error = #expect(throws: JSON.Error.self) { try writer.write(Self.users[1]) }
      #expect(error?.message.contains("after finish()") == true)
      #expect(throws: JSON.Error.self) { try writer.write(contentsOf: Self.users) }
      try writer.flush()
      try writer.finish()
      #expect(writer.count == 1)
      #expect(try Data(contentsOf: url) == written)
    }
  }

  // MARK: Polymorphism

  @Test("a cycle through a property of a protocol type is an error when encoding")
  func protocolCycle() throws {
    #expect(Self.registered)
    let a = AttackLink()
    let b = AttackLink()
    a.next = b
    b.next = a
    defer { a.next = nil }
    let error = #expect(throws: JSON.Error.self) { try a.json }
    #expect(error?.kind == .unencodable, "\(String(describing: error))")
    #expect(throws: JSON.Error.self) { try a.jsonData() }
    #expect(throws: JSON.Error.self) {
      try JSON.encode(a as any AttackNode, as: (any AttackNode).self)
    }
    // Without the cycle it maps both ways.
    b.next = nil
    let text = try a.jsonString()
    let again = try #require(try AttackLink(jsonString: text).next as? AttackLink)
    #expect(again.next == nil)
  }

  // MARK: Scopes and tasks

  @Test("child tasks inherit a scope's configuration and recording, detached tasks do not")
  func tasksAndScopes() async throws {
    let text = #"{"status": "maybe", "must": 1}"#
    let (counts, recorded) = try await recordingAsync {
      try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<8 {
          group.addTask {
            let (_, own) = try JSON.recordingSubstitutions { try RAFirst(jsonString: text) }
            return own.count
          }
        }
        return try await group.reduce(into: [Int]()) { $0.append($1) }
      }
    }
    #expect(counts == Array(repeating: 1, count: 8))
    // Each child's recording is inside the parent's: the parent sees all eight.
    #expect(recorded.count == 8)

    let (detached, outer) = try await recordingAsync {
      try await Task.detached { try RAFirst(jsonString: text) }.value
    }
    #expect(detached.status == .unknown)
    #expect(outer.isEmpty, "a detached task is not inside the scope")

    // A configuration scope reaches child tasks, not detached ones.
    let seconds = JSON.Configuration(dateTransform: .secondsSince1970)
    let (inChild, inDetached) = try await JSON.withConfiguration(seconds) {
      let child = try await withThrowingTaskGroup(of: Date.self) { group in
        group.addTask { try Date(decode: 86_400) }
        return try await group.next() ?? .distantPast
      }
      let detached = await Task.detached { try? Date(decode: 86_400) }.value
      return (child, detached)
    }
    #expect(inChild == Date(timeIntervalSince1970: 86_400))
    #expect(inDetached != Date(timeIntervalSince1970: 86_400))
  }
}

/// `recordingSubstitutions` around asynchronous work, through the configuration scope it uses.
private func recordingAsync<R: Sendable>(_ body: () async throws -> R) async throws
  -> (R, [JSON.Substitution])
{
  let log = HandlerLog()
  let value = try await JSON.withConfiguration(.init(onSubstitution: { log.append($0) }), body)
  return (value, log.substitutions)
}
