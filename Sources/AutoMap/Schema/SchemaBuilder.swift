/// Builds one JSON Schema document: the schema of each type met, models in `$defs`.
///
/// The order types are looked at follows the codecs' (``CodecCache``): a type's own schema
/// (``JSONSchemaProviding``), AutoMap's leaves and containers, enums by raw value or case
/// name, enums with payloads by their layout, ``JSONPolymorphic`` classes, models by
/// reflection, registered protocol types; anything else is unconstrained.
final class SchemaBuilder {
  /// Definitions in the order they were begun, by name.
  private var definitions: [(name: String, schema: JSON)] = []
  /// The definition name of each type (and kind of definition) begun.
  private var names: [String: String] = [:]
  private var taken: Set<String> = []

  static let draft = "https://json-schema.org/draft/2020-12/schema"

  /// The whole document for `type`: its schema with `$schema`, and `$defs` when any. A root
  /// that is a definition is written inline, and references to it become `"#"`.
  func document<T>(for type: T.Type) throws -> JSON {
    var root = try schema(for: T.self)
    if case .string(let reference)? = root.objectMembers["$ref"],
      let position = definitions.firstIndex(where: { "#/$defs/" + $0.name == reference })
    {
      root = definitions[position].schema
      definitions.remove(at: position)
      root = Self.replacingReferences(to: reference, in: root)
      for index in definitions.indices {
        definitions[index].schema = Self.replacingReferences(
          to: reference, in: definitions[index].schema)
      }
    }
    var document: JSON.Object = ["$schema": .string(Self.draft)]
    if case .object(let members) = root {
      for (key, value) in members { document[key] = value }
    } else {
      document["allOf"] = [root]
    }
    if !definitions.isEmpty {
      document["$defs"] = .object(JSON.Object(definitions.map { ($0.name, $0.schema) }))
    }
    return .object(document)
  }

  /// `schema` with every `{"$ref": reference}` made `{"$ref": "#"}`.
  private static func replacingReferences(to reference: String, in schema: JSON) -> JSON {
    switch schema {
    case .object(let members):
      if members.count == 1, members["$ref"] == .string(reference) { return ["$ref": "#"] }
      return .object(
        JSON.Object(members.map { ($0.key, replacingReferences(to: reference, in: $0.value)) }))
    case .array(let elements):
      return .array(elements.map { replacingReferences(to: reference, in: $0) })
    default:
      return schema
    }
  }

  /// The schema of `type`'s JSON form.
  func schema(for type: Any.Type) throws -> JSON {
    if let provided = type as? any JSONSchemaProviding.Type { return provided.jsonSchema }
    if let leaf = leafSchema(type) { return leaf }
    if let composite = type as? any SchemaComposite.Type { return try composite.schema(in: self) }
    if let enumeration = try enumSchema(type) { return enumeration }
    if let model = type as? any JSONDecodable.Type { return try modelSchema(model) }
    if let choices = SchemaChoices.choices(for: type) { return try protocolSchema(type, choices) }
    return [:]  // a Codable type: what it writes is not known here
  }

  /// A reference to the definition `key` names, building it with `build` the first time
  /// (a type met again while its definition is being built refers to it: recursion).
  func definition(_ key: String, title: String, _ build: () throws -> JSON) rethrows -> JSON {
    let name: String
    if let known = names[key] {
      name = known
    } else {
      name = uniqueName(title)
      names[key] = name
      definitions.append((name, [:]))
      let built = try build()
      if let position = definitions.firstIndex(where: { $0.name == name }) {
        definitions[position].schema = built
      }
    }
    // Names hold only letters, digits, `_` and `.`: a pointer and a URI fragment as they are.
    return ["$ref": .string("#/$defs/" + name)]
  }

  /// `schema`, also accepting `null`.
  static func nullable(_ schema: JSON) -> JSON {
    if case .object(let members) = schema {
      if members.isEmpty { return schema }  // anything, null included
      if case .array(let options)? = members["anyOf"], members.count == 1 {
        if options.contains(["type": "null"]) { return schema }
        return ["anyOf": .array(options + [["type": "null"]])]
      }
    }
    return ["anyOf": [schema, ["type": "null"]]]
  }

  private func uniqueName(_ title: String) -> String {
    var base = ""
    for character in title.unicodeScalars {
      switch character {
      case "a"..."z", "A"..."Z", "0"..."9", "_", ".": base.unicodeScalars.append(character)
      case "<", ",", "[", ":": base += "_"
      default: break
      }
    }
    if base.isEmpty { base = "Type" }
    var name = base
    var suffix = 2
    while taken.contains(name) {
      name = "\(base)\(suffix)"
      suffix += 1
    }
    taken.insert(name)
    return name
  }

  private static func definitionName(_ reference: String) -> String? {
    let prefix = "#/$defs/"
    guard reference.hasPrefix(prefix) else { return nil }
    return String(reference.dropFirst(prefix.count))
  }
}

/// Types whose schema is made of their parts' schemas: optionals, arrays, sets, dictionaries.
protocol SchemaComposite {
  static func schema(in builder: SchemaBuilder) throws -> JSON
}
