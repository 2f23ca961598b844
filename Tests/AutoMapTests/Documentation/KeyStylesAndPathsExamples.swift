import AutoMap
import Foundation
import Testing

// The code of Sources/AutoMap/AutoMap.docc/KeyStylesAndPaths.md (see
// GettingStartedExamples.swift).

enum KeyStylesArticle {
  // docc:begin
  struct GitHubUser: JSONCodable {
    static let keyStyle = JSON.KeyStyle.snakeCase  // avatarURL <-> "avatar_url", both ways
    var login: String
    var avatarURL: URL
  }
  // docc:end

  // docc:begin
  struct Signup: JSONCodable {
    var email: String
    mutating func didDecode() throws {  // after the fields are filled
      guard email.contains("@") else { throw JSON.Error.custom("email must contain @") }
    }
  }
  // docc:end

  // docc:begin
  struct Login: JSONCodable {
    var username: String
    var token: String?
    static func specificOptions() -> [String: SpecificOption] {
      ["username": [.decodeIndex("user_name"), .encodeIndex("username")], "token": .decodeOnly]
    }
  }
  // {"user_name": "ada", "token": "t0k3n"}  ->  Login  ->  {"username":"ada"}
  // docc:end

  struct Payload: JSONCodable { var id: Int; var amount: Int }

  // docc:begin
  struct Delivery: JSONCodable {
    static let keyStyle = JSON.KeyStyle.snakeCase
    var eventType: String  // "event_type"
    var requestID: String  // "request-id": its own style
    var payload: Payload  // "payload": "{\"id\": 1, \"amount\": 5}"
    static func specificOptions() -> [String: SpecificOption] {
      ["payload": .embeddedJSON, "requestID": .keyStyle(.kebabCase)]
    }
  }
  // docc:end

  struct Settings: JSONCodable, DefaultInitable {
    var theme = "light"
    var fontSize = 12
  }

  struct Draft: JSONCodable { var title: String; var subtitle: String? }
}

extension KeyStylesArticle {
  @Suite("Documentation: Key styles and paths")
  struct Examples {
    @Test("A model's key style, and a call's")
    func keyStyles() throws {
      let data = Data(#"{"login": "ada", "avatar_url": "https://a.example/ada.png"}"#.utf8)
      let capitalized = Data(#"{"Login": "ada", "AVATARURL": "https://a.example/ada.png"}"#.utf8)
      // docc:begin
      let user = try GitHubUser(jsonData: data)
      let same = try GitHubUser(jsonData: capitalized, keyStyle: .caseInsensitive)  // this call
      let upper = try user.jsonString(keyStyle: .upperCamelCase)  // {"Login":"ada","AvatarURL":…}
      // docc:end
      #expect(user.avatarURL.lastPathComponent == "ada.png" && same.login == "ada")
      #expect(try user.jsonString() == #"{"login":"ada","avatar_url":"https://a.example/ada.png"}"#)
      #expect(
        upper
          == #"{"Login":"ada","AvatarURL":"https://a.example/ada.png"}"#)
    }

    @Test("didDecode validates after the fields are filled")
    func validation() throws {
      #expect(try Signup(jsonString: #"{"email": "ada@example.com"}"#).email == "ada@example.com")
      let error = #expect(throws: JSON.Error.self) { try Signup(jsonString: #"{"email": "ada"}"#) }
      #expect(error?.description.contains("email must contain @") == true)
    }

    @Test("Designated paths, updates and omitted nulls")
    func pathsAndUpdates() throws {
      let data = Data(
        #"{"data": {"users": [{"login": "ada", "avatar_url": "https://a.example/a"}]}}"#.utf8)
      var settings = Settings()
      let draft = Draft(title: "Notes", subtitle: nil)
      // docc:begin
      let users = try [GitHubUser](jsonData: data, at: ["data", "users"])  // only that value
      try settings.update(from: ["fontSize": 16])  // only the keys present change
      let compact = try draft.jsonData(options: [.omitNulls])  // leave out every null
      // docc:end
      #expect(users.map(\.login) == ["ada"])
      #expect(settings.fontSize == 16 && settings.theme == "light")
      #expect(compact == Data(#"{"title":"Notes"}"#.utf8))
      #expect(throws: JSON.Error.self) {
        try settings.update(from: ["fontSize": "big", "theme": "dark"])
      }
      #expect(settings.theme == "light")  // all or nothing
    }

    @Test("A renamed field: read the old key, write the new one")
    func renamed() throws {
      let login = try Login(jsonString: #"{"user_name": "ada", "token": "t0k3n"}"#)
      #expect(login.token == "t0k3n")
      #expect(try login.jsonString() == #"{"username":"ada"}"#)
    }

    @Test("JSON inside a string, and a property's own key style")
    func embedded() throws {
      let delivery = try Delivery(
        jsonString:
          #"{"event_type": "paid", "request-id": "r1", "payload": "{\"id\": 1, \"amount\": 5}"}"#)
      #expect(delivery.payload.amount == 5 && delivery.requestID == "r1")
      #expect(
        try delivery.jsonString()
          == #"{"event_type":"paid","request-id":"r1","payload":"{\"id\":1,\"amount\":5}"}"#)
      let error = #expect(throws: JSON.Error.self) {
        // docc:begin
        try Delivery(
          jsonString: #"{"event_type": "paid", "request-id": "r1", "payload": "{\"id\": 7,"}"#)
        // at payload: the string holds malformed JSON: malformed JSON at byte 9 (line 1,
        // column 10): expected a string key, found end of input
        // docc:end
      }
      #expect(error?.path == "payload")
      #expect(
        error?.description
          == "at payload: the string holds malformed JSON: malformed JSON at byte 9 (line 1, "
          + "column 10): expected a string key, found end of input")
    }
  }
}
