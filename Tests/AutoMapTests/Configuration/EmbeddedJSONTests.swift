import AutoMap
import Foundation
import Testing

struct WebhookPayload: JSONCodable, Equatable {
  var id: Int
  var tags: [String]
}

struct Delivery: JSONCodable, Equatable {
  var event: String
  var payload: WebhookPayload
  var previous: WebhookPayload?
  var raw: JSON?

  static func specificOptions() -> [String: SpecificOption] {
    ["payload": .embeddedJSON, "previous": [.embeddedJSON, .ignoreIfNull], "raw": .embeddedJSON]
  }
}

/// A string holding JSON whose own JSON has a string holding JSON.
struct NestedDelivery: JSONCodable, Equatable {
  var inner: [NestedDelivery]
  var depth: Int

  static func specificOptions() -> [String: SpecificOption] { ["inner": .embeddedJSON] }
}

struct Lenient: JSONCodable, Equatable {
  var payload: WebhookPayload?
  static func specificOptions() -> [String: SpecificOption] {
    ["payload": [.embeddedJSON, .defaultValue(WebhookPayload?.none as Any)]]
  }
}

@Suite("JSON held in a string")
struct EmbeddedJSONTests {
  @Test("decodes from the string and encodes back to one, on every path")
  func roundTrip() throws {
    let text =
      #"{"event": "paid", "payload": "{\"id\": 1, \"tags\": [\"a\"]}", "previous": null, "raw": "[1, {\"b\": null}]"}"#
    let delivery = Delivery(
      event: "paid", payload: WebhookPayload(id: 1, tags: ["a"]), previous: nil,
      raw: [1, ["b": nil]])
    #expect(outcomeOnEveryPath(Delivery.self, text) == .value(delivery))
    #expect(
      try textOnEveryPath(delivery)
        == #"{"event":"paid","payload":"{\"id\":1,\"tags\":[\"a\"]}","raw":"[1,{\"b\":null}]"}"#)
    let again = try textOnEveryPath(delivery)
    #expect(try Delivery(jsonString: again) == delivery)
  }

  @Test("malformed JSON inside the string names the property and the position inside it")
  func malformed() {
    let outcome = outcomeOnEveryPath(
      Delivery.self, #"{"event": "x", "payload": "{\"id\": 1,, \"tags\": []}", "raw": null}"#)
    #expect(outcome.kind == .typeMismatch)
    #expect(
      outcome.description
        == "at payload: the string holds malformed JSON: malformed JSON at byte 9 (line 1, column 10): expected a string key, found ','"
    )
  }

  @Test("errors inside the held JSON have the full path; other JSON types are refused")
  func innerErrors() {
    #expect(
      outcomeOnEveryPath(
        Delivery.self, #"{"event": "x", "payload": "{\"id\": \"one\", \"tags\": []}"}"#
      )
      .description == #"at payload.id: expected Int, found string "one""#)
    #expect(
      outcomeOnEveryPath(Delivery.self, #"{"event": "x", "payload": {"id": 1, "tags": []}}"#)
        .description == #"at payload: expected a string holding JSON, found object of 2 members"#)
  }

  @Test("a fallback stands in for a string that does not hold usable JSON")
  func fallback() {
    #expect(
      outcomeOnEveryPath(Lenient.self, #"{"payload": "{oops"}"#) == .value(Lenient(payload: nil)))
    #expect(
      outcomeOnEveryPath(Lenient.self, #"{"payload": "{\"id\": 2, \"tags\": []}"}"#)
        == .value(Lenient(payload: WebhookPayload(id: 2, tags: []))))
  }

  @Test("strings holding JSON nest, at most 8 deep")
  func depth() throws {
    func nested(_ depth: Int) -> NestedDelivery {
      NestedDelivery(inner: depth == 0 ? [] : [nested(depth - 1)], depth: depth)
    }
    // nested(n) holds n + 1 strings: the innermost holds "[]".
    let eight = try textOnEveryPath(nested(7))
    #expect(outcomeOnEveryPath(NestedDelivery.self, eight) == .value(nested(7)))
    let nine = try textOnEveryPath(nested(8))
    let outcome = outcomeOnEveryPath(NestedDelivery.self, nine)
    #expect(outcome.kind == .tooDeep(limit: 8))
    #expect(
      outcome.description?.hasPrefix(
        "at " + Array(repeating: "inner[0]", count: 8).joined(separator: ".") + ".inner:") == true)
  }

  @Test("the call's configuration applies inside the string")
  func configured() throws {
    struct Timed: JSONCodable, Equatable {
      var stamp: [Date]
      static func specificOptions() -> [String: SpecificOption] { ["stamp": .embeddedJSON] }
    }
    let call = JSON.Configuration(dateTransform: .secondsSince1970)
    #expect(
      configuredOutcome(Timed.self, #"{"stamp": "[0]"}"#, call) == .value(Timed(stamp: [epoch])))
    #expect(try configuredText(Timed(stamp: [epoch]), call) == #"{"stamp":"[0.0]"}"#)
  }

  @Test(".embeddedJSON with .transform is refused at first use")
  func withTransform() {
    struct TransformAndEmbedded: JSONCodable {
      var value: Int
      static func specificOptions() -> [String: SpecificOption] {
        ["value": [.embeddedJSON, .transform(CustomTransform<Int, Int>.fromJSON { $0 })]]
      }
    }
    let error = #expect(throws: JSON.Error.self) {
      try TransformAndEmbedded(jsonString: #"{"value": "1"}"#)
    }
    #expect(error?.kind == .invalidModel)
    #expect(error?.description.contains(".embeddedJSON and .transform") == true)
  }
}

struct MixedKeys: JSONCodable, Equatable {
  static let keyStyle = JSON.KeyStyle.snakeCase
  var userName: String
  var requestID: String
  var legacyField: Int
  var renamed: Int

  static func specificOptions() -> [String: SpecificOption] {
    [
      "requestID": .keyStyle(.kebabCase), "legacyField": .keyStyle(.exact),
      "renamed": [.keyStyle(.screamingSnakeCase), .index("re")],  // an explicit index wins
    ]
  }
}

@Suite("A property's own key style")
struct PropertyKeyStyleTests {
  @Test("overrides the model's and the call's; an explicit index wins")
  func overrides() throws {
    let value = MixedKeys(userName: "ada", requestID: "r1", legacyField: 3, renamed: 4)
    let text = #"{"user_name": "ada", "request-id": "r1", "legacyField": 3, "re": 4}"#
    #expect(outcomeOnEveryPath(MixedKeys.self, text) == .value(value))
    #expect(
      try textOnEveryPath(value)
        == #"{"legacyField":3,"re":4,"request-id":"r1","user_name":"ada"}"#)
    let call = JSON.Configuration(keyStyle: .upperCamelCase)
    let upper = #"{"UserName": "ada", "request-id": "r1", "legacyField": 3, "re": 4}"#
    #expect(configuredOutcome(MixedKeys.self, upper, call) == .value(value))
    #expect(
      try configuredText(value, call)
        == #"{"UserName":"ada","legacyField":3,"re":4,"request-id":"r1"}"#)
  }

  @Test(".keyStyle(.caseInsensitive) is refused: matching is per model")
  func caseInsensitiveRefused() {
    struct Loose: JSONCodable {
      var name: String
      static func specificOptions() -> [String: SpecificOption] {
        ["name": .keyStyle(.caseInsensitive)]
      }
    }
    let error = #expect(throws: JSON.Error.self) { try Loose(jsonString: #"{"name": "x"}"#) }
    #expect(error?.kind == .invalidModel)
  }
}
