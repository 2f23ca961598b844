import AutoMap
import Foundation
import Testing

/// Writing JSON Lines and arrays incrementally, in bounded buffers.
@Suite struct StreamWriterTests {
  private static let users = (0..<20).map {
    StreamUser(
      id: $0, name: "user \"\($0)\"\n", tags: $0 % 2 == 0 ? [] : ["a", "b"],
      address: $0 % 3 == 0 ? nil : StreamAddress(city: "Köln", zip: $0), score: nil)
  }

  @Test(arguments: [
    JSON.WritingOptions(), [.sortedKeys], [.prettyPrinted],
    [.prettyPrinted, .sortedKeys, .omitNulls],
  ])
  func arraysAreWhatTheArrayEncodesTo(options: JSON.WritingOptions) throws {
    for count in [0, 1, 20] {
      for bufferSize in [1, 7, 1 << 20] {
        let values = Array(Self.users.prefix(count))
        let written = try withTemporaryFolder { folder in
          let url = folder.appendingPathComponent("users.json")
          let writer = try JSONStreamWriter(
            to: url, format: .array, options: options, bufferSize: bufferSize)
          try writer.write(contentsOf: values)
          #expect(writer.count == count)
          try writer.finish()
          return try Data(contentsOf: url)
        }
        let expected = try values.jsonData(options: options)
        #expect(
          written == expected,
          "\(count) values, buffer \(bufferSize): \(String(decoding: written, as: UTF8.self))")
      }
    }
  }

  @Test func linesAreOneCompactValueEach() throws {
    let written = try withTemporaryFolder { folder in
      let path = folder.appendingPathComponent("users.jsonl").path
      let writer = try JSONStreamWriter(
        toFile: path, format: .lines, options: [.prettyPrinted, .sortedKeys], bufferSize: 64)
      for user in Self.users { try writer.write(user) }
      try writer.finish()
      try writer.finish()  // a second call does nothing
      return try String(contentsOfFile: path, encoding: .utf8)
    }
    let expected = try Self.users.map { try $0.jsonString(options: [.sortedKeys]) + "\n" }
    #expect(written == expected.joined())
    let read = try SyncJSONStream(of: StreamUser.self, data: Data(written.utf8), format: .lines)
      .map { try $0.get() }
    #expect(read == Self.users)
  }

  @Test func toAFileHandleThatStaysOpen() throws {
    try withTemporaryFolder { folder in
      let url = folder.appendingPathComponent("out.jsonl")
      _ = FileManager.default.createFile(atPath: url.path, contents: nil)
      let handle = try FileHandle(forWritingTo: url)
      let writer = JSONStreamWriter(fileHandle: handle, format: .lines, keyStyle: .snakeCase)
      struct Row: JSONEncodable { var rowID: Int }
      try writer.write(contentsOf: [Row(rowID: 1), Row(rowID: 2)])
      try writer.flush()
      #expect(try String(contentsOf: url, encoding: .utf8) == "{\"row_id\":1}\n{\"row_id\":2}\n")
      try writer.finish()
      try handle.write(contentsOf: Data("3\n".utf8))  // still open
      try handle.close()
      #expect(try String(contentsOf: url, encoding: .utf8).hasSuffix("}\n3\n"))
    }
  }

  @Test func aValueThatCannotBeEncodedWritesNothing() throws {
    try withTemporaryFolder { folder in
      let url = folder.appendingPathComponent("numbers.json")
      let writer = try JSONStreamWriter(to: url, format: .array)
      try writer.write(1.5)
      #expect(throws: JSON.Error.self) { try writer.write(Double.nan) }
      try writer.write(2.5)
      try writer.finish()
      #expect(throws: JSON.Error.self) { try writer.write(3.5) }
      #expect(try String(contentsOf: url, encoding: .utf8) == "[1.5,2.5]")
    }
  }

  @Test func anUnfinishedWriterFinishesWhenReleased() throws {
    try withTemporaryFolder { folder in
      let url = folder.appendingPathComponent("left.json")
      do {
        let writer = try JSONStreamWriter(to: url, format: .array)
        try writer.write(contentsOf: [1, 2])
      }
      #expect(try String(contentsOf: url, encoding: .utf8) == "[1,2]")
    }
  }

  @Test func aFileThatCannotBeCreatedIsAnError() {
    #expect(throws: JSON.Error.self) {
      try JSONStreamWriter(toFile: "/nonexistent/\(UUID().uuidString)/x.jsonl")
    }
  }
}
