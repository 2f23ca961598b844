import AutoMap
import Foundation

// Models, documents and helpers of the stream tests.

struct StreamUser: JSONCodable, Equatable {
  var id: Int
  var name: String
  var tags: [String]
  var address: StreamAddress?
  var score: Double?
}

struct StreamAddress: JSONCodable, Equatable {
  var city: String
  var zip: Int
}

/// What a stream yields before it ends, and the error it ends with, if any.
struct Streamed<T> {
  var values: [T] = []
  var error: JSON.Error?
  var skipped = 0
}

enum StreamRun {
  /// The synchronous stream over `data`.
  static func sync<T: JSONDecodable>(
    _: T.Type, _ data: Data, _ format: JSON.StreamFormat,
    options: JSON.StreamOptions = .init()
  ) -> Streamed<T> {
    var iterator = SyncJSONStream(of: T.self, data: data, format: format, options: options)
      .makeIterator()
    var result = Streamed<T>()
    do {
      while let value = try iterator.nextElement() { result.values.append(value) }
    } catch {
      result.error = error
    }
    result.skipped = iterator.skippedCount
    return result
  }

  /// The asynchronous stream over `chunks`, one chunk after another.
  static func async<T: JSONDecodable>(
    _: T.Type, chunks: [[UInt8]], _ format: JSON.StreamFormat,
    options: JSON.StreamOptions = .init()
  ) async -> Streamed<T> {
    let source = AsyncStream<[UInt8]> { continuation in
      for chunk in chunks { continuation.yield(chunk) }
      continuation.finish()
    }
    var iterator = JSONStream(of: T.self, chunks: source, format: format, options: options)
      .makeAsyncIterator()
    var result = Streamed<T>()
    do {
      while let value = try await iterator.next() { result.values.append(value) }
    } catch {
      result.error = error as? JSON.Error
    }
    result.skipped = iterator.skippedCount
    return result
  }

  /// `[T](jsonData:)`: the reference.
  static func whole<T: JSONDecodable>(_: T.Type, _ data: Data) -> Streamed<T> {
    do {
      return Streamed(values: try [T](jsonData: data))
    } catch {
      return Streamed(error: error as? JSON.Error)
    }
  }
}

enum StreamDocuments {
  /// Valid scalars: the differential pools, less the lone surrogate.
  static let scalars =
    DiffPool.limits + DiffPool.strings.filter { !$0.contains("ud800") } + DiffPool.others

  /// A random JSON value, nested up to `depth`.
  static func value(_ random: inout DiffRandom, depth: Int = 3) -> Doc {
    guard depth > 0, random.chance(40) else { return .scalar(random.pick(scalars)) }
    if random.chance(50) {
      return .array((0..<random.below(4)).map { _ in value(&random, depth: depth - 1) })
    }
    let keys = ["a", "b", "id", "name", "x y", #"caf\u00e9"#, "n"]
    return .object(
      (0..<random.below(4)).map { _ in
        Doc.Member(key: random.pick(keys), value: value(&random, depth: depth - 1))
      })
  }

  /// A random user as JSON text; now and then one that does not map (`valid` false).
  static func user(_ random: inout DiffRandom, id: Int, valid: Bool = true) -> String {
    let name = random.pick(["Ada", "Zoë", #"q\"uote"#, "東京", #"line\nbreak"#, "[{,}]"])
    let tags = (0..<random.below(4)).map { _ in "\"\(random.pick(["a", "b,c", "]", "{"]))\"" }
    let address =
      random.chance(50)
      ? "null" : #"{"city": "\#(random.pick(["Oslo", "Köln"]))", "zip": \#(random.below(99999))}"#
    let idText = valid ? String(id) : random.pick([#""\#(id)""#, "1.5", "null", "[]"])
    let score = random.chance(30) ? "" : #", "score": \#(Double(random.below(1000)) / 8)"#
    return
      #"{"id": \#(idText), "name": "\#(name)", "tags": [\#(tags.joined(separator: ", "))], "address": \#(address)\#(score)}"#
  }

  /// `text` split into chunks of random sizes (1 to `largest` bytes).
  static func chunks(_ text: [UInt8], _ random: inout DiffRandom, largest: Int) -> [[UInt8]] {
    var result: [[UInt8]] = []
    var start = 0
    while start < text.count {
      let end = min(text.count, start + 1 + random.below(largest))
      result.append(Array(text[start..<end]))
      start = end
    }
    return result
  }
}

extension JSON.StreamOptions {
  /// Options with a buffer of `chunkSize` bytes.
  static func chunked(_ chunkSize: Int, skipping: Bool = false) -> JSON.StreamOptions {
    var options = JSON.StreamOptions()
    options.chunkSize = chunkSize
    options.skipsBadElements = skipping
    return options
  }
}

/// A temporary folder, removed when `body` returns.
func withTemporaryFolder<R>(_ body: (URL) throws -> R) throws -> R {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("automap-streams-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  return try body(folder)
}
