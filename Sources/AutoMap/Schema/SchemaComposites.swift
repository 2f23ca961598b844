import Foundation

/// An optional type, seen through its wrapped type.
protocol SchemaOptional {
  static var unwrappedType: Any.Type { get }
}

extension Optional: SchemaOptional {
  static var unwrappedType: Any.Type { Wrapped.self }
}

extension Optional: SchemaComposite {
  static func schema(in builder: SchemaBuilder) throws -> JSON {
    SchemaBuilder.nullable(try builder.schema(for: Wrapped.self))
  }
}

extension Array: SchemaComposite {
  static func schema(in builder: SchemaBuilder) throws -> JSON {
    ["type": "array", "items": try builder.schema(for: Element.self)]
  }
}

extension Set: SchemaComposite {
  static func schema(in builder: SchemaBuilder) throws -> JSON {
    ["type": "array", "items": try builder.schema(for: Element.self), "uniqueItems": true]
  }
}

extension Dictionary: SchemaComposite {
  static func schema(in builder: SchemaBuilder) throws -> JSON {
    var schema: JSON.Object = [
      "type": "object", "additionalProperties": try builder.schema(for: Value.self),
    ]
    if let names = try builder.propertyNames(for: Key.self) { schema["propertyNames"] = names }
    return .object(schema)
  }
}

extension SchemaBuilder {
  /// What the member names of a dictionary keyed by `key` must be, `nil` for any string.
  func propertyNames(for key: Any.Type) throws -> JSON? {
    if key == String.self { return nil }
    if key == UUID.self { return ["format": "uuid", "pattern": .string(Self.uuidPattern)] }
    if let integer = key as? any FixedWidthInteger.Type {
      return ["pattern": integer.isSigned ? "^-?(0|[1-9][0-9]*)$" : "^(0|[1-9][0-9]*)$"]
    }
    // Enums keyed by their raw values or case names: the values' text.
    if let values = try enumValues(key), !hasFallback(key) {
      return ["enum": .array(values.map { .string(Self.keyText($0)) })]
    }
    return nil  // JSONKeyRepresentable types of the user's: their text is their own
  }

  /// A raw value as a member name: strings as they are, numbers as their text.
  private static func keyText(_ value: JSON) -> String {
    if case .string(let text) = value { return text }
    return value.description
  }

  static let uuidPattern =
    "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$"
}
