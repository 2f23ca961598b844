extension SchemaBuilder {
  /// The schema of an enum with payloads that maps through its synthesized `Codable`, by its
  /// ``JSON/CaseLayout``; `nil` for other types.
  ///
  /// Case names are known only where the enum lists them (`.untagged`, or
  /// ``JSONMappable/schemaCases`` with a tag): Swift cannot list an enum's cases without
  /// reading its metadata, which AutoMap never does. Listed cases get one branch each, with
  /// the payload learned by running the enum's own `init(from:)` (``PayloadProbe``): `anyOf`
  /// when untagged (the first case that maps wins), `oneOf` with a tag (the tag tells them
  /// apart). Unlisted, the schema of a tagged enum says where the tag is and that it is a
  /// string, and what holds the payload.
  func payloadEnumSchema<T: JSONDecodable>(_: T.Type) throws -> JSON? {
    guard RuntimeReflection.kind(of: T.self) == .other("an enum"),
      let decodable = T.self as? any Decodable.Type,
      let state = CodecCache.decoder(for: T.self).model,
      try state.resolvedPlan(KeyStyleContext.override).whole != nil
    else { return nil }
    let style = KeyStyleContext.override ?? T.keyStyle
    let anyString: JSON = ["type": "string"]
    return try definition("enum " + typeName(T.self), title: typeName(T.self)) {
      var schema: JSON.Object = ["title": .string(typeName(T.self))]
      let listed = T.schemaCases
      if !listed.isEmpty, !T.caseLayout.isUntagged {
        func branches<D: Decodable>(_: D.Type) throws -> [JSON] {
          var seen = Set<String>()
          return try listed.map { name in
            // Two branches alike would make every document of that case match both.
            guard seen.insert(style.jsonKey(forCodingKey: name)).inserted else {
              throw JSON.Error(
                .invalidModel,
                "\(typeName(T.self)).schemaCases lists the case \(JSON.string(name)) twice")
            }
            guard let payload = PayloadProbe.payload(of: D.self, case: name) else {
              throw JSON.Error(
                .invalidModel,
                "\(typeName(T.self)).schemaCases lists \(JSON.string(name)), which is not a case"
                  + " (case names are the Swift names, as declared)")
            }
            return try taggedBranch(
              T.caseLayout, style.jsonKey(forCodingKey: name), payload, style)
          }
        }
        schema["oneOf"] = .array(try branches(decodable))
        return .object(schema)
      }
      switch T.caseLayout {
      case .externalTag:
        // The case name as the one member, holding its payload's object; a case without
        // payload may be its name alone.
        schema["anyOf"] = [
          anyString,
          [
            "type": "object", "minProperties": 1, "maxProperties": 1,
            "additionalProperties": ["type": "object"],
          ],
        ]
      case .internalTag(let tag):
        schema["type"] = "object"
        schema["properties"] = .object(JSON.Object([(tag, anyString)]))
        schema["required"] = [.string(tag)]
      case .adjacentTag(let tag, let content):
        schema["type"] = "object"
        schema["properties"] = .object(
          JSON.Object([(tag, anyString), (content, ["type": "object"] as JSON)]))
        schema["required"] = [.string(tag)]
      case .untagged(let cases):
        func branches<D: Decodable>(_: D.Type) throws -> [JSON] {
          try cases.compactMap { name in
            try PayloadProbe.payload(of: D.self, case: name).map {
              try untaggedBranch(style.jsonKey(forCodingKey: name), $0, style)
            }
          }
        }
        schema["anyOf"] = .array(try branches(decodable))
      }
      return .object(schema)
    }
  }

  /// The document one case of an untagged enum is: its name, its one value, an array of its
  /// values, or the object of its labeled values (see ``JSON/CaseLayout/untagged(_:)``).
  private func untaggedBranch(
    _ key: String, _ payload: PayloadProbe.Payload, _ style: JSON.KeyStyle
  )
    throws -> JSON
  {
    let fields = payload.fields
    func value(_ field: PayloadProbe.Field) throws -> JSON {
      let schema = try schema(for: field.type)
      return field.required ? schema : Self.nullable(schema)
    }
    if fields.isEmpty {
      return payload.complete ? ["const": .string(key)] : [:]
    }
    if fields.enumerated().allSatisfy({ $0.element.key == "_\($0.offset)" }) {
      if fields.count == 1, payload.complete { return try value(fields[0]) }
      guard payload.complete else { return [:] }  // one value or an array: not known
      let items = try fields.map(value)
      return [
        "type": "array", "prefixItems": .array(items),
        "minItems": .number(JSON.Number(Int64(items.count))),
        "maxItems": .number(JSON.Number(Int64(items.count))),
      ]
    }
    let (properties, required) = try payloadFields(payload, style)
    return Self.object(properties, required: required)
  }

  /// One case of an enum with a tag: `key` is its name as the document has it (the key style
  /// applied). A payload the probe could not finish constrains only the fields it saw.
  private func taggedBranch(
    _ layout: JSON.CaseLayout, _ key: String, _ payload: PayloadProbe.Payload,
    _ style: JSON.KeyStyle
  ) throws -> JSON {
    let (properties, required) = try payloadFields(payload, style)
    let needsFields = !required.isEmpty || !payload.complete
    let fields = Self.object(properties, required: required)
    let tagConst: JSON = ["const": .string(key)]
    switch layout {
    case .externalTag, .untagged:
      let object: JSON = [
        "type": "object", "properties": .object(JSON.Object([(key, fields)])),
        "required": [.string(key)], "maxProperties": 1,
      ]
      // A string names a case whose payload `{}` would decode.
      return needsFields ? object : ["anyOf": [tagConst, object]]
    case .internalTag(let tag):
      var all = JSON.Object([(tag, tagConst)])
      for (name, schema) in properties { all[name] = schema }
      return Self.object(all, required: [.string(tag)] + required)
    case .adjacentTag(let tag, let content):
      return Self.object(
        JSON.Object([(tag, tagConst), (content, fields)]),
        required: [.string(tag)] + (needsFields ? [.string(content)] : []))
    }
  }

  private static func object(_ properties: JSON.Object, required: [JSON]) -> JSON {
    var object: JSON.Object = ["type": "object", "properties": .object(properties)]
    if !required.isEmpty { object["required"] = .array(required) }
    return .object(object)
  }

  /// A payload's fields, each under its key as the key style writes it, and those required
  /// (asked for with `decode`, not `decodeIfPresent`, by the enum's `init(from:)`).
  private func payloadFields(_ payload: PayloadProbe.Payload, _ style: JSON.KeyStyle) throws
    -> (properties: JSON.Object, required: [JSON])
  {
    var properties = JSON.Object()
    var required: [JSON] = []
    for field in payload.fields {
      let name = style.jsonKey(forCodingKey: field.key)
      let schema = try schema(for: field.type)
      properties[name] = field.required ? schema : Self.nullable(schema)
      if field.required { required.append(.string(name)) }
    }
    return (properties, required)
  }

  /// The schema of a protocol type registered with `JSON.registerPolymorphic`: one branch
  /// per discriminator value, the value's type with the discriminator's `const`; the default
  /// type, when there is one, for a discriminator absent, `null` or unknown.
  func protocolSchema(_ type: Any.Type, _ choices: SchemaChoices) throws -> JSON {
    try definition("protocol " + typeName(type), title: typeName(type)) {
      let key = choices.key
      let values = choices.types.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
      var branches: [JSON] = []
      for value in values {
        guard let chosen = choices.types[value] else { continue }
        branches.append([
          "allOf": [
            try schema(for: chosen),
            [
              "properties": .object(JSON.Object([(key, ["const": .string(value)] as JSON)])),
              "required": [.string(key)],
            ],
          ]
        ])
      }
      if let fallback = choices.defaultType {
        let other: JSON = [
          "anyOf": [
            ["type": "null"],
            ["type": "string", "not": ["enum": .array(values.map { .string($0) })]],
          ]
        ]
        branches.append([
          "allOf": [
            try schema(for: fallback), ["properties": .object(JSON.Object([(key, other)]))],
          ]
        ])
      }
      return ["oneOf": .array(branches)]
    }
  }
}

extension JSON.CaseLayout {
  fileprivate var isUntagged: Bool {
    if case .untagged = self { return true }
    return false
  }
}
