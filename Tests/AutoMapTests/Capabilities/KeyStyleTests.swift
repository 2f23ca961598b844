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
    for _ in 0..<2 {  // JSON path first, then bytes
      let profile = try PlainProfile(
        jsonString: #"{"FIRSTNAME": "Ada", "Age": 36}"#, keyStyle: .caseInsensitive)
      #expect(profile == PlainProfile(firstName: "Ada", age: 36))
    }
    #expect(throws: JSON.Error.self) {
      try PlainProfile(jsonString: #"{"first_name": "Ada", "age": 36}"#, keyStyle: .caseInsensitive)
    }
  }
}
