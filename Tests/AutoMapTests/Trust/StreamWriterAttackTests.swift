import AutoMap
import Foundation
import Testing

// Review of `Streams/` (issue 20): a `JSONStreamWriter` finished by the code that encodes the
// value it is writing, and one used after a `finish()` that failed.

/// The writer a value's encoding finishes, per test.
final class WriterToFinish: @unchecked Sendable {  // every access under `lock`
  private let lock = NSLock()
  private var writer: JSONStreamWriter?
  func set(_ writer: JSONStreamWriter?) { lock.withLock { self.writer = writer } }
  func finish() throws { try lock.withLock { writer }?.finish() }
}

let writerToFinish = WriterToFinish()

/// Finishes `writerToFinish`'s writer while it is being written.
struct FinishesItsWriter: Codable, Equatable {
  var a = 1
  func encode(to encoder: any Encoder) throws {
    try writerToFinish.finish()
    var container = encoder.container(keyedBy: CDKey.self)
    try container.encode(a, forKey: CDKey("a"))
  }
}

struct HoldsFinisher: JSONCodable, Equatable {
  var item = FinishesItsWriter()
}

@Suite("A stream writer finished while it writes, or used after a failed finish", .serialized)
struct StreamWriterAttackTests {
  static func temporaryFile() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent(
      "automap-writer-\(UUID().uuidString).json")
  }

  @Test(
    "finished by the value it is writing: that write throws, and the file stays one array",
    arguments: [JSON.StreamFormat.array, .lines])
  func finishedWhileWriting(format: JSON.StreamFormat) throws {
    let url = Self.temporaryFile()
    defer { try? FileManager.default.removeItem(at: url) }
    let writer = try JSONStreamWriter(to: url, format: format, bufferSize: 1)
    try writer.write(["x": 1] as JSON)
    writerToFinish.set(writer)
    defer { writerToFinish.set(nil) }
    let error = #expect(throws: JSON.Error.self) { try writer.write(HoldsFinisher()) }
    #expect(error?.message.contains("after finish()") == true)
    #expect(writer.count == 1)
    let text = try String(contentsOf: url, encoding: .utf8)
    #expect(text == (format == .array ? #"[{"x":1}]"# : "{\"x\":1}\n"))
  }

  @Test("finish() that fails, then flush(): an error, not a write to a closed file")
  func flushAfterFailedFinish() throws {
    guard FileManager.default.isWritableFile(atPath: "/dev/full") else { return }
    let writer = try JSONStreamWriter(toFile: "/dev/full", format: .array)
    try writer.write(["x": 1] as JSON)
    #expect(throws: JSON.Error.self) { try writer.finish() }  // no space left on the device
    #expect(throws: JSON.Error.self) { try writer.flush() }
    #expect(throws: JSON.Error.self) { try writer.write(["y": 2] as JSON) }
    try writer.finish()  // later calls do nothing
  }
}
