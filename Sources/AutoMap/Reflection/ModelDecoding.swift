import Synchronization

enum ModelDecoding {
  /// The codec of a model type: reflection once observed, `init(decode:)` until then.
  static func makeCodec<T: JSONDecodable>(_: T.Type) -> DecodeCodec {
    let state = ModelDecodeState { try buildPlan(T.self) }
    let readJSON: DecodeCodec.ReadJSON = { json, destination in
      destination.initializeMemory(as: T.self, to: try T(decode: json))
    }
    return DecodeCodec(
      T.self,
      readBytes: { reader, destination in
        if state.isReflected {
          try state.resolvedPlan().readBytes(&reader, destination)
        } else {
          try readJSON(reader.parseValue(), destination)
        }
      },
      readJSON: readJSON,
      model: state)
  }

  /// What the default `init(decode:)` runs.
  static func decode<T: JSONDecodable>(_: T.Type, from json: JSON) throws -> T {
    guard let state = CodecCache.decoder(for: T.self).model else {
      throw JSON.Error(.invalidModel, "\(typeName(T.self)) has no reflection plan")
    }
    state.markReflected()
    let plan = try state.resolvedPlan()
    let slot = UnsafeMutablePointer<T>.allocate(capacity: 1)
    defer { slot.deallocate() }
    try plan.readJSON(json, UnsafeMutableRawPointer(slot))
    return slot.move()
  }

  /// What `T(jsonData:)` and `T(jsonString:)` run: bytes to value.
  static func decode<T: JSONDecodable>(_: T.Type, fromBytes bytes: UnsafeRawBufferPointer) throws
    -> T
  {
    let codec = CodecCache.decoder(for: T.self)
    return try JSONReader.withReader(bytes) { reader in
      let slot = UnsafeMutablePointer<T>.allocate(capacity: 1)
      defer { slot.deallocate() }
      try codec.readBytes(&reader, UnsafeMutableRawPointer(slot))
      let value = slot.move()
      try reader.expectEnd()
      return value
    }
  }

  // MARK: Building plans

  static func buildPlan<T: JSONDecodable>(_: T.Type) throws -> DecodePlan {
    let model = typeName(T.self)
    guard let reflected = FieldEnumeration.fields(of: T.self) else {
      throw JSON.Error(
        .invalidModel,
        "\(model) cannot be decoded by reflection: only structs and classes have stored properties to map."
          + " Give an enum a raw value, or write init(decode:)")
    }
    let kind = try instanceKind(T.self, model: model)
    let options = try FieldOptions.resolve(T.specificOptions(), fields: reflected, model: model)
    var fields: [DecodeField] = []
    var ignored: [IgnoredField] = []
    for property in reflected {
      let option = options[property.name] ?? FieldOptions(nil)
      let codec = CodecCache.decoder(for: property.type)
      let where_ = "\(model).\(property.name) (\(codec.typeName))"
      guard codec.model != nil || property.type is any JSONDecodable.Type || option.ignore else {
        throw JSON.Error(
          .invalidModel,
          "\(where_) cannot be decoded: \(codec.typeName) does not conform to JSONDecodable."
            + " Make it conform, give the property a .transform, or mark it .ignore")
      }
      let fallback = try makeFallback(option, codec: codec, where_: where_)
      if case .defaultStruct = kind, property.isLet == true, !option.ignore {
        throw JSON.Error(
          .invalidModel,
          "\(model).\(property.name) is a `let` in a DefaultInitable struct: its value comes from init(),"
            + " and the optimizer may fold it into a constant, so a decoded value could silently"
            + " not show. Declare it `var`, or mark it .ignore")
      }
      if option.ignore {
        guard case .memberwise = kind else { continue }  // keeps its init() value
        guard let initialize = fallback ?? codec.storeNil else {
          throw JSON.Error(
            .invalidModel,
            "\(where_) is .ignore'd but needs a value: \(model) has no init() to provide one."
              + " Make it Optional, give it .defaultValue, or make \(model) DefaultInitable")
        }
        ignored.append(IgnoredField(offset: property.offset, codec: codec, initialize: initialize))
        continue
      }
      let index = option.index ?? .key(property.name)
      fields.append(
        DecodeField(
          name: property.name, offset: property.offset, codec: codec, index: index,
          key: index.singleKey.map { Array($0.utf8) }, leaf: LeafKind(property.type),
          alternativeIndex: option.alternativeIndex,
          transform: option.transform, fallback: fallback))
    }
    return DecodePlan(
      modelName: model, kind: kind, fields: fields, ignoredFields: ignored,
      destroyModel: { $0.assumingMemoryBound(to: T.self).deinitialize(count: 1) })
  }

  private static func instanceKind<T>(_: T.Type, model: String) throws -> InstanceKind {
    let initable = T.self as? any DefaultInitable.Type
    if T.self is AnyClass {
      guard let initable else {
        throw JSON.Error(
          .invalidModel,
          "\(model) is a class: to be decoded by reflection it must conform to DefaultInitable"
            + " (add `required init() {}`), or write init(decode:)")
      }
      return .object(make: { destination in
        guard let instance = initable.init() as? T else { return }
        destination.initializeMemory(as: T.self, to: instance)
      })
    }
    guard let initable else { return .memberwise }
    return .defaultStruct(make: { destination in
      guard let instance = initable.init() as? T else { return }
      destination.initializeMemory(as: T.self, to: instance)
    })
  }

  private static func makeFallback(
    _ option: FieldOptions, codec: DecodeCodec, where_: String
  ) throws -> ((UnsafeMutableRawPointer) -> Void)? {
    if option.hasDefaultValue, let value = option.defaultValue {
      // Check the type now: a wrong default is an error at first use, not at first absence.
      let probe = UnsafeMutableRawPointer.allocate(
        byteCount: max(codec.size, 1), alignment: codec.alignment)
      defer { probe.deallocate() }
      guard codec.store(value, probe) else {
        throw JSON.Error(
          .invalidModel,
          "\(where_) has .defaultValue(\(value)) of type \(typeName(type(of: value))), not \(codec.typeName)"
        )
      }
      codec.destroy(probe)
      return { _ = codec.store(value, $0) }
    }
    if option.nonNil {
      guard let storeDefault = codec.storeDefault else {
        throw JSON.Error(
          .invalidModel,
          "\(where_) has .nonNil, but \(codec.typeName) is not DefaultInitable: give it .defaultValue instead"
        )
      }
      return storeDefault
    }
    return nil
  }
}
