import AutoMap
import Foundation
import Testing

@propertyWrapper
struct Clamped: JSONPropertyWrapper, Equatable {
  private var value: Int
  init(wrappedValue: Int) { value = min(max(wrappedValue, 0), 100) }
  var wrappedValue: Int {
    get { value }
    set { value = min(max(newValue, 0), 100) }
  }
}

/// A wrapper that maps itself: written as `{"v": …}`.
@propertyWrapper
struct Boxed: JSONCodable, Equatable {
  var wrappedValue: String
  init(wrappedValue: String) { self.wrappedValue = wrappedValue }
  init(decode json: JSON) throws { wrappedValue = try String(decode: json["v"]) }
  var json: JSON { ["v": .string(wrappedValue)] }
}

/// A wrapper AutoMap knows nothing about.
@propertyWrapper
struct Opaque<Value> {
  var wrappedValue: Value
}

struct Mixer: JSONCodable, DefaultInitable, Equatable {
  @Clamped var volume = 50
  @Clamped var balance = 0
  @Boxed var label = "main"
  var name = ""
  static func specificOptions() -> [String: SpecificOption] { ["balance": "pan"] }
}

struct OptionalWrapped: JSONCodable, Equatable {
  @Wrapped var note: String?
}

@propertyWrapper
struct Wrapped<Value>: JSONPropertyWrapper {
  var wrappedValue: Value
}

extension Wrapped: Equatable where Value: Equatable {}

/// Underscored names that are not wrapper storage keep their underscore.
struct Document: JSONCodable, Equatable {
  var _id: String
  var _links: [String]
}

struct UnknownWrapper: JSONCodable, DefaultInitable {
  @Opaque var count = 1
}

@Suite("Property wrappers map under the wrapped name, through the wrapper")
struct PropertyWrapperTests {
  @Test("a JSONPropertyWrapper maps its wrapped value; a mappable wrapper maps itself")
  func wrappedNames() throws {
    let text = #"{"volume": 250, "pan": -3, "label": {"v": "aux"}, "name": "m"}"#
    let mixer = try decodeAllWays(Mixer.self, text)
    #expect(mixer.volume == 100)  // the wrapper's rule holds
    #expect(mixer.balance == 0)
    #expect(mixer.label == "aux")
    let written = try mixer.jsonString(options: [.sortedKeys])
    #expect(written == #"{"label":{"v":"aux"},"name":"m","pan":0,"volume":100}"#)
    #expect(!written.contains("_"))
    #expect(try mixer.json == JSON(jsonString: written))
  }

  @Test("a plain property named with an underscore keeps its name")
  func underscoreNames() throws {
    let text = #"{"_id": "a1", "_links": ["self"]}"#
    let document = try decodeAllWays(Document.self, text)
    #expect(document == Document(_id: "a1", _links: ["self"]))
    #expect(try document.jsonString() == #"{"_id":"a1","_links":["self"]}"#)
  }

  @Test("an optional wrapped value is nil when absent")
  func optionalWrapped() throws {
    #expect(try decodeAllWays(OptionalWrapped.self, "{}").note == nil)
    #expect(try decodeAllWays(OptionalWrapped.self, #"{"note": "hi"}"#).note == "hi")
    #expect(try OptionalWrapped(note: "x").jsonString() == #"{"note":"x"}"#)
  }

  @Test("a wrapper that cannot be mapped is an error at first use that says what to do")
  func unknownWrapper() {
    let error = #expect(throws: JSON.Error.self) { try UnknownWrapper(jsonString: "{}") }
    #expect(error?.kind == .invalidModel)
    #expect(error?.description.contains("UnknownWrapper.count") == true)
    #expect(error?.description.contains("JSONPropertyWrapper") == true)
    let encoding = #expect(throws: JSON.Error.self) { try UnknownWrapper().jsonString() }
    #expect(encoding?.description.contains("JSONPropertyWrapper") == true)
  }
}

/// README's example of the reflection rules, as written there.
final class ReadmeTeam {}

final class ReadmePlayer: JSONCodable, DefaultInitable {
  weak var team: ReadmeTeam?
  @Clamped var volume = 50
  lazy var initials = String(name.prefix(1))
  var name = ""
  required init() {}
}

@Test("README's wrapper, weak and lazy example behaves as README says")
func readmePlayer() throws {
  let player = try ReadmePlayer(jsonString: #"{"volume": 300, "name": "Ada", "initials": "x"}"#)
  #expect(player.volume == 100)
  #expect(player.initials == "A")
  #expect(try player.jsonString() == #"{"volume":100,"name":"Ada"}"#)
}
