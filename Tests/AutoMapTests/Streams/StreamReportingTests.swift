import AutoMap
import Foundation
import Testing

/// A model with a default that stands in for an absent or null name.
struct DefaultedItem: JSONCodable, Equatable {
  var id: Int
  var name = ""
  static func specificOptions() -> [String: SpecificOption] {
    ["name": .defaultValue("anonymous")]
  }
}

@Suite("Substitutions and scoped configurations with streams")
struct StreamReportingTests {
  static let items = #"[{"id": 1, "name": "a"}, {"id": 2}, {"id": 3, "name": null}]"#
  static let lines =
    #"{"id": 1, "name": "a"}"# + "\n" + #"{"id": 2}"# + "\n"
    + #"{"id": 3, "name": null}"#
  static let expected = [
    DefaultedItem(id: 1, name: "a"), DefaultedItem(id: 2, name: "anonymous"),
    DefaultedItem(id: 3, name: "anonymous"),
  ]

  @Test("a stream's substitutions have paths that start at the element")
  func substitutionPaths() async throws {
    for (text, format) in [(Self.items, JSON.StreamFormat.array), (Self.lines, .lines)] {
      let data = Data(text.utf8)
      let (sync, recorded) = try JSON.recordingSubstitutions {
        try SyncJSONStream(of: DefaultedItem.self, data: data, format: format).map { try $0.get() }
      }
      #expect(sync == Self.expected)
      #expect(recorded.map(\.path) == ["name", "name"], "\(format)")
      #expect(recorded.map(\.reason) == ["absent", "null"], "\(format)")
      // The same through the options' handler, asynchronously.
      let handled = LockedList<String>()
      var options = JSON.StreamOptions()
      options.configuration = JSON.Configuration(onSubstitution: { handled.append($0.path) })
      var values: [DefaultedItem] = []
      let chunks = AsyncStream<[UInt8]> {
        $0.yield(Array(data))
        $0.finish()
      }
      for try await item in JSONStream(
        of: DefaultedItem.self, chunks: chunks, format: format, options: options)
      {
        values.append(item)
      }
      #expect(values == Self.expected)
      #expect(handled.elements == ["name", "name"], "\(format)")
    }
  }

  @Test("an onSubstitution handler for a JSON.withConfiguration scope sees every call in it")
  func handlerForAScope() throws {
    let handled = LockedList<String>()
    let scope = JSON.Configuration(onSubstitution: { handled.append($0.path) })
    let text = #"{"id": 1}"#
    try JSON.withConfiguration(scope) {
      #expect(try DefaultedItem(jsonString: text).name == "anonymous")
      _ = try [DefaultedItem](jsonData: Data("[\(text), \(text)]".utf8))
      _ = try DefaultedItem(decode: JSON(jsonString: text))
    }
    _ = try DefaultedItem(jsonString: text)  // outside the scope: not handed over
    #expect(handled.elements == ["name", "[0].name", "[1].name", "name"])
  }

  @Test("a writer used inside JSON.withConfiguration encodes with that configuration")
  func writerInAScope() throws {
    let events = [
      StampedEvent(at: Date(timeIntervalSince1970: 0)),
      StampedEvent(at: Date(timeIntervalSince1970: 86_400)),
    ]
    let seconds = JSON.Configuration(dateTransform: .secondsSince1970)
    let written = try withTemporaryFolder { folder in
      let url = folder.appendingPathComponent("events.jsonl")
      let writer = try JSONStreamWriter(to: url, format: .lines)
      try JSON.withConfiguration(seconds) { try writer.write(contentsOf: events) }
      try writer.write(events[1])  // outside the scope: the default, ISO 8601
      try writer.finish()
      return String(decoding: try Data(contentsOf: url), as: UTF8.self)
    }
    let lines =
      try events.map { try $0.jsonString(configuration: seconds) } + [events[1].jsonString()]
    #expect(lines == [#"{"at":0.0}"#, #"{"at":86400.0}"#, #"{"at":"1970-01-02T00:00:00Z"}"#])
    #expect(written == lines.joined(separator: "\n") + "\n")
  }
}
