import AutoMap
import Foundation
import Testing

struct SnakeProfile: JSONCodable, Equatable {
  static let keyStyle = JSON.KeyStyle.snakeCase
  var avatarURL: String
  var userID: Int
  var displayName: String
  var version2Name: String?
  var nickname: String

  static func specificOptions() -> [String: SpecificOption] { ["nickname": "nick"] }  // explicit wins
}

struct ShoutingProfile: JSONCodable, Equatable {
  static let keyStyle = JSON.KeyStyle.screamingSnakeCase
  var avatarURL: String
  var userID: Int
  var displayName: String
  var nickname: String

  static func specificOptions() -> [String: SpecificOption] { ["nickname": "nick"] }  // explicit wins
}

struct PlainProfile: JSONCodable, Equatable {
  var firstName: String
  var age: Int
}

@Suite("Key styles")
struct KeyStyleTests {
  @Test("property names convert to keys, both ways")
  func conversions() {
    #expect(JSON.KeyStyle.snakeCase.key(for: "avatarURL") == "avatar_url")
    #expect(JSON.KeyStyle.snakeCase.key(for: "userID") == "user_id")
    #expect(JSON.KeyStyle.snakeCase.key(for: "URLString") == "url_string")
    #expect(JSON.KeyStyle.snakeCase.key(for: "version2Name") == "version2_name")
    #expect(JSON.KeyStyle.snakeCase.key(for: "plain") == "plain")
    #expect(JSON.KeyStyle.upperCamelCase.key(for: "avatarURL") == "AvatarURL")
  }

  @Test("kebab case and screaming snake case use the snake-case words")
  func kebabAndScreaming() throws {
    let kebab = JSON.KeyStyle.kebabCase
    let screaming = JSON.KeyStyle.screamingSnakeCase
    #expect(kebab.key(for: "avatarURL") == "avatar-url")
    #expect(kebab.key(for: "URLString") == "url-string")
    #expect(kebab.key(for: "version2Name") == "version2-name")
    #expect(kebab.key(for: "max_id") == "max-id")
    #expect(screaming.key(for: "avatarURL") == "AVATAR_URL")
    #expect(screaming.key(for: "userID") == "USER_ID")
    #expect(screaming.key(for: "plain") == "PLAIN")
    // Per call, on every path: the keys of one style are not read under another.
    let profile = PlainProfile(firstName: "Ada", age: 36)
    for (style, text) in [
      (kebab, #"{"first-name":"Ada","age":36}"#), (screaming, #"{"FIRST_NAME":"Ada","AGE":36}"#),
    ] {
      #expect(try profile.jsonString(keyStyle: style) == text)
      #expect(try PlainProfile(jsonString: text, keyStyle: style) == profile)
      #expect(try PlainProfile(jsonData: Data(text.utf8), keyStyle: style) == profile)
      #expect(try PlainProfile(decode: JSON(jsonString: text), keyStyle: style) == profile)
      #expect(throws: JSON.Error.self) { try PlainProfile(jsonString: text, keyStyle: .snakeCase) }
    }
    // A model's own style, first and later use alike.
    let text = #"{"AVATAR_URL":"a.png","USER_ID":3,"DISPLAY_NAME":"D","nick":"n"}"#
    let shouting = try decodeAllWays(ShoutingProfile.self, text)
    #expect(shouting.userID == 3 && shouting.nickname == "n")
    #expect(
      try shouting.jsonString(options: .sortedKeys)
        == #"{"AVATAR_URL":"a.png","DISPLAY_NAME":"D","USER_ID":3,"nick":"n"}"#)
  }

  @Test("a model's key style applies to decoding and encoding; an explicit index wins")
  func modelStyle() throws {
    let text =
      #"{"avatar_url": "a.png", "user_id": 3, "display_name": "D", "version2_name": "v", "nick": "n"}"#
    let profile = try decodeAllWays(SnakeProfile.self, text)
    #expect(profile.avatarURL == "a.png")
    #expect(profile.version2Name == "v")
    #expect(profile.nickname == "n")
    #expect(
      try profile.jsonString(options: .sortedKeys)
        == #"{"avatar_url":"a.png","display_name":"D","nick":"n","user_id":3,"version2_name":"v"}"#)
    let camel = decodingError(
      SnakeProfile.self, #"{"avatarURL": "a", "userID": 1, "displayName": "D", "nick": "n"}"#)
    #expect(camel?.path == "avatar_url", "camelCase keys are not read under .snakeCase")
  }

  @Test("the call site overrides every model's style")
  func callSite() throws {
    let text = #"{"first_name": "Ada", "age": 36}"#
    #expect(throws: JSON.Error.self) { try PlainProfile(jsonString: text) }
    let profile = try PlainProfile(jsonString: text, keyStyle: .snakeCase)
    #expect(profile == PlainProfile(firstName: "Ada", age: 36))
    #expect(try PlainProfile(decode: JSON(jsonString: text), keyStyle: .snakeCase) == profile)
    #expect(try [PlainProfile](jsonString: "[\(text)]", keyStyle: .snakeCase) == [profile])
    #expect(try profile.jsonString(keyStyle: .upperCamelCase) == #"{"FirstName":"Ada","Age":36}"#)
    #expect(
      try profile.jsonString() == #"{"firstName":"Ada","age":36}"#,
      "the override ends with the call")
  }

  @Test("case-insensitive decoding matches any ASCII case, and only that")
  func caseInsensitive() throws {
    for _ in 0..<2 {  // first uses: FirstUseTests
      let profile = try PlainProfile(
        jsonString: #"{"FIRSTNAME": "Ada", "Age": 36}"#, keyStyle: .caseInsensitive)
      #expect(profile == PlainProfile(firstName: "Ada", age: 36))
    }
    #expect(throws: JSON.Error.self) {
      try PlainProfile(jsonString: #"{"first_name": "Ada", "age": 36}"#, keyStyle: .caseInsensitive)
    }
  }
}
