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

/// A model whose key follows the call's key style.
private struct StyledRow: JSONCodable, Equatable {
  var userName = ""
  var probe = StyleProbe()
}

/// A `Codable` value that counts the `Decoder`s that read it: an element that the byte path
/// gives up on is read again by the reference.
private struct StyleProbe: Codable, Equatable {
  @TaskLocal static var calls: CDCalls?

  init() {}

  init(from decoder: any Decoder) throws {
    Self.calls?.count(decoder)
    _ = try decoder.singleValueContainer().decode(Int.self)
  }

  func encode(to encoder: any Encoder) throws {
    var single = encoder.singleValueContainer()
    try single.encode(0)
  }
}

extension ProcessWideState {
  @Suite("A stream's key style reaches the byte path")
  struct StreamKeyStylePathTests {
    @Test("elements read under a key style are read once, from the bytes, with that style")
    func styledElementsStayOnBytes() throws {
      ProcessWideState.expectInside()
      let text = #"[{"user_name": "a", "probe": 1}, {"UserName": "b", "Probe": 2}]"#
      _ = try StyledRow(jsonString: #"{"userName": "first use", "probe": 0}"#)
      let calls = CDCalls()
      try StyleProbe.$calls.withValue(calls) {
        var iterator = SyncJSONStream(of: StyledRow.self, data: Data(text.utf8)).makeIterator()
        let first = try JSON.withConfiguration(JSON.Configuration(keyStyle: .snakeCase)) {
          try iterator.nextElement()
        }
        let second = try JSON.withConfiguration(JSON.Configuration(keyStyle: .upperCamelCase)) {
          try iterator.nextElement()
        }
        #expect(first?.userName == "a" && second?.userName == "b")
      }
      // Each probe read once: no element fell back to the reference after its byte read. (A
      // `Codable` value under a key style is the reference `Decoder`'s, inside the byte read.)
      #expect(calls.taken.count == 2)
    }
  }
}

@Suite("A stream reads each element with the key style of the call that asks for it")
struct StreamKeyStyleTests {
  @Test("each element takes the key style current when it is read, the same reader reused")
  func keyStylePerElement() throws {
    let text = """
      [{"user_name": "a", "probe": 1}, {"UserName": "b", "Probe": 2}, {"userName": "c", "probe": 3},
       {"user_name": "d", "probe": 4}]
      """
    var iterator = SyncJSONStream(of: StyledRow.self, data: Data(text.utf8)).makeIterator()
    let first = try JSON.withConfiguration(JSON.Configuration(keyStyle: .snakeCase)) {
      try iterator.nextElement()
    }
    let second = try JSON.withConfiguration(JSON.Configuration(keyStyle: .upperCamelCase)) {
      try iterator.nextElement()
    }
    let third = try iterator.nextElement()
    #expect([first, second, third] == ["a", "b", "c"].map { StyledRow(userName: $0) })
    // Without a style, `user_name` is not the model's key: the element fails, as
    // `StyledRow(jsonString:)` does.
    #expect(throws: JSON.Error.self) { try iterator.nextElement() }
    #expect(throws: JSON.Error.self) {
      try StyledRow(jsonString: #"{"user_name": "d", "probe": 4}"#)
    }
  }

  @Test("a substitution handler's own calls see the key style from outside the scope")
  func handlerOutsideStyle() throws {
    let seen = LockedList<String>()
    var scope = JSON.Configuration(keyStyle: .snakeCase)
    scope.onSubstitution = { _ in
      // Outside the scope no style is set: the model's own keys.
      let row = try? StyledRow(jsonString: #"{"userName": "outside", "probe": 0}"#)
      seen.append(row?.userName ?? "failed")
    }
    let item = try JSON.withConfiguration(scope) {
      // Inside it, snake case.
      let row = try StyledRow(jsonString: #"{"user_name": "inside", "probe": 0}"#)
      #expect(row.userName == "inside")
      return try DefaultedItem(jsonString: #"{"id": 1}"#)
    }
    #expect(item.name == "anonymous")
    #expect(seen.elements == ["outside"])
  }
}
