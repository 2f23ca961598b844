enum ModelDecoding {
  /// The codec of a model type: reflection once observed, `init(decode:)` until then.
  static func makeCodec<T: JSONDecodable>(_: T.Type) -> DecodeCodec {
    let state = ModelDecodeState(defaultStyle: T.keyStyle) { try buildPlan(T.self, style: $0) }
    let readJSON: DecodeCodec.ReadJSON = { json, destination in
      destination.initializeMemory(as: T.self, to: try T(decode: json))
    }
    return DecodeCodec(
      T.self,
      readBytes: { reader, destination in
        if state.isReflected {
          try state.resolvedPlan(reader.keyStyle).readBytes(&reader, destination)
        } else {
          try readJSON(reader.parseValue(), destination)
        }
      },
      readJSON: readJSON,
      model: state)
  }

  private static func state<T: JSONDecodable>(_: T.Type) throws -> ModelDecodeState {
    guard let state = CodecCache.decoder(for: T.self).model else {
      throw JSON.Error(.invalidModel, "\(typeName(T.self)) has no reflection plan")
    }
    return state
  }

  /// What the default `init(decode:)` runs.
  static func decode<T: JSONDecodable>(_: T.Type, from json: JSON) throws -> T {
    let state = try state(T.self)
    state.markReflected()
    let plan = try state.resolvedPlan(KeyStyleContext.override)
    let slot = UnsafeMutablePointer<T>.allocate(capacity: 1)
    defer { slot.deallocate() }
    try plan.readJSON(json, UnsafeMutableRawPointer(slot))
    return slot.move()
  }

  /// What `T(jsonData:)` and `T(jsonString:)` run: bytes to value; with `index`, only the
  /// value there is mapped (the rest of the document is still checked).
  static func decode<T: JSONDecodable>(
    _: T.Type, fromBytes bytes: UnsafeRawBufferPointer, at index: JSON.Index = []
  ) throws -> T {
    let codec = CodecCache.decoder(for: T.self)
    return try JSONReader.withReader(bytes) { reader in
      let slot = UnsafeMutablePointer<T>.allocate(capacity: 1)
      defer { slot.deallocate() }
      guard try reader.descend(index.steps[...], into: UnsafeMutableRawPointer(slot), codec) else {
        throw JSON.Error(.missingValue, "no value at \(index)").prefixed(index)
      }
      let value = slot.move()
      try reader.expectEnd()
      return value
    }
  }

  /// What `update(from:)` runs: replaces the properties whose keys `json` has.
  static func update<T: JSONDecodable>(_ value: inout T, from json: JSON) throws {
    let plan = try state(T.self).resolvedPlan(KeyStyleContext.override)
    try withUnsafeMutablePointer(to: &value) { pointer in
      let raw = UnsafeMutableRawPointer(pointer)
      // A class's fields live in the object the variable refers to.
      try plan.update(json, T.self is AnyClass ? raw.load(as: UnsafeMutableRawPointer.self) : raw)
      try plan.validate(raw)
    }
  }

  // MARK: Building plans

  static func buildPlan<T: JSONDecodable>(_: T.Type, style: JSON.KeyStyle) throws -> DecodePlan {
    let model = typeName(T.self)
    guard let reflected = FieldEnumeration.fields(of: T.self) else {
      throw JSON.Error(
        .invalidModel,
        "\(model) cannot be decoded by reflection: only structs and classes have stored properties to map."
          + " Give an enum a raw value or make it CaseIterable, or write init(decode:)")
    }
    let kind = try instanceKind(T.self, model: model)
    let options = try FieldOptions.resolve(T.specificOptions(), fields: reflected, model: model)
    var fields: [DecodeField] = []
    var ignored: [IgnoredField] = []
    for property in reflected {
      let option = options[property.name] ?? FieldOptions(nil)
      let codec = CodecCache.decoder(for: property.type)
      let where_ = "\(model).\(property.name) (\(codec.typeName))"
      let skipped = option.ignore || option.encodeOnly
      guard property.type is any JSONDecodable.Type || skipped || option.transform != nil else {
        throw JSON.Error(
          .invalidModel,
          "\(where_) cannot be decoded: \(codec.typeName) does not conform to JSONDecodable."
            + " Make it conform, give the property a .transform, or mark it .ignore")
      }
      let fallback = try makeFallback(option, codec: codec, where_: where_)
      try check(option, codec: codec, where_: where_)
      if case .defaultStruct = kind, property.isLet == true, !skipped {
        throw JSON.Error(
          .invalidModel,
          "\(model).\(property.name) is a `let` in a DefaultInitable struct: its value comes from init(),"
            + " and the optimizer may fold it into a constant, so a decoded value could silently"
            + " not show. Declare it `var`, or mark it .ignore")
      }
      if skipped {
        guard case .memberwise = kind else { continue }  // keeps its init() value
        guard let initialize = fallback ?? codec.storeNil else {
          throw JSON.Error(
            .invalidModel,
            "\(where_) is not decoded (.ignore or .encodeOnly) but needs a value: \(model) has no init()"
              + " to provide one. Make it Optional, give it .defaultValue, or make \(model) DefaultInitable"
          )
        }
        ignored.append(IgnoredField(offset: property.offset, codec: codec, initialize: initialize))
        continue
      }
      fields.append(
        DecodeField(
          name: property.name, offset: property.offset, codec: codec,
          index: option.readIndex(property.name, style), options: option, fallback: fallback,
          lossless: option.lossless ? LosslessTarget(property.type) : nil))
    }
    return DecodePlan(
      modelName: model, kind: kind, fields: fields, ignoredFields: ignored,
      caseInsensitive: style == .caseInsensitive,
      destroyModel: { $0.assumingMemoryBound(to: T.self).deinitialize(count: 1) },
      didDecode: { try $0.assumingMemoryBound(to: T.self).pointee.didDecode() })
  }

  /// Options that apply only to some types are refused on the others.
  private static func check(_ option: FieldOptions, codec: DecodeCodec, where_: String) throws {
    if option.lossy, codec.lossyReadBytes == nil, !codec.isOptional {
      throw JSON.Error(
        .invalidModel,
        "\(where_) has .lossy, which applies to arrays, sets, dictionaries and optionals")
    }
    if option.lossless, LosslessTarget(codec.type) == nil {
      throw JSON.Error(
        .invalidModel,
        "\(where_) has .lossless, which applies to numbers, Bool and String, and to their optionals and arrays"
      )
    }
    if option.emptyAsNil, codec.type != String?.self {
      throw JSON.Error(
        .invalidModel, "\(where_) has .emptyAsNil, which applies to String? properties")
    }
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
