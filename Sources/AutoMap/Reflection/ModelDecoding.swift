/// Decoding models by reflection: codecs, entry points and plan building.
///
/// ## One set of rules
///
/// `JSON` values are decoded by ``DecodePlan/readJSON(_:_:)``: that is the reference, the
/// one place where every rule (options, defaults, key styles, repeated keys, error paths) is
/// implemented. Bytes are decoded by ``DecodePlan/readBytes(_:_:)`` straight into memory, a
/// fast path that must produce the same value on success. When the fast path fails, for
/// whatever reason, the document is decoded again through `JSON` values, and that result,
/// value or error, is the one returned: every entry point reports the same error for the
/// same input, and no failure can depend on the order in which the fast path met things.
/// So the two features that report more than a value live on the `JSON` path alone:
/// collecting every problem (``JSON/Configuration/collectsAllErrors``) happens there after
/// the fast path failed, and a call that records substitutions
/// (``JSON/Configuration/onSubstitution``) takes the fast path's value only when nothing
/// stood in for anything (``unsubstituted(_:)``).
enum ModelDecoding {
  /// The codec of a model type: reflection once observed, `init(decode:)` until then.
  static func makeCodec<T: JSONDecodable>(_: T.Type) -> DecodeCodec {
    let state = ModelDecodeState(defaultStyle: T.keyStyle) { try buildPlan(T.self, style: $0) }
    let readJSON: DecodeCodec.ReadJSON = { json, destination in
      RawValue.initialize(destination, to: try T(decode: json))
    }
    if let polymorphism = Polymorphism.of(T.self) {
      // The object chooses its class: its discriminator is found in the bytes, then the
      // chosen class's plan reads the object in place. What the bytes cannot decide, and
      // classes whose `init(decode:)` has not been seen to be the default, go through `JSON`.
      return DecodeCodec(
        T.self,
        readBytes: { reader, destination in
          guard let chosen = try polymorphism.chooseClass(at: &reader, for: T.self),
            let plan = try reflectedPlan(chosen, T.self, state, reader.keyStyle)
          else {
            let json = try reader.parseValue()
            return try Nesting.within(readerLevels: reader.depth) {
              try readJSON(json, destination)
            }
          }
          try plan.readBytes(&reader, destination, watching: polymorphism.discriminatorKey)
        },
        readJSON: readJSON, model: state, polymorphism: polymorphism)
    }
    // Once the default `init(decode:)` has been seen, both paths go to the plan directly,
    // into the destination, as that initializer would.
    return DecodeCodec(
      T.self,
      readBytes: { reader, destination in
        if state.isReflected {
          try state.withPlan(reader.keyStyle) { plan in
            guard plan.isWhole, let wholeBytes = plan.wholeBytes else {
              return try plan.readBytes(&reader, destination)
            }
            try readWhole(plan, destination) { try wholeBytes(&reader, $0) }
          }
        } else {
          try readJSON(reader.parseValue(), destination)
        }
      },
      readJSON: { json, destination in
        guard state.isReflected else { return try readJSON(json, destination) }
        let plan = try state.resolvedPlan(KeyStyleContext.override)
        if let whole = plan.whole {
          return try readWhole(plan, destination) { try whole(json, $0) }
        }
        try Nesting.level(encoding: false) { try plan.readJSON(json, destination) }
      },
      model: state)
  }

  /// The plan of `chosen` (`T` or a subclass, whose `T`-typed reference the plan stores),
  /// when its `init(decode:)` has been seen to be the default.
  private static func reflectedPlan<T>(
    _ chosen: Any.Type, _: T.Type, _ state: ModelDecodeState, _ style: JSON.KeyStyle?
  ) throws -> DecodePlan? {
    let chosenState =
      ObjectIdentifier(chosen) == ObjectIdentifier(T.self)
      ? state : CodecCache.decoder(for: chosen).model
    guard let chosenState, chosenState.isReflected else { return nil }
    return try chosenState.resolvedPlan(style)
  }

  /// Reads a whole-value model (an enum with payloads) with `read`, then validates it.
  @inline(__always)
  private static func readWhole(
    _ plan: DecodePlan, _ destination: UnsafeMutableRawPointer,
    _ read: (UnsafeMutableRawPointer) throws -> Void
  ) throws {
    try read(destination)
    do { try plan.validate(destination) } catch {
      plan.destroyModel(destination)
      throw error
    }
  }

