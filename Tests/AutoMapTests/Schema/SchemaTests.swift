import AutoMap
import Foundation
import Testing

@Suite("JSON Schema from models")
struct SchemaTests {
  @Test("a plain model: keys, types, bounds, required, null where optional")
  func plainModel() throws {
    struct Line: JSONCodable {
      static let keyStyle = JSON.KeyStyle.snakeCase
      let productID: UInt16
      let quantity: Int8
      let comment: String?
    }
    let schema = try JSON.schema(for: Line.self)
    let expected: JSON = [
      "$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
      "title": "Line",
      "properties": [
        "product_id": ["type": "integer", "minimum": 0, "maximum": 65535],
        "quantity": ["type": "integer", "minimum": -128, "maximum": 127],
        "comment": ["anyOf": [["type": "string"], ["type": "null"]]],
      ],
      "required": ["product_id", "quantity"],
    ]
    #expect(schema == expected, "\(schema)")
  }

  @Test("options: nested paths, flattening, defaults, nonNil, embedded JSON, .schema")
  func options() throws {
    let schema = try JSON.schema(for: SchemaOrder.self)
    let properties = schema["properties"]
    #expect(properties["shipping", "properties", "address"] == ["$ref": "#/$defs/SchemaAddress"])
    #expect(schema["required"].arrayValue.contains("shipping"))
    #expect(
      properties["note"]
        == ["anyOf": [["type": "string"], ["type": "null"]], "default": "none"]
        || properties["note", "default"] == "none")
    #expect(!schema["required"].arrayValue.contains("note"))
    #expect(!schema["required"].arrayValue.contains("retries"))
    #expect(schema["allOf"] == [["$ref": "#/$defs/SchemaMeta"]], "flattened")
    #expect(properties["inner", "anyOf", 0, "contentMediaType"] == "application/json")
    #expect(properties["inner", "anyOf", 0, "contentSchema"] == ["$ref": "#/$defs/SchemaAddress"])
    #expect(properties["hex"] == ["type": "string", "pattern": "^[0-9a-f]*$"])
    #expect(properties["paid_at"] == ["type": "number"])
    #expect(properties["anything"] == ["not": ["type": "null"]], "JSON, but not null")
    #expect(properties["placed_at"] == ["type": "string", "format": "date-time"])
    #expect(properties["payload"] == ["type": "string", "contentEncoding": "base64"])
    #expect(properties["uuid"] == ["type": "string", "format": "uuid"])
    #expect(
      properties["grid", "prefixItems", 1] == [
        "type": "integer", "minimum": .number(JSON.Number(Int64(Int.min))),
        "maximum": .number(JSON.Number(Int64(Int.max))),
      ])
    #expect(properties["grid", "minItems"] == 2)
    #expect(properties["price"] == SchemaMoney.jsonSchema)
    #expect(properties["opaque"] == [:], "a hand-written mapping with no schema is unconstrained")
    #expect(schema["$defs", "SchemaOpaque"].isMissing)
    #expect(properties["children", "anyOf", 0, "items"] == ["$ref": "#"], "recursion to the root")
  }

  @Test("enums: raw values, case names with aliases, open with a fallback, dictionary keys")
  func enums() throws {
    let properties = try JSON.schema(for: SchemaOrder.self)["properties"]
    #expect(properties["role"] == ["enum": ["admin", "member"]])
    #expect(properties["color"] == ["enum": ["red", "green", "crimson"]])
    #expect(properties["level"] == Self.integer(Int.self))
    #expect(properties["by_role", "propertyNames"] == ["enum": ["admin", "member"]])
    #expect(properties["counts", "propertyNames"] == ["pattern": "^-?(0|[1-9][0-9]*)$"])
    #expect(
      properties["tags"] == ["type": "array", "items": ["type": "string"], "uniqueItems": true])
  }

  @Test("generic and recursive models are definitions referred to by $ref")
  func genericRecursive() throws {
    let schema = try JSON.schema(for: [SchemaTree<String>].self)
    #expect(schema["type"] == "array")
    #expect(schema["items"] == ["$ref": "#/$defs/SchemaTree_String"])
    #expect(
      schema["$defs", "SchemaTree_String", "properties", "children", "items"]
        == ["$ref": "#/$defs/SchemaTree_String"])
  }

  @Test("DefaultInitable models require nothing; encode-only and alternatives are optional")
  func defaultInitable() throws {
    let schema = try JSON.schema(for: SchemaSettings.self)
    #expect(schema["required"].isMissing)
    #expect(schema["properties", "size", "anyOf", 1] == ["type": "null"])
    #expect(schema["properties", "legacy"] == ["anyOf": [["type": "string"], ["type": "null"]]])
  }

  @Test("polymorphic classes: oneOf, one branch per discriminator value, with its const")
  func polymorphic() throws {
    let schema = try JSON.schema(for: PetShelter.self)
    let choice = schema["$defs", "Pet", "oneOf"].arrayValue
    #expect(choice.count == 4, "cat, dog, hound, puppy")
    #expect(
      choice[0]["allOf", 1] == ["properties": ["type": ["const": "cat"]], "required": ["type"]])
    #expect(choice[0]["allOf", 0] == ["$ref": "#/$defs/PetCat"])
    // A property typed as a subclass offers only the values that choose it or a subclass.
    let favourite = schema["properties", "favourite", "anyOf", 0, "$ref"]
    let reference = try #require(String(favourite))
    let branches = schema[pointer: String(reference.dropFirst())]["oneOf"]
    #expect(branches.arrayValue.count == 4, "dog, hound, puppy, and no discriminator: \(branches)")
    #expect(branches[3, "allOf", 1] == ["properties": ["type": ["type": "null"]]])
  }

  @Test("a call's key style and a configuration's date transform change the schema")
  func perCall() throws {
    struct Event: JSONCodable { let startsAt: Date }
    let snake = try JSON.schema(for: Event.self, keyStyle: .snakeCase)
    #expect(snake["required"] == ["starts_at"])
    let epoch = try JSON.withConfiguration(
      JSON.Configuration(dateTransform: .millisecondsSince1970)
    ) {
      try JSON.schema(for: Event.self)
    }
    #expect(epoch["properties", "startsAt"] == ["type": "number"])
  }

  static func integer<I: FixedWidthInteger>(_: I.Type) -> JSON {
    [
      "type": "integer", "minimum": .number(JSON.Number(Int64(I.min))),
      "maximum": .number(JSON.Number(Int64(I.max))),
    ]
  }
}
