extension JSON {
  /// Makes properties of a protocol type map: `any Shape`, `[any Shape]`, `[(any Shape)?]`,
  /// `[[any Shape]]`, `[String: any Shape]`, `[String: [any Shape]]`, and the optionals of
  /// each (`(any Shape)?`, `[any Shape]?`, …). Each object names its type under `discriminator`; encoding writes the
  /// instance's own fields with its discriminator first.
  ///
  /// ```swift
  /// protocol Shape: JSONCodable { var area: Double { get } }
  /// struct Circle: Shape { var radius = 0.0; var area: Double { .pi * radius * radius } }
  /// struct Square: Shape { var side = 0.0; var area: Double { side * side } }
  ///
  /// try JSON.registerPolymorphic(
  ///   (any Shape).self, discriminator: "kind",
  ///   types: ["circle": Circle.self, "square": Square.self])
  ///
  /// struct Drawing: JSONCodable { var shapes: [any Shape] }
  /// let drawing = try Drawing(jsonString: #"{"shapes": [{"kind": "circle", "radius": 1}]}"#)
  /// try drawing.jsonString()     // {"shapes":[{"kind":"circle","radius":1.0}]}
  /// ```
  ///
  /// Register once, at start-up, before the first use of any model that holds the protocol
  /// type: a model's mapping is built once, when it is first used. Registering the same table
  /// again does nothing; registering after the protocol type was used, or another table for
  /// it, throws an `.invalidModel` error. Not registering leaves such properties unmappable,
  /// as before (an error at first use naming the property).
  ///
  /// - Decoding: the discriminator's string value chooses the type in `types`, which is then
  ///   decoded by its own mapping. An unknown value, or a missing or `null` discriminator,
  ///   builds `defaultType` when there is one; otherwise it is an error naming the path and
  ///   the value (or the key). A type listed in `types` that does not conform to the protocol
  ///   is an `.invalidModel` error when it is decoded.
  /// - Encoding: the instance's dynamic type chooses its discriminator value (the first in
  ///   key order when several name it). A type the table does not name is an `.invalidModel`
  ///   error, unless it is `defaultType`, written without a discriminator. The type must
  ///   encode as an object; a member of its own under the discriminator key is replaced.
  ///
  /// Why a registration: Swift cannot attach a conformance or a static member to an
  /// existential type (`any Shape` is not a type that adopts protocols), and the runtime
  /// offers no way to list a protocol's conforming types short of reading its metadata by
  /// hand, which AutoMap never does. The table is therefore declared once, here, as
  /// ``JSONPolymorphic`` declares a class hierarchy's table once in its base class.
  public static func registerPolymorphic<Existential>(
    _ existential: Existential.Type, discriminator: String = "type",
    types: [String: any JSONCodable.Type], defaultType: (any JSONCodable.Type)? = nil
  ) throws {
    let name = existentialName(Existential.self)
    guard RuntimeReflection.kind(of: Existential.self) == .other("an existential") else {
      throw JSON.Error(
        .invalidModel,
        "registerPolymorphic takes a protocol type, such as (any Shape).self, not \(name)")
    }
    guard !types.isEmpty || defaultType != nil else {
      throw JSON.Error(.invalidModel, "registerPolymorphic(\(name)) has no types")
    }
    let table = ExistentialTable<Existential>(
      key: discriminator, types: types, defaultType: defaultType)
    try ExistentialRegistry.register(table.codecs(), signature: table.signature, name: name)
    SchemaChoices.register(
      Existential.self,
      SchemaChoices(
        key: discriminator, types: types.mapValues { $0 as Any.Type },
        defaultType: defaultType.map { $0 as Any.Type }))
  }
}

/// A registered protocol type's discriminator and types, for its JSON Schema.
struct SchemaChoices: @unchecked Sendable {  // immutable; metatypes
  let key: String
  let types: [String: Any.Type]
  let defaultType: Any.Type?

  private static let registered = Locked([ObjectIdentifier: SchemaChoices]())

  static func register(_ existential: Any.Type, _ choices: SchemaChoices) {
    registered.withLock { $0[ObjectIdentifier(existential)] = choices }
  }

  /// The choices registered for the protocol type `type`, if it is one.
  static func choices(for type: Any.Type) -> SchemaChoices? {
    registered.withLock { $0[ObjectIdentifier(type)] }
  }
}

/// Dictionaries, for finding the protocol type inside one (``ExistentialRegistry/hint(for:)``).
protocol DictionaryValueTypeProviding {
  static var valueType: Any.Type { get }
}

