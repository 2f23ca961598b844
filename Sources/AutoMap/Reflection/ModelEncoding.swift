import Synchronization

enum ModelEncoding {
  private static let states = Mutex<[ObjectIdentifier: ModelEncodeState]>([:])

  static func state<T: JSONEncodable>(_: T.Type) -> ModelEncodeState {
    let key = ObjectIdentifier(T.self)
    return states.withLock { states in
      if let state = states[key] { return state }
      let state = ModelEncodeState(defaultStyle: T.keyStyle) { try buildPlan(T.self, style: $0) }
      states[key] = state
      return state
    }
  }

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
          try state.resolvedPlan(writer.keyStyle).writeBytes(value, &writer)
        } else {
          try writer.write(value.assumingMemoryBound(to: T.self).pointee.json)
        }
      },
      writeJSON: { value in try value.assumingMemoryBound(to: T.self).pointee.json })
  }

  /// The codec of an object's dynamic class, when it is a subclass of the declared one.
  private static func dynamicCodec<T>(_ value: UnsafeRawPointer, _: T.Type) -> EncodeCodec? {
    let object = value.load(as: AnyObject.self)
    let dynamic = type(of: object)
    return dynamic == T.self ? nil : CodecCache.encoder(for: dynamic)
  }

  /// What the default `json` runs.
  static func encodeJSON<T: JSONEncodable>(_ value: T) throws -> JSON {
    let state = state(type(of: value))
    state.markReflected()
    let plan = try state.resolvedPlan(KeyStyleContext.override)
    return try withUnsafePointer(to: value) { try plan.writeJSON($0) }
  }

  /// What `jsonData(options:)` and `jsonString(options:)` run: value to bytes.
  static func encodeBytes<T: JSONEncodable>(_ value: T, options: JSON.WritingOptions) throws
    -> [UInt8]
  {
    let codec = CodecCache.encoder(for: T.self)
    var writer = JSONWriter(options: options)
    try withUnsafePointer(to: value) { try codec.writeBytes($0, &writer) }
    return writer.bytes
  }

  static func buildPlan<T: JSONEncodable>(_: T.Type, style: JSON.KeyStyle) throws -> EncodePlan {
    let model = typeName(T.self)
    guard let reflected = FieldEnumeration.fields(of: T.self) else {
      throw JSON.Error(
        .invalidModel,
        "\(model) cannot be encoded by reflection: only structs and classes have stored properties to map."
          + " Give an enum a raw value, or write `json`")
    }
    let options = try FieldOptions.resolve(T.specificOptions(), fields: reflected, model: model)
    var fields: [EncodeField] = []
    for property in reflected {
      let option = options[property.name] ?? FieldOptions(nil)
      if option.ignore || option.decodeOnly { continue }
      let codec = CodecCache.encoder(for: property.type)
      if option.ignoreIfEmpty, codec.isEmpty == nil {
        throw JSON.Error(
          .invalidModel,
          "\(model).\(property.name) (\(codec.typeName)) has .ignoreIfEmpty, which applies to strings,"
            + " arrays, sets and dictionaries, and to their optionals")
      }
      guard property.type is any JSONEncodable.Type || option.transform != nil else {
        throw JSON.Error(
          .invalidModel,
          "\(model).\(property.name) (\(codec.typeName)) cannot be encoded: \(codec.typeName) does not conform"
            + " to JSONEncodable. Make it conform, give the property a .transform, or mark it .ignore"
        )
      }
      let index = option.writeIndex(property.name, style)
      fields.append(
        EncodeField(
          name: property.name, offset: property.offset, codec: codec, index: index,
          quotedKey: index.singleKey.map(JSONWriter.quotedKey), key: index.singleKey,
          transform: option.transform, ignoreIfNull: option.ignoreIfNull,
          ignoreIfEmpty: option.ignoreIfEmpty))
    }
    return EncodePlan(modelName: model, isClass: T.self is AnyClass, fields: fields)
  }
}