  private static func state<T: JSONDecodable>(_: T.Type) throws -> ModelDecodeState {
    guard let state = CodecCache.decoder(for: T.self).model else {
      throw JSON.Error.notUpdatable(T.self)
    }
    return state
  }

  /// What the default `init(decode:)` runs.
  static func decode<T: JSONDecodable>(_: T.Type, from json: JSON) throws -> T {
    let codec = CodecCache.decoder(for: T.self)
    guard let state = codec.model else { throw JSON.Error.notUpdatable(T.self) }
    if let polymorphism = codec.polymorphism {
      state.markReflected()  // classes are never read whole
      let chosen = try polymorphism.chooseClass(json, for: T.self)
      if ObjectIdentifier(chosen) != ObjectIdentifier(T.self) {
        return try decode(json, as: chosen, declared: T.self)
      }
    }
    let plan = try state.resolvedPlan(KeyStyleContext.override)
    if let whole = plan.whole {
      // Marked reflected only when the plan reads bytes too: the codec then reads the whole
      // value itself (through `readWhole`), as this function would.
      if plan.wholeBytes != nil { state.markReflected() }
      return try RawValue.produce(T.self) { destination in
        try readWhole(plan, destination) { try whole(json, $0) }
      }
    }
    return try Nesting.level(encoding: false) {
      state.markReflected()
      return try RawValue.produce(T.self) { try plan.readJSON(json, $0) }
    }
  }

  /// A polymorphic object as the subclass it chose, through that class's own `init(decode:)`
  /// (which chooses again, and stops at itself: each step goes further down the hierarchy).
  private static func decode<T: JSONDecodable>(_ json: JSON, as chosen: Any.Type, declared: T.Type)
    throws -> T
  {
    func decodeAs<D: JSONDecodable>(_: D.Type) throws -> T {
      guard let value = try D(decode: json) as? T else {
        throw JSON.Error(.invalidModel, "\(typeName(D.self)) is not a \(typeName(T.self))")
      }
      return value
    }
    guard let decodable = chosen as? any JSONDecodable.Type else {
      throw JSON.Error(
        .invalidModel, "\(typeName(chosen)) cannot be decoded: it does not conform to JSONDecodable"
      )
    }
    return try _openExistential(decodable, do: decodeAs)
  }

  /// What `T(jsonData:)` and `T(jsonString:)` run: a caller's document, in the extensions
  /// the call's configuration allows, to a value (see ``decode(_:fromBytes:at:)``).
  static func decode<T: JSONDecodable>(
    _: T.Type, fromDocument bytes: UnsafeRawBufferPointer, at index: JSON.Index = []
  ) throws -> T {
    try LenientText.configured(bytes) { try decode(T.self, fromBytes: $0, at: index) }
  }

  /// Strict bytes to value; with `index`, only the
  /// value there is mapped (the rest of the document is still checked).
  static func decode<T: JSONDecodable>(
    _: T.Type, fromBytes bytes: UnsafeRawBufferPointer, at index: JSON.Index = []
  ) throws -> T {
    let codec = CodecCache.decoder(for: T.self)
    if let state = codec.model, !state.isReflected, index.isEmpty {
      // A first use: through `JSON` and the real `init(decode:)`, which may be hand-written.
      return try decodeReference(T.self, fromBytes: bytes, at: index)
    }
    let fast = {
      try JSONReader.withReader(bytes) { reader in
        try RawValue.withTemporary(T.self) { slot in
          guard try reader.descend(index.steps[...], into: slot, codec) else {
            throw JSON.Error(.missingValue, "no value at \(index)").prefixed(index)
          }
          let value = RawValue.move(slot, as: T.self)
          try reader.expectEnd()
          return value
        }
      }
    }
    if Substitutions.isRecording, let value = unsubstituted(fast) { return value }
    if !Substitutions.isRecording, let value = try? fast() { return value }
    return try decodeReference(T.self, fromBytes: bytes, at: index)
  }

