import AutoMap
import Foundation
import Testing

// The code of Sources/AutoMap/AutoMap.docc/Streams.md (see GettingStartedExamples.swift).

enum StreamsArticle {
  struct Event: JSONCodable, Equatable { var id: Int; var kind: String }
}

extension StreamsArticle {
  @Suite("Documentation: Streams")
  struct Examples {
    let events = [Event(id: 1, kind: "open"), Event(id: 2, kind: "close")]

    @Test("A writer writes JSON Lines, a stream reads them back one at a time")
    func writeThenRead() async throws {
      let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("automap-docs-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      let path = folder.appendingPathComponent("events.jsonl").path
      let logURL = URL(fileURLWithPath: path)
      // docc:begin
      let writer = try JSONStreamWriter(toFile: path, format: .lines)  // or .array, a FileHandle
      try writer.write(contentsOf: events)
      try writer.finish()

      for try await event in JSONStream(of: Event.self, contentsOf: logURL, format: .lines) {
        print(event.id)  // one element in memory at a time
      }
      // docc:end
      var read: [Event] = []
      for try await event in JSONStream(of: Event.self, contentsOf: logURL, format: .lines) {
        read.append(event)
      }
      #expect(read == events)
      let text = try String(contentsOfFile: path, encoding: .utf8)
      #expect(text == "{\"id\":1,\"kind\":\"open\"}\n{\"id\":2,\"kind\":\"close\"}\n")
    }

    @Test("Without async, from memory")
    func synchronous() throws {
      let body = Data(#"[{"id": 1, "kind": "open"}, {"id": 2, "kind": "close"}]"#.utf8)
      var read: [Event] = []
      // docc:begin
      var iterator = SyncJSONStream(of: Event.self, data: body).makeIterator()
      while let event = try iterator.nextElement() {
        read.append(event)
      }
      // docc:end
      #expect(read == events)
    }

    @Test("A stream that reads comments and trailing commas")
    func lenient() throws {
      let file = Data(
        "// rules\n[{\"id\": 1, \"kind\": \"open\"}, /* more */ {\"id\": 2, \"kind\": \"close\"},]"
          .utf8)
      // docc:begin
      var options = JSON.StreamOptions()
      options.reading = [.comments, .trailingCommas]
      let rules = try SyncJSONStream(of: Event.self, data: file, options: options).map {
        try $0.get()
      }
      // docc:end
      #expect(rules == events)
      #expect(throws: JSON.Error.self) {
        try SyncJSONStream(of: Event.self, data: file).map { try $0.get() }
      }
    }

    @Test("An error names the element, and for JSON Lines the line")
    func errors() throws {
      let body = Data("{\"id\": 1, \"kind\": \"a\"}\n\n{\"id\": \"x\", \"kind\": \"b\"}\n".utf8)
      var iterator = SyncJSONStream(of: Event.self, data: body, format: .lines).makeIterator()
      #expect(try iterator.nextElement() == Event(id: 1, kind: "a"))
      let error = #expect(throws: JSON.Error.self) { try iterator.nextElement() }
      #expect(error?.path == "[1].id" && error?.line == 3)
    }
  }
}
