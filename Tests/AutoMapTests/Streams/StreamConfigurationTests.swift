import AutoMap
import Foundation
import Testing

/// A model whose `Date` reads as the call's configuration says.
struct StampedEvent: JSONCodable, Equatable {
  var at: Date
}

@Suite("A stream's configuration reaches every element")
struct StreamConfigurationTests {
  static let text = #"[{"at": 0}, {"at": 86400}]"#
  static let expected = [
    StampedEvent(at: Date(timeIntervalSince1970: 0)),
    StampedEvent(at: Date(timeIntervalSince1970: 86_400)),
  ]

  static var secondsOptions: JSON.StreamOptions {
    var options = JSON.StreamOptions()
    options.configuration = JSON.Configuration(dateTransform: .secondsSince1970)
    return options
  }

  @Test("options.configuration applies to sync, async and line streams alike")
  func configurationApplies() async throws {
    let data = Data(Self.text.utf8)
    let sync = try SyncJSONStream(of: StampedEvent.self, data: data, options: Self.secondsOptions)
      .map { try $0.get() }
    #expect(sync == Self.expected)
    var asynchronous: [StampedEvent] = []
    for try await event in JSONStream(
      of: StampedEvent.self,
      chunks: AsyncStream {
        $0.yield(data); $0.finish()
      },
      options: Self.secondsOptions)
    {
      asynchronous.append(event)
    }
    #expect(asynchronous == Self.expected)
    let lines = Data("{\"at\": 0}\n{\"at\": 86400}\n".utf8)
    let fromLines = try SyncJSONStream(
      of: StampedEvent.self, data: lines, format: .lines, options: Self.secondsOptions
    ).map { try $0.get() }
    #expect(fromLines == Self.expected)
    // The same as one call with the configuration.
    #expect(
      try [StampedEvent](
        jsonData: data, configuration: JSON.Configuration(dateTransform: .secondsSince1970))
        == Self.expected)
  }

  @Test("without a configuration the default date transform applies, and numbers fail")
  func defaultStillApplies() throws {
    let data = Data(Self.text.utf8)
    #expect(throws: JSON.Error.self) {
      _ = try SyncJSONStream(of: StampedEvent.self, data: data).map { try $0.get() }
    }
    #expect(throws: JSON.Error.self) { _ = try [StampedEvent](jsonData: data) }
  }
}