  /// While substitutions are recorded: the byte path's value when it substituted nothing,
  /// `nil` when it did (or failed), and the `JSON` path, which knows every substitution's
  /// path, must run. The byte path records at every place the `JSON` path does (the same
  /// code, or a record of its own where it differs), with the substitutions held back: a
  /// document nothing stands in for costs what it costs outside the recording.
  static func unsubstituted<T>(_ fast: () throws -> T) -> T? {
    guard let (value, substituted) = try? Substitutions.held(fast), substituted.isEmpty else {
      return nil
    }
    return value
  }

  /// Bytes to a value of any type, through its codec; when that throws, `reference` (the
  /// value through `JSON`) is the answer, as for models.
  static func decode<T>(
    _: T.Type, fromBytes bytes: UnsafeRawBufferPointer, _ codec: DecodeCodec,
    reference: () throws -> T
  ) throws -> T {
    let fast = {
      try JSONReader.withReader(bytes) { reader in
        let value = try RawValue.produce(T.self) { try codec.readBytes(&reader, $0) }
        try reader.expectEnd()
        return value
      }
    }
    if Substitutions.isRecording, let value = unsubstituted(fast) { return value }
    if !Substitutions.isRecording, let value = try? fast() { return value }
    return try reference()
  }

  /// The reference result for bytes: the document parsed to `JSON`, then decoded from it.
  static func decodeReference<T: JSONDecodable>(
    _: T.Type, fromBytes bytes: UnsafeRawBufferPointer, at index: JSON.Index
  ) throws -> T {
    let value = try JSON(mappingBytes: bytes)[index]
    if case .missing(let error) = value { throw error }
    return try T(decode: value)
  }

  /// What `update(from:)` runs: replaces the properties whose keys `json` has.
  static func update<T: JSONDecodable>(_ value: inout T, from json: JSON) throws {
    if T.self is AnyClass, let dynamic = type(of: value as AnyObject) as? any JSONDecodable.Type,
      dynamic != T.self
    {
      // An instance of a subclass: the subclass's plan, which knows its own fields too.
      func updateAs<D: JSONDecodable>(_: D.Type) throws {
        var object = unsafeBitCast(value as AnyObject, to: D.self)
        try update(&object, from: json)
      }
      return try _openExistential(dynamic, do: updateAs)
    }
    if let polymorphism = CodecCache.decoder(for: T.self).polymorphism {
      try polymorphism.checkUpdate(json, keeping: T.self)  // an instance keeps its class
    }
    let plan = try state(T.self).resolvedPlan(KeyStyleContext.override)
    guard plan.whole == nil else { throw JSON.Error.notUpdatable(T.self) }
    try withUnsafeMutablePointer(to: &value) { pointer in
      let raw = UnsafeMutableRawPointer(pointer)
      // A class's fields live in the object the variable refers to.
      let base = T.self is AnyClass ? RawValue.objectBase(raw) : raw
      try plan.update(json, base) { try plan.validate(raw) }
    }
  }

  // MARK: Building plans