extension Dictionary: DictionaryValueTypeProviding {
  static var valueType: Any.Type { Value.self }
}

/// The registered protocol types, by the `ObjectIdentifier` of each type made of them
/// (`any Shape`, `[any Shape]`, …). Looked up only when a codec is made for a type nothing
/// else maps, once per type: other types never reach it.
enum ExistentialRegistry {
  struct Codecs {
    let base: ObjectIdentifier
    let decoders: [ObjectIdentifier: DecodeCodec]
    let encoders: [ObjectIdentifier: EncodeCodec]
  }

  private struct State {
    var signatures: [ObjectIdentifier: [String]] = [:]
    var decoders: [ObjectIdentifier: DecodeCodec] = [:]
    var encoders: [ObjectIdentifier: EncodeCodec] = [:]
    /// The types looked up and not found: their codecs are (or are about to be) unmappable
    /// ones, so registering them now would not be seen.
    var missed: Set<ObjectIdentifier> = []
  }

  private static let state = Locked(State())

  static func register(_ codecs: Codecs, signature: [String], name: String) throws {
    try state.withLock { state in
      if let known = state.signatures[codecs.base] {
        guard known == signature else {
          throw JSON.Error(
            .invalidModel, "\(name) is already registered with another table: register it once")
        }
        return
      }
      let types = Set(codecs.decoders.keys).union(codecs.encoders.keys)
      // A lookup that missed is the first use even when its codec is not stored yet: checking
      // only the codec cache would let a use racing this call store an unmappable codec after
      // the registration succeeded, leaving the type unmappable for good.
      if !state.missed.isDisjoint(with: types) || types.contains(where: CodecCache.hasCodec) {
        throw JSON.Error(
          .invalidModel,
          "\(name) was used before it was registered, and models that hold it have no way to map"
            + " it: call JSON.registerPolymorphic at start-up, before the first use")
      }
      state.signatures[codecs.base] = signature
      state.decoders.merge(codecs.decoders) { old, _ in old }
      state.encoders.merge(codecs.encoders) { old, _ in old }
    }
  }

  /// What to say about an unmappable property of a protocol type, held bare or inside
  /// optionals, arrays, sets and dictionaries (`[String: (any Shape)?]`).
  static func hint(for type: Any.Type) -> String? {
    var type = type
    while true {
      if let wrapper = type as? any WrapperTypeProviding.Type {
        type = wrapper.wrappedType
      } else if let dictionary = type as? any DictionaryValueTypeProviding.Type {
        type = dictionary.valueType
      } else {
        break
      }
    }
    guard RuntimeReflection.kind(of: type) == .other("an existential") else { return nil }
    return "A protocol type maps once its conforming types are registered:"
      + " JSON.registerPolymorphic((\(existentialName(type))).self, types: […]). Or mark it .ignore"
  }

  /// The registered codec for `type`; a miss is remembered, so that registering `type` later
  /// is refused as a registration after first use.
  static func decoder(for type: Any.Type) -> DecodeCodec? {
    registered(type, in: \.decoders)
  }

  static func encoder(for type: Any.Type) -> EncodeCodec? {
    registered(type, in: \.encoders)
  }

  private static func registered<Codec: Sendable>(
    _ type: Any.Type, in codecs: KeyPath<State, [ObjectIdentifier: Codec]>
  ) -> Codec? {
    state.withLock { state in
      let key = ObjectIdentifier(type)
      guard let codec = state[keyPath: codecs][key] else {
        state.missed.insert(key)
        return nil
      }
      return codec
    }
  }
}

/// One registered protocol type `P` (an existential): how an object chooses its type, and
/// which discriminator a type writes.
final class ExistentialTable<P>: @unchecked Sendable {  // immutable after creation; metatypes
  private let key: String
  private let name: String
  private let types: [String: any JSONCodable.Type]
  private let defaultType: (any JSONCodable.Type)?
  /// What the byte paths need of each type (``ExistentialBytes``).
  let bytes: ExistentialBytes<P>
  /// The values in key order, for messages.
  private let known: String
  /// The discriminator each type writes: the first value naming it, in key order.
  private let values: [ObjectIdentifier: String]
  /// What makes two registrations the same.
  let signature: [String]

