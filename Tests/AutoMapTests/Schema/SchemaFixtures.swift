import AutoMap
import Foundation

enum SchemaRole: String, JSONCodable, CaseIterable, JSONKeyRepresentable {
  case admin, member
}

/// Open: a value with no case decodes as `.unknown`.
enum SchemaLevel: Int, JSONCodable, CaseIterable, JSONFallbackCase {
  case unknown = 0, low = 1, high = 2
  static let fallbackCase = SchemaLevel.unknown
}

/// By case name, with an alias.
enum SchemaColor: JSONCodable, CaseIterable, JSONCaseAliases {
  case red, green
  static let aliases: [SchemaColor: [String]] = [.red: ["crimson"]]
}

struct SchemaAddress: JSONCodable, Equatable {
  let street: String
  let zip: String?
}

struct SchemaMeta: JSONCodable {
  let version: Int16
  let source: String?
}

/// A hand-written mapping: its schema is its own.
struct SchemaMoney: JSONCodable, JSONSchemaProviding {
  let cents: Int
  init(cents: Int) { self.cents = cents }
  init(decode json: JSON) throws {
    let text = try String(decode: json)
    guard let value = Int(text.replacingOccurrences(of: ".", with: "")), text.contains(".") else {
      throw JSON.Error.custom("not money: \(text)")
    }
    cents = value
  }
  var json: JSON { .string(String(format: "%d.%02d", cents / 100, abs(cents % 100))) }
  static var jsonSchema: JSON { ["type": "string", "pattern": #"^-?[0-9]+\.[0-9]{2}$"#] }
}

/// A hand-written mapping with no schema given: unconstrained.
struct SchemaOpaque: JSONCodable {
  init(decode json: JSON) throws {}
  var json: JSON { ["anything": true] }
}

/// Every shape the schema describes, as a memberwise struct (so required keys exist).
struct SchemaOrder: JSONCodable {
  static let keyStyle = JSON.KeyStyle.snakeCase
  let orderID: UInt32
  let small: Int8
  let total: Decimal
  let ratio: Float
  let placedAt: Date
  let paidAt: Date
  let payload: Data
  let uuid: UUID
  let site: URL?
  let role: SchemaRole
  let level: SchemaLevel
  let color: SchemaColor
  let tags: Set<String>
  let counts: [Int: Int]
  let byRole: [SchemaRole: Bool]
  let address: SchemaAddress
  let note: String
  let meta: SchemaMeta
  let inner: SchemaAddress?
  let children: [SchemaOrder]?
  let anything: JSON
  let retries: UInt8
  let price: SchemaMoney
  let opaque: SchemaOpaque?
  let hex: String
  let position: Int

  static func specificOptions() -> [String: SpecificOption] {
    [
      "paidAt": .transform(DateTransform.secondsSince1970),
      "address": .index(["shipping", "address"]),
      "note": .defaultValue("none"),
      "meta": .index([]),
      "inner": .embeddedJSON,
      "retries": .nonNil,
      "hex": [
        .transform(CustomTransform<String, String>.both(fromJSON: { $0 }, toJSON: { $0 })),
        .schema(["type": "string", "pattern": "^[0-9a-f]*$"]),
      ],
      "position": .index(["grid", 1]),
    ]
  }
}

/// A generic, recursive model.
struct SchemaTree<Value: JSONCodable>: JSONCodable {
  let value: Value
  let children: [SchemaTree<Value>]
}

/// A DefaultInitable model: nothing required, null accepted.
struct SchemaSettings: JSONCodable, DefaultInitable {
  var theme = "light"
  var size = 12
  var legacy: String? = nil
  var alias = ""
  static func specificOptions() -> [String: SpecificOption] {
    ["legacy": .encodeOnly, "alias": .alternativeIndex("nick")]
  }
}
