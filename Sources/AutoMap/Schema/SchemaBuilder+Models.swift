extension SchemaBuilder {
  /// A model's schema: a reference to its definition, or to the `oneOf` of the classes a
  /// ``JSONPolymorphic`` class may decode as.
  func modelSchema(_ type: any JSONDecodable.Type) throws -> JSON {
    func open<T: JSONDecodable>(_: T.Type) throws -> JSON {
      if let polymorphic = T.self as? any JSONPolymorphic.Type {
        return try definition("choice " + typeName(T.self), title: typeName(T.self)) {
          try choices(T.self, Hierarchy(polymorphic))
        }
      }
      if let enumeration = try payloadEnumSchema(T.self) { return enumeration }
      return try plainModel(T.self)
    }
    return try open(type)
  }

  /// A reference to the definition of the model's own object, its class chosen.
  private func plainModel<T: JSONDecodable>(_: T.Type) throws -> JSON {
    guard let plan = try reflectedPlan(T.self) else { return [:] }
    return try definition("model " + typeName(T.self), title: typeName(T.self)) {
      try objectSchema(T.self, plan)
    }
  }

  /// The decode plan of a model mapped field by field by reflection; `nil` for one with a
  /// hand-written `init(decode:)` or read whole (an enum with payloads, through `Codable`).
  private func reflectedPlan<T: JSONDecodable>(_: T.Type) throws -> DecodePlan? {
    guard let state = CodecCache.decoder(for: T.self).model else { return nil }
    let plan = try state.resolvedPlan(KeyStyleContext.override)
    guard plan.whole == nil else { return nil }
    if !state.isReflected {
      // Whether `init(decode:)` is the default (reflection) or hand-written is seen only by
      // calling it: the default reports itself before it reads anything.
      _ = try? T(decode: .object(JSON.Object()))
    }
    return state.isReflected ? plan : nil
  }

  /// One branch per discriminator value that chooses `T` or a subclass of it.
  private func choices<T: JSONDecodable>(_: T.Type, _ hierarchy: Hierarchy) throws -> JSON {
    let key = hierarchy.key
    var branches: [JSON] = []
    for value in hierarchy.table.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
      guard let chosen = hierarchy.table[value] as? any JSONDecodable.Type, chosen is T.Type
      else { continue }
      branches.append([
        "allOf": [
          try plain(chosen),
          ["properties": [key: ["const": .string(value)]], "required": [.string(key)]],
        ]
      ])
    }
    // Absent, null or unknown: the default subclass, or the requested class when it is not
    // the base.
    let known = JSON.array(hierarchy.table.keys.sorted().map { .string($0) })
    if let fallback = hierarchy.defaultType as? any JSONDecodable.Type, fallback is T.Type {
      branches.append([
        "allOf": [try plain(fallback), ["properties": [key: ["not": ["enum": known]]]]]
      ])
    } else if T.self != hierarchy.base {
      branches.append([
        "allOf": [try plainModel(T.self), ["properties": [key: ["type": "null"]]]]
      ])
    }
    return ["oneOf": .array(branches)]
  }

  private func plain(_ type: any JSONDecodable.Type) throws -> JSON {
    func open<T: JSONDecodable>(_: T.Type) throws -> JSON { try plainModel(T.self) }
    return try open(type)
  }

  /// The object a model reads and writes, from its decode and encode plans.
  private func objectSchema<T: JSONDecodable>(_: T.Type, _ plan: DecodePlan) throws -> JSON {
    let written = try encodeFields(T.self)
    var object: JSON = ["type": "object", "title": .string(typeName(T.self))]
    var described: Set<String> = []
    for field in plan.fields {
      described.insert(field.name)
      let output = written?[field.name]
      var schema = try valueSchema(
        field.codec.type, options: field.options, transform: field.transform,
        isOptional: field.isOptional)
      let acceptsNull =
        field.isOptional || field.options.hasDefaultValue || field.options.nonNil
        || !plan.kind.isMemberwise
      if acceptsNull {
        schema = Self.nullable(schema)
      } else if schema == [:] {
        schema = ["not": ["type": "null"]]  // anything, but a required value is not null
      }
      if field.options.hasDefaultValue,
        let value = field.options.defaultValue as? any JSONEncodable,
        let json = try? value.json, case .object(var members) = schema
      {
        members["default"] = json
        schema = .object(members)
      }
      // Required when decoding needs it and encoding always writes it, at the same place.
      let required =
        !acceptsNull && field.alternativeIndex == nil
        && output.map {
          $0.index.tokens == field.index.tokens && !$0.ignoreIfEmpty
        } ?? false
      Self.insert(
        schema, at: (output?.index ?? field.index).steps[...], required: required, into: &object)
    }
    for field in written?.values.sorted(by: { $0.offset < $1.offset }) ?? []
    where !described.contains(field.name) {
      // Written, never read (`.encodeOnly`).
      let schema = try valueSchema(
        field.codec.type, options: nil, transform: field.transform, isOptional: false)
      Self.insert(schema, at: field.index.steps[...], required: false, into: &object)
    }
    return object
  }

  /// The fields the model writes, by property name; `nil` when it is not encodable.
  private func encodeFields<T>(_: T.Type) throws -> [String: EncodeField]? {
    guard let encodable = T.self as? any JSONEncodable.Type else { return nil }
    func open<E: JSONEncodable>(_: E.Type) throws -> [String: EncodeField] {
      let plan = try ModelEncoding.state(E.self).resolvedPlan(KeyStyleContext.override)
      return Dictionary(plan.fields.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }
    return try open(encodable)
  }

  /// The schema of one property's value: its `.schema`, its embedded JSON, its date
  /// transform, unconstrained for another transform, or its type's.
  private func valueSchema(
    _ type: Any.Type, options: FieldOptions?, transform: (any Transform)?, isOptional: Bool
  ) throws -> JSON {
    if let given = options?.schema { return given }
    if options?.embeddedJSON == true {
      let inner = (type as? any SchemaOptional.Type)?.unwrappedType ?? type
      let text: JSON = [
        "type": "string", "contentMediaType": "application/json",
        "contentSchema": try schema(for: inner),
      ]
      return inner == type ? text : Self.nullable(text)
    }
    guard let transform else { return try schema(for: type) }
    let converted: JSON = (transform as? DateTransform).map(Self.date) ?? [:]
    return isOptional ? Self.nullable(converted) : converted
  }

  /// The container the first of `steps` looks into: an array for a position, else an object.
  private static func container(for steps: ArraySlice<JSON.Index.Step>) -> JSON {
    if case .position? = steps.first { return ["type": "array"] }
    return ["type": "object"]
  }

  /// Puts `value` at `steps` inside the schema `node`, making the objects (and arrays, for
  /// positions) on the way; the empty path merges it into `node` with `allOf` (flattening).
  static func insert(
    _ value: JSON, at steps: ArraySlice<JSON.Index.Step>, required: Bool, into node: inout JSON
  ) {
    guard let step = steps.first else {
      var members = node.objectMembers
      members["allOf"] = .array((members["allOf"]?.arrayElements ?? []) + [value])
      node = .object(members)
      return
    }
    let rest = steps.dropFirst()
    var members = node.objectMembers
    switch step {
    case .key(let key), .token(let key):
      if members["type"] == nil { members["type"] = "object" }
      var properties = members["properties"]?.objectMembers ?? JSON.Object()
      var child: JSON = properties[key] ?? (rest.isEmpty ? value : Self.container(for: rest))
      if !rest.isEmpty {
        insert(value, at: rest, required: required, into: &child)
      } else if properties[key] != nil {
        child = ["allOf": [child, value]]  // two properties at one key: both hold
      }
      properties[key] = child
      members["properties"] = .object(properties)
      if required {
        let list = members["required"]?.arrayElements ?? []
        if !list.contains(.string(key)) { members["required"] = .array(list + [.string(key)]) }
      }
    case .position(let position):
      if members["type"] == nil { members["type"] = "array" }
      var prefix = members["prefixItems"]?.arrayElements ?? []
      while prefix.count <= position { prefix.append([:]) }
      if rest.isEmpty {
        prefix[position] = value
      } else {
        if prefix[position] == [:] { prefix[position] = Self.container(for: rest) }
        insert(value, at: rest, required: required, into: &prefix[position])
      }
      members["prefixItems"] = .array(prefix)
      if required {
        let least = Int(members["minItems"] ?? 0) ?? 0
        members["minItems"] = .number(JSON.Number(Int64(Swift.max(least, position + 1))))
      }
    }
    node = .object(members)
  }
}

/// A ``JSONPolymorphic`` hierarchy's rules, its types erased.
private struct Hierarchy {
  let key: String
  let base: Any.Type
  let table: [String: Any.Type]
  let defaultType: Any.Type?

  init(_ type: any JSONPolymorphic.Type) {
    func open<P: JSONPolymorphic>(_: P.Type) -> Hierarchy {
      Hierarchy(
        key: P.discriminator, base: P.PolymorphicBase.self,
        table: P.subclasses.mapValues { $0 as Any.Type },
        defaultType: P.defaultSubclass.map { $0 as Any.Type })
    }
    self = open(type)
  }

  private init(key: String, base: Any.Type, table: [String: Any.Type], defaultType: Any.Type?) {
    self.key = key
    self.base = base
    self.table = table
    self.defaultType = defaultType
  }
}

extension JSON {
  /// The members of an object; none for anything else.
  var objectMembers: JSON.Object {
    if case .object(let object) = self { return object }
    return JSON.Object()
  }

  /// The elements of an array, `nil` for anything else.
  var arrayElements: [JSON]? {
    if case .array(let elements) = self { return elements }
    return nil
  }
}