  init(key: String, types: [String: any JSONCodable.Type], defaultType: (any JSONCodable.Type)?) {
    self.key = key
    name = existentialName(P.self)
    self.types = types
    self.defaultType = defaultType
    (known, values) = Polymorphism.discriminators(types.mapValues { $0 as Any.Type })
    bytes = ExistentialBytes(key: key, types: types, defaultType: defaultType, values: values)
    signature =
      [key, defaultType.map { String(reflecting: $0) } ?? "-"]
      + types.map { "\($0.key)=\(String(reflecting: $0.value))" }.sorted()
  }

  // MARK: Decoding

  func decode(_ json: JSON) throws -> P {
    guard case .object(let object) = json else {
      throw JSON.Error.mismatch(
        expected: "\(name) (an object with its \(JSON.string(key).description))", found: json)
    }
    let chosen: any JSONCodable.Type
    switch object[key] {
    case nil, .null?, .missing?:
      guard let defaultType else {
        throw JSON.Error(
          .missingValue, "missing the discriminator that chooses the \(name) type: one of \(known)"
        ).prefixed(key: key)
      }
      chosen = defaultType
    case .string(let value)?:
      guard let type = types[value] ?? defaultType else {
        throw JSON.Error.unknownDiscriminator(value, of: name, known: known, key: key)
      }
      chosen = type
    case let other?:
      throw JSON.Error.discriminatorNotString(other, naming: "\(name) type", known: known, key: key)
    }
    func decodeAs<C: JSONDecodable>(_: C.Type) throws -> P {
      guard let value = try C(decode: json) as? P else {
        throw JSON.Error(
          .invalidModel, "\(typeName(C.self)) is registered for \(name) but does not conform to it")
      }
      return value
    }
    return try _openExistential(chosen, do: decodeAs)
  }

  // MARK: Encoding

  func encode(_ value: P) throws -> JSON {
    guard let encodable = value as Any as? any JSONEncodable else {
      throw JSON.Error(
        .unencodable, "\(typeName(type(of: value as Any))) does not conform to JSONEncodable")
    }
    let dynamic = type(of: encodable)
    let discriminator = values[ObjectIdentifier(dynamic)]
    if discriminator == nil, defaultType.map({ ObjectIdentifier($0) }) != ObjectIdentifier(dynamic)
    {
      throw JSON.Error(
        .invalidModel,
        "\(typeName(dynamic)) cannot be encoded as \(name): the registered types have no"
          + " discriminator for it. Add it to registerPolymorphic's types, or make it the defaultType"
      )
    }
    let json = try encodable.json
    guard let discriminator else { return json }
    guard case .object(let fields) = json else {
      throw JSON.Error(
        .unencodable,
        "\(typeName(dynamic)) encodes as \(json.kindName), not as an object to hold the"
          + " discriminator of \(name)")
    }
    var result = JSON.Object()
    result.append(key, .string(discriminator))
    // The discriminator's own key replaces a field of the same bytes; one only canonically
    // equal to it is another key.
    for (field, member) in fields where !JSON.sameKey(field, key) { result.append(field, member) }
    return .object(result)
  }

  // MARK: Codecs

  /// The codecs of `P` and of the collections of it that properties commonly declare.
  func codecs() -> ExistentialRegistry.Codecs {
    let single = ExistentialCoding<P>(
      decode: decode, encode: encode, read: { try self.bytes.read(&$0, reference: self.decode) },
      write: { try self.bytes.write($0, &$1, reference: self.encode) })
    var decoders: [ObjectIdentifier: DecodeCodec] = [:]
    var encoders: [ObjectIdentifier: EncodeCodec] = [:]
    func add<X>(_ coding: ExistentialCoding<X>) {
      decoders[ObjectIdentifier(X.self)] = coding.decodeCodec()
      encoders[ObjectIdentifier(X.self)] = coding.encodeCodec()
    }
    func addWithOptional<X>(_ coding: ExistentialCoding<X>) {
      add(coding)
      add(coding.optional)
    }
    addWithOptional(single)
    addWithOptional(single.array)
    addWithOptional(single.optional.array)
    addWithOptional(single.array.array)
    addWithOptional(single.dictionary)
    addWithOptional(single.array.dictionary)
    return ExistentialRegistry.Codecs(
      base: ObjectIdentifier(P.self), decoders: decoders, encoders: encoders)
  }
}

/// `any Shape`, as the type is written (the runtime names it `Shape`).
func existentialName(_ type: Any.Type) -> String {
  let name = typeName(type)
  guard RuntimeReflection.kind(of: type) == .other("an existential"), !name.hasPrefix("any ")
  else { return name }
  return "any " + name
}
