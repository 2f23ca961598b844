@_spi(Testing) import AutoMap
import Foundation
import Testing

/// `encode(to:)` that asks one value for two kinds of container (`JSONEncoder` traps).
private struct TwoContainers: Codable {
  init() {}
  init(from decoder: any Decoder) throws {}
  func encode(to encoder: any Encoder) throws {
    var single = encoder.singleValueContainer()
    try single.encode(1)
    var keyed = encoder.container(keyedBy: AnyKey.self)
    try keyed.encode(2, forKey: AnyKey("x"))
  }
}

/// Reads a pair from an unkeyed container, past its end when the array is short.
private struct Pair: Codable, Equatable {
  var first: Int
  var second: Int
  init(_ first: Int, _ second: Int) {
    self.first = first
    self.second = second
  }
  init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    first = try container.decode(Int.self)
    second = try container.decode(Int.self)
  }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    try container.encode(first)
    try container.encode(second)
  }
}

/// Skips elements that fail, the way lossy-array wrappers do: retry as something else.
private struct Lossy: Codable, Equatable {
  var values: [Int]
  init(_ values: [Int]) { self.values = values }
  init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    var values: [Int] = []
    while !container.isAtEnd {
      if let value = try? container.decode(Int.self) {
        values.append(value)
      } else {
        _ = try container.decode(JSON.self)
      }
    }
    self.values = values
  }
  func encode(to encoder: any Encoder) throws { try values.encode(to: encoder) }
}

private struct Refusal: Error, CustomStringConvertible {
  var description: String { "refused by the type" }
}

/// Throws its own error type.
private struct Picky: Codable {
  init() {}
  init(from decoder: any Decoder) throws { throw Refusal() }
  func encode(to encoder: any Encoder) throws { throw Refusal() }
}

/// Uses superDecoder/superEncoder and nested containers, as class hierarchies do.
private struct Layered: Codable, Equatable {
  var base: Int
  var own: [String]
  enum CodingKeys: String, CodingKey { case own, nested }
  enum NestedKeys: String, CodingKey { case deep }
  init(base: Int, own: [String]) {
    self.base = base
    self.own = own
  }
  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    base = try container.superDecoder().singleValueContainer().decode(Int.self)
    let nested = try container.nestedContainer(keyedBy: NestedKeys.self, forKey: .nested)
    var list = try nested.nestedUnkeyedContainer(forKey: .deep)
    var own: [String] = []
    while !list.isAtEnd { own.append(try list.decode(String.self)) }
    self.own = own
  }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    var superContainer = container.superEncoder().singleValueContainer()
    try superContainer.encode(base)
    var nested = container.nestedContainer(keyedBy: NestedKeys.self, forKey: .nested)
    var list = nested.nestedUnkeyedContainer(forKey: .deep)
    for item in own { try list.encode(item) }
  }
}

@Suite("Codable properties against hostile and careless input", .serialized)
struct CodableHostileTests {
  @Test("two kinds of container for one value is an error, not a trap")
  func containerConflict() throws {
    struct Box: JSONEncodable { var value = TwoContainers() }
    let error = #expect(throws: JSON.Error.self) { try Box().jsonData() }
    #expect(error?.path == "value")
    #expect(error?.kind == .unencodable)
    #expect(throws: JSON.Error.self) { try Box().json }
  }

