import AutoMap
import Foundation
import Testing

// The code of Sources/AutoMap/AutoMap.docc/GettingStarted.md and of the landing page,
// AutoMap.md: each block between `docc:begin` and `docc:end` is shown there verbatim
// (DocumentationExampleTests checks that), and the tests below run it and check its results.

enum GettingStartedArticle {
  // docc:begin
  struct User: JSONCodable {
    let id: Int64
    let name: String
    let website: URL?
    let friends: [User]
  }
  // docc:end

  // docc:begin
  struct Point: JSONCodable { var x: Double; var y: Double }  // a struct needs no initializer

  struct Settings: JSONCodable, DefaultInitable {  // keeps declared defaults for absent keys
    var theme = "light"
    var fontSize = 12
  }

  enum Role: String, JSONCodable { case admin, guest }  // raw-value enums map by raw value

  struct Page<Item: JSONCodable>: JSONCodable {  // generic models
    let items: [Item]
    let next: Int?
  }
  // docc:end
}

extension GettingStartedArticle {
  @Suite("Documentation: Getting started")
  struct Examples {
    let data = Data(
      #"{"id": 1, "name": "Ada", "website": "https://ada.example", "friends": []}"#.utf8)

    @Test("A model decodes from bytes and encodes back")
    func roundTrip() throws {
      // docc:begin
      let user = try User(jsonData: data)  // bytes straight into the struct
      let text = try user.jsonString()  // and back
      // docc:end
      #expect(user.name == "Ada" && user.website?.host == "ada.example")
      #expect(text == #"{"id":1,"name":"Ada","website":"https://ada.example","friends":[]}"#)
    }

    @Test("Every entry point works on models and their collections")
    func entryPoints() throws {
      let text = #"[{"id": 2, "name": "Lin", "friends": []}]"#
      let json: JSON = ["user": ["id": 3, "name": "Bo", "friends": []], "users": "oops"]
      // docc:begin
      let user = try User(jsonData: data)  // Data -> User, the fast path
      let users = try [User](jsonString: text)  // String -> [User]
      let other = try User(decode: json["user"])  // JSON -> User
      let maybe = User(json["nobody"])  // User?: nil on any failure
      let none = [User](nonNil: json["users"])  // [User]: [] on failure
      let pretty = try user.jsonData(options: [.prettyPrinted])
      let sorted = try user.jsonString(options: [.sortedKeys])
      // docc:end
      #expect(users.map(\.name) == ["Lin"] && other.id == 3 && maybe == nil && none.isEmpty)
      #expect(String(decoding: pretty, as: UTF8.self).contains("\n  \"name\": \"Ada\",\n"))
      #expect(sorted.hasPrefix(#"{"friends":[],"id":1,"name":"Ada""#))
    }

    @Test("Structs, defaults, raw-value enums and generic models map with no code")
    func modelsWithNoCode() throws {
      let point = try Point(jsonString: #"{"x": 1, "y": 2.5}"#)
      let settings = try Settings(jsonString: #"{"fontSize": 14}"#)
      let page = try Page<Role>(jsonString: #"{"items": ["admin", "guest"]}"#)
      #expect(point.x == 1 && point.y == 2.5)
      #expect(settings.theme == "light" && settings.fontSize == 14)
      #expect(page.items == [.admin, .guest] && page.next == nil)
      #expect(throws: JSON.Error.self) { try Role(jsonString: #""owner""#) }
    }

    @Test("The JSON value: paths, typed reads, literals")
    func jsonValue() throws {
      let data = Data(
        #"{"data": {"users": [{"name": "Ada", "id": 1}, {"name": "Lin", "id": 2}]}}"#.utf8)
      // docc:begin
      var json = try JSON(jsonData: data)  // strict RFC 8259
      let name = String(json["data", "users", 1, "name"])  // String?: nil if absent
      let id = try Int(decode: json["data", "users", 1, "id"])  // throws, naming the path
      json["data", "users", 0, "admin"] = true  // creates what is missing

      let literal: JSON = ["name": "Ada", "tags": ["math", nil, 2.5], "born": 1815]
      for user in json["data", "users"] { print(user["name"]) }
      for (key, value) in literal.members { print(key, value) }
      // docc:end
      #expect(name == "Lin" && id == 2)
      #expect(Bool(json["data", "users", 0, "admin"]) == true)
      #expect(literal.description == #"{"name":"Ada","tags":["math",null,2.5],"born":1815}"#)
      let missing = #expect(throws: JSON.Error.self) { try Int(decode: json["data", "nobody"]) }
      #expect(missing?.path == "data.nobody")
    }
  }
}
