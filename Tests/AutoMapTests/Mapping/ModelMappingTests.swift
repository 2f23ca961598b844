import AutoMap
import Foundation
import Testing

@Suite("Models with no code")
struct ModelMappingTests {
  @Test("a struct with let properties and no initializer, nested and recursive")
  func memberwiseStruct() throws {
    let user = try decodeAllWays(
      User.self,
      #"{"id": 7, "name": "Ada", "admin": true, "website": "https://ada.dev", "scores": [1, 2.5],"#
        + #" "friends": [{"id": 8, "name": "Alan", "admin": false, "scores": [], "friends": []}]}"#)
    #expect(user.id == 7)
    #expect(user.website == URL(string: "https://ada.dev"))
    #expect(user.friends.first?.name == "Alan")
    #expect(user.friends.first?.website == nil, "an absent optional is nil")
    #expect(try User(jsonData: user.jsonData()) == user, "round-trips")
  }

  @Test("a DefaultInitable struct keeps declared defaults for absent keys")
  func defaultInitableStruct() throws {
    let settings = try decodeAllWays(Settings.self, #"{"fontSize": 14}"#)
    #expect(settings == Settings(theme: "light", fontSize: 14, nickname: "anon"))
    let explicitNull = try decodeAllWays(Settings.self, #"{"nickname": null}"#)
    #expect(explicitNull.nickname == nil, "an explicit null makes an optional nil")
  }

  @Test("classes with inheritance and merged class options")
  func classes() throws {
    let text = #"{"name": "Rex", "leg_count": 3, "breed": "collie", "good_boy": false}"#
    for _ in 0..<3 {  // first uses: FirstUseTests
      let dog = try Dog(jsonString: text)
      #expect(dog.name == "Rex")
      #expect(dog.legs == 3)
      #expect(dog.breed == "collie")
      #expect(dog.goodBoy == false)
    }
    let dog = try Dog(jsonString: text)
    #expect(
      try dog.jsonString(options: .sortedKeys)
        == #"{"breed":"collie","good_boy":false,"leg_count":3,"name":"Rex"}"#)
    let animal: Animal = dog
    #expect(try [animal].jsonString().contains("collie"), "a subclass encodes as its dynamic type")
  }

  @Test("raw-value enums, sets, dictionaries, nested arrays and JSON properties")
  func leafAndCollections() throws {
    let account = try decodeAllWays(
      Account.self,
      #"{"role": "admin", "level": 2, "tags": ["a", "b", "a"], "limits": {"x": 1}, "matrix": [[1], [2, 3]], "meta": {"k": [null]}}"#
    )
    #expect(account.role == .admin)
    #expect(account.level == .high)
    #expect(account.tags == ["a", "b"])
    #expect(account.limits == ["x": 1])
    #expect(account.matrix == [[1], [2, 3]])
    #expect(account.meta == ["k": [nil]])
    let unknown = decodingError(
      Account.self, #"{"role": "root", "tags": [], "limits": {}, "matrix": [], "meta": 1}"#)
    #expect(unknown?.path == "role")
    #expect(unknown?.description == #"at role: "root" is not a raw value of Role"#)
  }

  @Test("nested scalar arrays name the failing element's path")
  func nestedArrays() throws {
    #expect(try [[Double]](jsonString: "[[1, 2.5], [], [3]]") == [[1, 2.5], [], [3]])
    #expect(try [[[Double]]](jsonString: "[[[1, 2]], [[3, 4], [5, 6]]]")[1][1] == [5, 6])
    let error = decodingError([[Int]].self, #"[[1], [2, "x"]]"#)
    #expect(error?.path == "[1][1]")
    let deeper = decodingError([[[Double]]].self, #"[[[1]], [[2], [true]]]"#)
    #expect(deeper?.path == "[1][1][0]")
  }

  @Test("generic models")
  func generics() throws {
    let page = try decodeAllWays(Page<Role>.self, #"{"items": ["guest", "admin"], "next": 2}"#)
    #expect(page.items == [.guest, .admin])
    #expect(try page.jsonString() == #"{"items":["guest","admin"],"next":2}"#)
  }

  @Test("hand-written init(decode:) and json are honoured when nested, on every path")
  func handWritten() throws {
    let reading = try decodeAllWays(
      Reading.self, #"{"temperature": {"c": 20}, "history": [{"c": 1}]}"#)
    #expect(reading.temperature.degrees == 20.5)
    #expect(reading.history == [Celsius(degrees: 1.5)])
    #expect(
      try reading.jsonString()
        == #"{"temperature":{"c":20.0,"unit":"C"},"history":[{"c":1.0,"unit":"C"}]}"#)
  }

  @Test("top-level arrays, dictionaries and optionals")
  func topLevelCollections() throws {
    #expect(try [Int](jsonString: "[1, 2]") == [1, 2])
    #expect(try [String: [Bool]](jsonString: #"{"a": [true]}"#) == ["a": [true]])
    #expect(try Int?(jsonString: "null") == nil)
    #expect([Int](nonNil: JSON("x")) == [])
    #expect(try [1, 2].jsonString() == "[1,2]")
  }
}
