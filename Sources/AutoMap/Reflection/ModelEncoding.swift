/// Encoding models by reflection: codecs, entry points and plan building.
///
/// As for decoding (see ``ModelDecoding``), `json` is the reference: `jsonData()` and
/// `jsonString()` write bytes straight from memory, and when that fails they encode through
/// `json` instead, so every entry point reports the same error. An object is encoded as its
/// dynamic class, whatever type it is held as.
enum ModelEncoding {
  private static let states = Locked<[ObjectIdentifier: ModelEncodeState]>([:])

  static func state<T: JSONEncodable>(_: T.Type) -> ModelEncodeState {
    let key = ObjectIdentifier(T.self)
    return states.withLock { states in
      if let state = states[key] { return state }
      let state = ModelEncodeState(defaultStyle: T.keyStyle) { try buildPlan(T.self, style: $0) }
      states[key] = state
      return state
    }
  }

  /// Every model's encode state created so far.
  static var allStates: [ModelEncodeState] { states.withLock { Array($0.values) } }

  static func makeCodec<T: JSONEncodable>(_: T.Type) -> EncodeCodec {
    let state = state(T.self)
    let isClass = T.self is AnyClass
    return EncodeCodec(
      T.self,
      writeBytes: { value, writer in
        if isClass, let dynamic = dynamicCodec(value, T.self) {
          return try dynamic.writeBytes(value, &writer)
        }
        if state.isReflected {
          try state.withPlan(writer.keyStyle) { plan in
            guard plan.isWhole, let wholeBytes = plan.wholeBytes else {
              return try plan.writeBytes(value, &writer)
            }
            try wholeBytes(value, &writer)
          }
        } else {
          try writer.write(RawValue.load(value, as: T.self).json)
        }
      },
      writeJSON: { value in try RawValue.load(value, as: T.self).json })
  }

  /// The codec of an object's dynamic class, when it is a subclass of the declared one.
  private static func dynamicCodec<T>(_ value: UnsafeRawPointer, _: T.Type) -> EncodeCodec? {
    let dynamic: AnyClass = RawValue.dynamicClass(value)
    return dynamic == T.self ? nil : CodecCache.encoder(for: dynamic)
  }

  /// What the default `json` runs.
  static func encodeJSON<T: JSONEncodable>(_ value: T) throws -> JSON {
    let state = state(T.self)
    if T.self is AnyClass, let dynamic = type(of: value as AnyObject) as? any JSONEncodable.Type,
      dynamic != T.self
    {
      state.markReflected()  // classes are never encoded whole
      func encodeAs<D: JSONEncodable>(_: D.Type) throws -> JSON {
        try encodeJSON(unsafeBitCast(value as AnyObject, to: D.self))
      }
      return try _openExistential(dynamic, do: encodeAs)
    }
    let plan = try state.resolvedPlan(KeyStyleContext.override)
    if let whole = plan.whole {
      // Marked reflected only when the plan writes bytes too: the codec then writes the whole
      // value itself.
      if plan.wholeBytes != nil { state.markReflected() }
      return try withUnsafePointer(to: value) { try whole(UnsafeRawPointer($0)) }
    }
    return try Nesting.level(encoding: true) {
      state.markReflected()
      return try withUnsafePointer(to: value) { try plan.writeJSON(UnsafeRawPointer($0)) }
    }
  }

  /// What `jsonData(options:)` and `jsonString(options:)` run: value to bytes.
  static func encodeBytes<T: JSONEncodable>(_ value: T, options: JSON.WritingOptions) throws
    -> [UInt8]
  {
    try encodeBytes(value, options: options) { try value.json }
  }

  /// Writes `value` through its type's codec straight to bytes. When that throws, the
  /// reference, `reference` (the value through `JSON`), is the answer: its error, or, were
  /// the fast path wrong, its text.
  static func encodeBytes<T>(
    _ value: T, options: JSON.WritingOptions, reference: () throws -> JSON
  ) throws -> [UInt8] {
    let codec = CodecCache.encoder(for: T.self)
    var writer = JSONWriter(options: options)
    do {
      try withUnsafePointer(to: value) { try codec.writeBytes(UnsafeRawPointer($0), &writer) }
      return writer.bytes.take()
    } catch {
      var fallback = JSONWriter(options: options)
      try fallback.write(reference())
      return fallback.bytes.take()
    }
  }

  static func buildPlan<T: JSONEncodable>(_: T.Type, style: JSON.KeyStyle) throws -> EncodePlan {
    let model = typeName(T.self)
    let reflected: [ReflectedField]
    switch FieldEnumeration.layout(of: T.self) {
    case .structure(let fields), .object(let fields): reflected = fields
    case .unsupported(let kind):
      if let plan = try CodableEnums.encodePlan(T.self, style: style, model: model) { return plan }
      throw JSON.Error(
        .invalidModel,
        "\(model) cannot be encoded by reflection: it is \(kind), and only structs and classes have"
          + " stored properties to map. Give an enum a raw value or make it CaseIterable, or write `json`"
      )
    }
    let options = try FieldOptions.resolve(T.specificOptions(), fields: reflected, model: model)
    let discriminator = try Polymorphism.of(T.self).map { ($0.key, try $0.value(for: T.self)) }
    var fields: [EncodeField] = []
    if let (key, value) = discriminator, let value {
      fields.append(Polymorphism.discriminatorField(key: key, value: value))
    }
    for property in reflected {
      let option = options[property.name] ?? FieldOptions(nil)
      if try FieldOptions.isUnmapped(property, option, model: model) { continue }
      if option.ignore || option.decodeOnly { continue }
      let codec = CodecCache.encoder(for: property.type).styled(style)
      if option.ignoreIfEmpty, codec.isEmpty == nil {
        throw JSON.Error(
          .invalidModel,
          "\(model).\(property.name) (\(codec.typeName)) has .ignoreIfEmpty, which applies to strings,"
            + " arrays, sets and dictionaries, and to their optionals")
      }
      guard codec.isMappable || option.transform != nil else {
        let fix =
          property.role == .wrapperStorage
          ? "It is a property wrapper: make \(codec.typeName) adopt JSONPropertyWrapper or JSONEncodable,"
            + " or mark \(property.name) .ignore"
          : ExistentialRegistry.hint(for: codec.type)
            ?? "Make it conform, give the property a .transform, or mark it .ignore"
        throw JSON.Error(
          .invalidModel,
          "\(model).\(property.name) (\(codec.typeName)) cannot be encoded: \(codec.typeName) does not"
            + " conform to JSONEncodable. " + fix)
      }
      let index = option.writeIndex(property.name, style)
      if let (key, _) = discriminator,
        try Polymorphism.writesDiscriminator(
          index, key: key, field: "\(model).\(property.name)")
      {
        continue  // the discriminator is written from the table, once
      }
      fields.append(
        EncodeField(
          name: property.name, offset: property.offset, codec: codec, index: index,
          quotedKey: index.singleKey.map(JSONWriter.quotedKey), key: index.singleKey,
          transform: option.transform {
            EmbeddedJSONTransform.encoding(property.type, through: codec)
          }, ignoreIfNull: option.ignoreIfNull,
          ignoreIfEmpty: option.ignoreIfEmpty))
    }
    return EncodePlan(
      modelName: model, isClass: T.self is AnyClass, fields: fields, reservedKey: discriminator?.0)
  }
}
