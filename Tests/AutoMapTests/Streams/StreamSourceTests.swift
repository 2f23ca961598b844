import AutoMap
import Foundation
import Testing

/// Files, bytes and chunks as sources; cancellation.
@Suite struct StreamSourceTests {
  private static let users = (0..<50).map {
    #"{"id": \#($0), "name": "user \#($0)", "tags": ["t\#($0 % 3)"], "address": null}"#
  }
  private static let array = "[\n" + users.joined(separator: ",\n") + "\n]\n"
  private static let lines = users.joined(separator: "\n") + "\n"

  @Test func filesByPathAndURL() async throws {
    let expected = try [StreamUser](jsonString: Self.array)
    try await withTemporaryFolderAsync { folder in
      let arrayURL = folder.appendingPathComponent("users.json")
      let linesURL = folder.appendingPathComponent("users.jsonl")
      try Data(Self.array.utf8).write(to: arrayURL)
      try Data(Self.lines.utf8).write(to: linesURL)
      var options = JSON.StreamOptions()
      options.chunkSize = 100
      let sync = try SyncJSONStream(of: StreamUser.self, contentsOf: arrayURL, options: options)
        .map { try $0.get() }
      #expect(sync == expected)
      let fromPath = try SyncJSONStream(
        of: StreamUser.self, contentsOfFile: linesURL.path, format: .lines
      ).map { try $0.get() }
      #expect(fromPath == expected)
      var async: [StreamUser] = []
      for try await user in JSONStream(of: StreamUser.self, contentsOf: linesURL, format: .lines) {
        async.append(user)
      }
      #expect(async == expected)
      var again: [StreamUser] = []
      for try await user in JSONStream(
        of: StreamUser.self, contentsOfFile: arrayURL.path, options: options)
      {
        again.append(user)
      }
      #expect(again == expected)
    }
  }

  @Test func aMissingFileIsAnError() async throws {
    let missing = "/nonexistent/automap-\(UUID().uuidString).json"
    let results = Array(SyncJSONStream(of: Int.self, contentsOfFile: missing))
    #expect(results.count == 1)
    if case .failure(let error)? = results.first {
      #expect(error.description.contains("cannot open"))
    } else {
      Issue.record("expected a failure")
    }
    await #expect(throws: JSON.Error.self) {
      for try await _ in JSONStream(of: Int.self, contentsOf: URL(string: "https://example.com")!) {
      }
    }
  }

  @Test func asyncBytesAndChunks() async throws {
    let expected = try [StreamUser](jsonString: Self.array)
    for (text, format) in [(Self.array, JSON.StreamFormat.array), (Self.lines, .lines)] {
      let bytes = AsyncStream<UInt8> { continuation in
        for byte in text.utf8 { continuation.yield(byte) }
        continuation.finish()
      }
      var fromBytes: [StreamUser] = []
      for try await user in JSONStream(of: StreamUser.self, bytes: bytes, format: format) {
        fromBytes.append(user)
      }
      #expect(fromBytes == expected)
      let chunks = AsyncStream<Data> { continuation in
        var rest = Data(text.utf8)
        while !rest.isEmpty {
          continuation.yield(rest.prefix(37))
          rest = rest.dropFirst(37)
        }
        continuation.finish()
      }
      var fromChunks: [StreamUser] = []
      for try await user in JSONStream(of: StreamUser.self, chunks: chunks, format: format) {
        fromChunks.append(user)
      }
      #expect(fromChunks == expected)
    }
  }

  /// A live feed: each value is handed on as soon as its line is complete, before the
  /// source ends.
  @Test func valuesArriveBeforeTheSourceEnds() async throws {
    let (chunks, continuation) = AsyncStream<[UInt8]>.makeStream()
    var iterator = JSONStream(of: Int.self, chunks: chunks, format: .lines).makeAsyncIterator()
    continuation.yield(Array("1\n2".utf8))
    #expect(try await iterator.next() == 1)
    continuation.yield(Array("\n".utf8))
    #expect(try await iterator.next() == 2)
    continuation.finish()
    #expect(try await iterator.next() == nil)
  }

  @Test func cancellationStopsReading() async throws {
    let data = Data(("[" + (0..<10_000).map(String.init).joined(separator: ",") + "]").utf8)
    let task = Task {
      var count = 0
      do {
        for try await _ in JSONStream(of: Int.self, data: data) {
          count += 1
          if count == 10 { withUnsafeCurrentTask { $0?.cancel() } }
        }
      } catch is CancellationError {
        return count
      }
      return -1
    }
    #expect(try await task.value == 10)

    // A source that never ends: cancelling the waiting consumer ends it.
    let (never, keep) = AsyncStream<[UInt8]>.makeStream()
    let (progress, report) = AsyncStream<Int>.makeStream()
    keep.yield(Array("1\n".utf8))
    let waiting = Task {
      var seen: [Int] = []
      do {
        for try await value in JSONStream(of: Int.self, chunks: never, format: .lines) {
          seen.append(value)
          report.yield(value)
        }
      } catch is CancellationError {
        return seen
      }
      return [-1] + seen
    }
    // Cancelled once it has the first value, however long that took: it is then waiting
    // for the next chunk, or about to.
    var reported = progress.makeAsyncIterator()
    #expect(await reported.next() == 1)
    waiting.cancel()
    let seen = try await waiting.value
    #expect(seen == [1])
    withExtendedLifetime(keep) {}

    let sync = Task {
      var results: [Result<Int, JSON.Error>] = []
      for result in SyncJSONStream(of: Int.self, data: data) {
        results.append(result)
        if results.count == 3 { withUnsafeCurrentTask { $0?.cancel() } }
      }
      return results
    }
    let results = await sync.value
    #expect(results.count == 4)
    if case .failure(let error)? = results.last {
      #expect(error.underlying is CancellationError)
    } else {
      Issue.record("expected the cancellation error")
    }
  }
}

/// A temporary folder for async work, removed afterwards.
func withTemporaryFolderAsync(_ body: (URL) async throws -> Void) async throws {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("automap-streams-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  try await body(folder)
}
