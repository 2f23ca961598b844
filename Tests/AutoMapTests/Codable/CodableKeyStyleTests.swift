import AutoMap
import Foundation
import Testing

/// Writes and reads whatever keys it is given, to compare key conversions with Foundation's.
private struct DynamicKeys: Codable, Equatable {
  struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  var names: [String]

  init(_ names: [String]) { self.names = names }

  init(from decoder: any Decoder) throws {
    names = try decoder.container(keyedBy: Key.self).allKeys.map(\.stringValue).sorted()
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    for name in names { try container.encode(1, forKey: Key(stringValue: name)) }
  }
}

@Suite("Codable properties and key styles")
struct CodableKeyStyleTests {
  static let names = [
    "avatarURL", "URLString", "userID", "version2Name", "_private", "__both__", "a", "ALLCAPS",
    "already_snake", "HTTPSProxy", "x1Y2", "trailing_", "double__under", "ÉtéÀ", "camelCase",
  ]

  @Test("snake case writes coding keys as JSONEncoder's convertToSnakeCase does")
  func encodesLikeJSONEncoder() throws {
    struct Box: JSONEncodable {
      static let keyStyle = JSON.KeyStyle.snakeCase
      var keys: DynamicKeys
    }
    let ours = try Box(keys: DynamicKeys(Self.names)).json["keys"]
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    let theirs = try JSON(jsonData: encoder.encode(DynamicKeys(Self.names)))
    #expect(ours == theirs)
    #expect(ours["avatar_url"] == 1 && ours["user_id"] == 1 && ours["version2_name"] == 1)
  }

  @Test("snake case reads JSON keys as JSONDecoder's convertFromSnakeCase does")
  func decodesLikeJSONDecoder() throws {
    struct Box: JSONDecodable {
      static let keyStyle = JSON.KeyStyle.snakeCase
      var keys: DynamicKeys
    }
    let snakeNames = Self.names + ["user_id", "avatar_url", "_lead_ing", "trail_ing__", "a_b_c"]
    var object = JSON.Object()
    for name in snakeNames { object[name] = 1 }
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let theirs = try decoder.decode(DynamicKeys.self, from: JSON.object(object).jsonData())
    let ours = try Box(decode: ["keys": .object(object)]).keys
    #expect(ours == theirs)
    #expect(ours.names.contains("userId") && ours.names.contains("_leadIng"))
  }

  @Test("a synthesized Codable type under each style: both directions agree with Foundation")
  func profileUnderStyles() throws {
    struct Membership: JSONCodable, Equatable {
      var profileInfo: Persona
    }
    let profile = Persona(avatarUrl: "a.png", displayName: "Ada", userID: 7)
    let account = Membership(profileInfo: profile)
    // snake case: the model's key and the Codable type's keys.
    let snake = try account.json(keyStyle: .snakeCase)
    #expect(
      snake == ["profile_info": ["avatar_url": "a.png", "display_name": "Ada", "user_id": 7]])
    // userID is written user_id but read back as userId, exactly as with JSONDecoder.
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let foundation = try decoder.decode(Persona.self, from: snake["profile_info"].jsonData())
    let back = try Membership(decode: snake, keyStyle: .snakeCase)
    #expect(back.profileInfo == foundation)
    #expect(back.profileInfo.userID == nil)
    // upper camel case and case-insensitive round-trip.
    let upper = try account.jsonString(keyStyle: .upperCamelCase)
    #expect(upper == #"{"ProfileInfo":{"AvatarUrl":"a.png","DisplayName":"Ada","UserID":7}}"#)
    #expect(try Membership(jsonString: upper, keyStyle: .upperCamelCase) == account)
    let shouting = #"{"profileInfo": {"AVATARURL": "a.png", "displayname": "Ada", "UserId": 7}}"#
    #expect(try Membership(jsonString: shouting, keyStyle: .caseInsensitive) == account)
    #expect(
      try agreedDecoding(Membership.self, shouting, keyStyle: .caseInsensitive)?.get() == account)
  }

  @Test("the model's own key style reaches its Codable properties; a call's overrides it")
  func modelStyle() throws {
    struct Snake: JSONCodable, Equatable {
      static let keyStyle = JSON.KeyStyle.snakeCase
      var profileInfo: Persona
    }
    let value = Snake(profileInfo: Persona(avatarUrl: "a", displayName: "b", userID: nil))
    // (Synthesized encode(to:) leaves out a nil optional.)
    #expect(try value.jsonString() == #"{"profile_info":{"avatar_url":"a","display_name":"b"}}"#)
    #expect(
      try value.jsonString(keyStyle: .exact)
        == #"{"profileInfo":{"avatarUrl":"a","displayName":"b"}}"#)
    #expect(try Snake(jsonString: value.jsonString()) == value)
    let text = #"{"profile_info": {"avatar_url": "a", "display_name": "b"}}"#
    #expect(try Snake(jsonString: text) == value)
    #expect(try Snake(jsonData: Data(text.utf8)) == value)
    #expect(try Snake(decode: JSON(jsonString: text)) == value)
    #expect(agreedDecoding(Snake.self, text, keyStyle: .snakeCase) == .success(value))
  }

  @Test("string-keyed dictionaries keep their keys under every style, as with JSONDecoder")
  func dictionaryKeysUntouched() throws {
    struct Box: JSONCodable, Equatable {
      static let keyStyle = JSON.KeyStyle.snakeCase
      var pricesByCode: [String: Price?]
    }
    let value = Box(pricesByCode: ["camelKey": Price(1), "snake_key": nil])
    let json = try value.json
    #expect(json["prices_by_code", "camelKey", "amount"] == 1)
    #expect(json["prices_by_code", "snake_key"] == .null)
    #expect(try Box(decode: json) == value)
  }
}
