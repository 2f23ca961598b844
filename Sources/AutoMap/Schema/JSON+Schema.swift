extension JSON {
  /// The JSON Schema (draft 2020-12) of the documents `type` reads and writes, from what
  /// reflection knows of it: no code, no macros.
  ///
  /// ```swift
  /// struct Order: JSONCodable {
  ///   static let keyStyle = JSON.KeyStyle.snakeCase
  ///   let orderID: UInt32
  ///   let placedAt: Date
  ///   let lines: [Line]
  ///   let note: String?
  /// }
  /// let schema = try JSON.schema(for: Order.self)
  /// // {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Order",
  /// //  "type": "object", "properties": {"order_id": {"type": "integer", "minimum": 0,
  /// //  "maximum": 4294967295}, "placed_at": {"type": "string", "format": "date-time"}, …},
  /// //  "required": ["order_id", "placed_at", "lines"], "$defs": {"Line": {…}}}
  /// ```
  ///
  /// What it describes, as the mapping does it:
  /// - Keys as the mapping writes them: key styles (the model's, or `keyStyle` for this
  ///   call), `.index` keys, paths as nested objects (positions as `prefixItems`), flattened
  ///   properties (`.index([])`) merged with `allOf`.
  /// - `required`: what decoding requires: not optional, no `.defaultValue`, `.nonNil` or
  ///   `.alternativeIndex`, in a struct with no `init()` (a `DefaultInitable` struct and a
  ///   class keep their defaults for absent keys, so nothing is required). `null` is allowed
  ///   where decoding accepts it; `.defaultValue` gives `default`.
  /// - Integers with the bounds of their type, `Float` with its range, `Decimal` and
  ///   `Double` as numbers, `Date` as the date transform in use writes it (`format:
  ///   date-time`, or a number for the epoch transforms), `Data` with its
  ///   `contentEncoding`, `UUID` (`format: uuid`), `URL` (`format: uri-reference`).
  /// - Raw-value and `CaseIterable` enums as `enum`, with their aliases; with a fallback
  ///   case (``JSONFallbackCase``) any value of the raw type.
  /// - ``JSONPolymorphic`` classes as `oneOf`, one branch per discriminator value with its
  ///   `const`; dictionaries with non-`String` keys with `propertyNames` patterns;
  ///   `.embeddedJSON` properties as strings with a `contentSchema`.
  /// - Every model in `$defs`, referred to by `$ref`, so recursive and generic models work;
  ///   the root model is written inline.
  /// - Unconstrained (`{}`): a `.transform` (unless it is a ``DateTransform``), a type with a
  ///   hand-written `init(decode:)`, a `Codable` type, an enum with payloads, a registered
  ///   protocol type. Give these their schema with the `.schema(_:)` option, or adopt
  ///   ``JSONSchemaProviding``.
  ///
  /// A schema cannot say everything decoding checks: `didDecode()` rules, what a transform
  /// or `subclass(for:)` accepts, keys matched case-insensitively, and the values that
  /// `.defaultValue`, `.nonNil`, `.lossy` or `.lossless` recover from (the schema describes
  /// the values as written, which decoding accepts too).
  ///
  /// - Parameters:
  ///   - type: the type to describe: a model, a collection of models, any type AutoMap maps.
  ///   - keyStyle: the key style of this call, as for decoding with `keyStyle:`.
  /// - Throws: ``JSON/Error`` when the model cannot be mapped (as its first use would).
  public static func schema<T>(for type: T.Type, keyStyle: JSON.KeyStyle? = nil) throws -> JSON {
    try KeyStyleContext.with(keyStyle) {
      let builder = SchemaBuilder()
      return try builder.document(for: T.self)
    }
  }
}

/// A type that gives its own JSON Schema, for ``JSON/schema(for:keyStyle:)``: one with a
/// hand-written `init(decode:)` and `json`, or a `Codable` type, whose JSON form reflection
/// cannot see.
///
/// ```swift
/// extension Money: JSONSchemaProviding {
///   static var jsonSchema: JSON { ["type": "string", "pattern": #"^\d+\.\d{2} [A-Z]{3}$"#] }
/// }
/// ```
public protocol JSONSchemaProviding {
  /// The schema of the type's JSON form (without `$schema`).
  static var jsonSchema: JSON { get }
}