  @Test("reading past the end of an array names the position")
  func pastTheEnd() throws {
    struct Box: JSONCodable, Equatable { var pairs: [String: Pair] }
    #expect(
      agreedDecoding(Box.self, #"{"pairs": {"a": [1, 2]}}"#)
        == .success(Box(pairs: ["a": Pair(1, 2)])))
    guard
      case .failure(let error) = agreedDecoding(Box.self, #"{"pairs": {"a": [1, 2], "b": [3]}}"#)
    else {
      Issue.record("decoded a short pair")
      return
    }
    #expect(error.path == "pairs.b[1]")
    #expect(error.kind == .missingValue)
    #expect(try Box(pairs: ["a": Pair(1, 2)]).jsonString() == #"{"pairs":{"a":[1,2]}}"#)
  }

  @Test("a failed decode can be retried: the position moves only on success")
  func lossyRetry() throws {
    struct Box: JSONCodable, Equatable { var lossy: Lossy }
    let value = agreedDecoding(Box.self, #"{"lossy": [1, "x", 2, null, {"a": 1}, 3.5, 4]}"#)
    #expect(value == .success(Box(lossy: Lossy([1, 2, 4]))))
  }

  @Test("an error type of the Codable type's own reaches the caller at the property's path")
  func ownErrors() throws {
    struct Box: JSONCodable { var picky: Picky? }
    guard case .failure(let error) = everyDecoding(Box.self, #"{"picky": {}}"#).first else {
      Issue.record("decoded")
      return
    }
    #expect(error.path == "picky")
    #expect(error.kind == .custom)
    #expect(error.description == "at picky: refused by the type")
    #expect(try Box(jsonString: #"{"picky": null}"#).picky == nil)
    #expect(try Box(picky: nil).jsonString() == #"{"picky":null}"#)  // nil never asks Picky
    for error in [
      #expect(throws: JSON.Error.self) { try Box(picky: Picky()).jsonData() },
      #expect(throws: JSON.Error.self) { try Box(picky: Picky()).json },
    ] {
      #expect(error?.description == "at picky: refused by the type")
    }
  }

  @Test("superDecoder, superEncoder and nested containers round-trip")
  func layered() throws {
    struct Box: JSONCodable, Equatable { var layered: Layered }
    let value = Box(layered: Layered(base: 3, own: ["a", "b"]))
    let text = try value.jsonString()
    #expect(text == #"{"layered":{"super":3,"nested":{"deep":["a","b"]}}}"#)
    #expect(agreedDecoding(Box.self, text) == .success(value))
    guard
      case .failure(let error) = agreedDecoding(
        Box.self, #"{"layered":{"super":3,"nested":{"deep":["a",2]}}}"#)
    else {
      Issue.record("decoded")
      return
    }
    #expect(error.path == "layered.nested.deep[1]")
    #expect(error.message == "expected String, found number 2")
  }

  @Test("every entry point agrees on Codable properties: values and errors, every key style")
  func differential() throws {
    struct Box: JSONCodable, Equatable {
      var price: Price
      var prices: [Price]?
      var persona: Persona?
      var labelled: [String: Labelled]?
    }
    let inputs = [
      #"{"price": {"amount": 1}}"#,
      #"{"price": {"amount": 1, "currency": "USD"}, "prices": [{"amount": 2}], "persona": null}"#,
      #"{"price": {"amount": 1}, "persona": {"avatarUrl": "a", "displayName": "b", "userID": 3}}"#,
      #"{"price": {"amount": 1}, "persona": {"avatar_url": "a", "display_name": "b", "user_id": 3}}"#,
      #"{"Price": {"Amount": 1}, "Persona": {"AvatarUrl": "a", "DisplayName": "b"}}"#,
      #"{"price": {"amount": 1}, "labelled": {"k": {"given name": "x", "quote\"and\\slash\n": 1}}}"#,
      #"{"price": {"amount": 1}, "prices": [{"amount": 1}, {"amount": 2, "currency": 3}]}"#,
      #"{"price": {"amount": 1}, "prices": [{"amount": 1}, {"amount": 2, "currency": "ABCD"}]}"#,
      #"{"price": {"amount": 18446744073709551615}}"#,
      #"{"price": {"amount": -9223372036854775809}}"#,
      #"{"price": {"amount": 1e2}}"#,
      #"{"price": {"amount": 1}, "persona": {"avatarUrl": "a"}}"#,
      #"{"price": {"amount": 1}, "persona": []}"#,
      #"{"price": null}"#,
      #"{}"#,
      #"{"price": {"amount": 1}, "labelled": {"k": null}}"#,
      #"{"price": {"amount": 1}, "price": {"amount": 2}}"#,
    ]
    var outcomes: Set<String> = []
    for style in JSON.KeyStyle.allCases {
      for input in inputs {
        guard let result = agreedDecoding(Box.self, input, keyStyle: style) else { continue }
        switch result {
        case .success(let value):
          outcomes.insert("ok")
          // Encoding agrees too: bytes and JSON, and the text decodes back.
          let json = try value.json(keyStyle: style)
          let text = try value.jsonString(keyStyle: style)
          #expect(try JSON(jsonString: text) == json)
          var expected = value
          if [.snakeCase, .kebabCase, .screamingSnakeCase].contains(style) {
            // As with JSONDecoder: userID is written user_id, which reads back as userId
            // (kebab and screaming snake case are Foundation's snake case respelled).
            expected.persona?.userID = nil
          }
          #expect(try Box(jsonString: text, keyStyle: style) == expected, "\(style) \(input)")
        case .failure(let error):
          outcomes.insert(error.path)
          #expect(!error.message.isEmpty)
        }
      }
    }
    // The table reaches successes and failures at several depths.
    #expect(outcomes.isSuperset(of: ["ok", "price", "price.amount", "prices[1].currency"]))
  }
}
