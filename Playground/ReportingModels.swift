import AutoMap

// The models of section 20: every problem in one report, and substitutions.

struct Point: JSONCodable {
  var x: Int
  var y: Int
}

enum Presence: String, JSONCodable, JSONFallbackCase {
  case online, away, unknown
  static let fallbackCase = Presence.unknown
}

struct Contributor: JSONCodable {
  var name: String
  var presence: Presence
  var tags: [String]
  var age: Int

  static func specificOptions() -> [String: SpecificOption] {
    [
      "name": [.alternativeIndex("login"), .defaultValue("anonymous")], "tags": .lossy,
      "age": .nonNil,
    ]
  }
}