  static func buildPlan<T: JSONDecodable>(_: T.Type, style: JSON.KeyStyle) throws -> DecodePlan {
    let model = typeName(T.self)
    let reflected: [ReflectedField]
    switch FieldEnumeration.layout(of: T.self) {
    case .structure(let fields), .object(let fields): reflected = fields
    case .unsupported(let kind):
      if let plan = try CodableEnums.decodePlan(T.self, style: style, model: model) { return plan }
      throw JSON.Error(
        .invalidModel,
        "\(model) cannot be decoded by reflection: it is \(kind), and only structs and classes have"
          + " stored properties to map. Give an enum a raw value, make it CaseIterable or Codable,"
          + " or write init(decode:)")
    }
    let kind = try instanceKind(T.self, model: model)
    let options = try FieldOptions.resolve(T.specificOptions(), fields: reflected, model: model)
    var fields: [DecodeField] = []
    var ignored: [IgnoredField] = []
    for property in reflected {
      var option = options[property.name] ?? FieldOptions(nil)
      let skipped = option.ignore || option.encodeOnly
      if let initialize = try unmapped(property, option, kind: kind, model: model) {
        if let initialize {
          ignored.append(
            IgnoredField(offset: property.offset, initialize: initialize, destroy: nil))
        }
        continue
      }
      let codec = CodecCache.decoder(for: property.type).styled(style)
      let where_ = "\(model).\(property.name) (\(codec.typeName))"
      guard codec.isMappable || skipped || option.transform != nil else {
        throw unmappable(property, codec: codec, where_: where_)
      }
      option.transform = option.transform {
        EmbeddedJSONTransform.decoding(property.type, through: codec)
      }
      let fallback = try makeFallback(option, codec: codec, where_: where_)
      try check(option, codec: codec, where_: where_)
      if !property.isVar, !skipped, !kind.isMemberwise {
        throw JSON.Error(
          .invalidModel,
          "\(model).\(property.name) is a `let` in \(kind.describe): its value comes from init(), and"
            + " the optimizer may fold it into a constant, so a decoded value could silently not show."
            + " Declare it `var`, or mark it .ignore")
      }
      if skipped {
        guard kind.isMemberwise else { continue }  // keeps its init() value
        guard let initialize = fallback ?? codec.storeNil ?? nilInitializer(property.type) else {
          throw JSON.Error(
            .invalidModel,
            "\(where_) is not decoded (.ignore or .encodeOnly) but needs a value: \(model) has no init()"
              + " to provide one. Make it Optional, give it .defaultValue, or make \(model) DefaultInitable"
          )
        }
        ignored.append(
          IgnoredField(offset: property.offset, initialize: initialize, destroy: codec.destroy))
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
      destroyModel: { RawValue.destroy($0, as: T.self) },
      didDecode: { try RawValue.withMutable($0, as: T.self) { try $0.didDecode() } })
  }

  /// For storage the engine never decodes (weak and unowned references, `lazy` storage):
  /// `.some(initializer)` when a memberwise struct needs it set, `.some(nil)` when it keeps
  /// what `init()` gave it, `nil` for properties that are mapped.
  private static func unmapped(
    _ property: ReflectedField, _ option: FieldOptions, kind: InstanceKind, model: String
  ) throws -> ((UnsafeMutableRawPointer) -> Void)?? {
    guard try FieldOptions.isUnmapped(property, option, model: model) else { return .none }
    guard kind.isMemberwise else { return .some(nil) }  // keeps its init() value
    if property.isStrong, let initialize = nilInitializer(property.type) {
      return .some(initialize)  // lazy storage starts as "not computed yet"
    }
    throw JSON.Error(
      .invalidModel,
      "\(model).\(property.name) is a weak or unowned reference, which AutoMap never writes, and"
        + " \(model) has no init() to give it a value: make \(model) DefaultInitable, or write"
        + " init(decode:)")
  }

  private static func nilInitializer(_ type: Any.Type) -> ((UnsafeMutableRawPointer) -> Void)? {
    guard let none = (type as? any NilInitializable.Type)?.noneBytes() else { return nil }
    return { none.store(at: $0) }
  }

  private static func unmappable(_ property: ReflectedField, codec: DecodeCodec, where_: String)
    -> JSON.Error
  {
    if property.role == .wrapperStorage {
      return JSON.Error(
        .invalidModel,
        "\(where_) is a property wrapper that AutoMap cannot map: make \(codec.typeName) adopt"
          + " JSONPropertyWrapper (its wrappedValue is then mapped; for a wrapper from another"
          + " library that has init(wrappedValue:), `extension Wrapper: JSONPropertyWrapper {}` is"
          + " enough) or JSONDecodable, or mark \(property.name) .ignore")
    }
    return JSON.Error(
      .invalidModel,
      "\(where_) cannot be decoded: \(codec.typeName) does not conform to JSONDecodable. "
        + (ExistentialRegistry.hint(for: codec.type)
          ?? "Make it conform, give the property a .transform, or mark it .ignore"))
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
        RawValue.initialize(destination, to: instance)
      })
    }
    guard let initable else { return .memberwise }
    return .defaultStruct(make: { destination in
      guard let instance = initable.init() as? T else { return }
      RawValue.initialize(destination, to: instance)
    })
  }

  private static func makeFallback(
    _ option: FieldOptions, codec: DecodeCodec, where_: String
  ) throws -> ((UnsafeMutableRawPointer) -> Void)? {
    if option.hasDefaultValue, let value = option.defaultValue {
      // Check the type now: a wrong default is an error at first use, not at first absence.
      let probe = RawValue.allocate(size: codec.size, alignment: codec.alignment)
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
