import AutoMap
import Foundation
import Testing

struct Post: JSONCodable, Equatable {
  var title: String
  var tags: [String]
  var subtitle: String?
  var summary: String
  var extra: [String: Int?]

  static func specificOptions() -> [String: SpecificOption] {
    ["tags": .ignoreIfEmpty, "summary": .ignoreIfEmpty, "subtitle": .emptyAsNil]
  }
}

struct BadEmpty: JSONCodable {
  var count: Int
  static func specificOptions() -> [String: SpecificOption] { ["count": .ignoreIfEmpty] }
}

struct BadEmptyAsNil: JSONCodable {
  var name: String
  static func specificOptions() -> [String: SpecificOption] { ["name": .emptyAsNil] }
}

/// The API renamed `user_name` to `username`: read the old key, write the new one.
struct RenamedAccount: JSONCodable, Equatable {
  var username: String
  var password: String?
  var serverID: Int?

  static func specificOptions() -> [String: SpecificOption] {
    [
      "username": [.decodeIndex("user_name"), .encodeIndex("username")],
      "password": .encodeOnly,
      "serverID": [.decodeOnly, "server_id"],
    ]
  }
}

@Suite("Encoding policies and one-way mappings")
struct EncodingPolicyTests {
  @Test(".ignoreIfEmpty, .emptyAsNil and .omitNulls")
  func policies() throws {
    let post = try decodeAllWays(
      Post.self,
      #"{"title": "T", "tags": [], "subtitle": "", "summary": "", "extra": {"a": null, "b": 1}}"#)
    #expect(post.subtitle == nil, ".emptyAsNil")
    #expect(
      try post.jsonString(options: .sortedKeys)
        == #"{"extra":{"a":null,"b":1},"subtitle":null,"title":"T"}"#)
    #expect(
      try post.jsonString(options: [.sortedKeys, .omitNulls]) == #"{"extra":{"b":1},"title":"T"}"#)
    var full = post
    full.tags = ["x"]
    full.summary = "s"
    #expect(try full.json["tags"] == ["x"])
    #expect(try full.json["summary"] == "s")
    let json: JSON = ["a": nil, "b": [nil, 1]]
    #expect(
      try json.jsonString(options: .omitNulls) == #"{"b":[null,1]}"#, "array elements are kept")
  }

  @Test("options on types they cannot apply to are refused")
  func misused() {
    let empty = #expect(throws: JSON.Error.self) { try BadEmpty(count: 1).jsonString() }
    #expect(empty?.description.contains(".ignoreIfEmpty, which applies to strings") == true)
    let asNil = #expect(throws: JSON.Error.self) { try BadEmptyAsNil(jsonString: #"{"name": ""}"#) }
    #expect(asNil?.description.contains(".emptyAsNil, which applies to String? properties") == true)
  }

  @Test("decode-only and encode-only mappings")
  func oneWay() throws {
    let account = try decodeAllWays(
      RenamedAccount.self, #"{"user_name": "ada", "password": "ignored", "server_id": 7}"#)
    #expect(account == RenamedAccount(username: "ada", password: nil, serverID: 7))
    var withPassword = account
    withPassword.password = "s3cret"
    #expect(try withPassword.jsonString() == #"{"username":"ada","password":"s3cret"}"#)
    let old = decodingError(RenamedAccount.self, #"{"username": "ada"}"#)
    #expect(old?.path == "user_name", "decoding reads only the decode index")
  }
}
