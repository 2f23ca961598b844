extension SchemaBuilder {
  /// The schema of an enum (or other `RawRepresentable` type) that maps by raw value, or of
  /// a `CaseIterable` enum that maps by case name; `nil` for other types.
  func enumSchema(_ type: Any.Type) throws -> JSON? {
    guard type is any JSONDecodable.Type else { return nil }
    let open = hasFallback(type)
    if let raw = type as? any RawRepresentable.Type {
      if !open, let values = try enumValues(type) { return ["enum": .array(values)] }
      return try schema(for: raw.rawValueType)
    }
    guard let values = try enumValues(type) else { return nil }
    return open ? ["type": "string"] : ["enum": .array(values)]
  }

  /// The JSON values a `CaseIterable` type maps from, aliases included: raw values, or case
  /// names for an enum without them. `nil` for a type that is not `CaseIterable`.
  func enumValues(_ type: Any.Type) throws -> [JSON]? {
    guard let iterable = type as? any CaseIterable.Type else { return nil }
    var values: [JSON] = []
    for value in iterable.allValues + ((type as? any JSONCaseAliases.Type)?.aliasValues ?? []) {
      let json: JSON
      if let raw = value as? any RawRepresentable, type is any RawRepresentable.Type {
        guard let encodable = raw.rawValue as? any JSONEncodable else { return nil }
        json = try encodable.json
      } else if let encodable = value as? any JSONEncodable, !(value is any CaseIterable) {
        json = try encodable.json  // an alias: a raw value or a name
      } else {
        json = .string(String(describing: value))
      }
      if !values.contains(json) { values.append(json) }
    }
    return values
  }

  /// Whether a value no case has maps to a fallback case: any value of the type's JSON kind
  /// decodes.
  func hasFallback(_ type: Any.Type) -> Bool { type is any JSONFallbackCase.Type }
}

extension RawRepresentable {
  fileprivate static var rawValueType: Any.Type { RawValue.self }
}

extension CaseIterable {
  fileprivate static var allValues: [Any] { allCases.map { $0 as Any } }
}

extension JSONCaseAliases {
  fileprivate static var aliasValues: [Any] {
    aliases.values.flatMap { $0 }.map { $0 as Any }
  }
}
