import Foundation
/// How values of one type are read: from bytes (through a ``JSONReader``) or from a `JSON`
/// value, into raw memory.
///
/// Every closure takes `destination`, uninitialized memory sized and aligned for the type, and
/// leaves it initialized on return; on a throw it leaves it uninitialized. Codecs are created
/// once per type (``CodecCache``) and shared by every plan that has a field of the type, so the
/// per-value work is one indirect call.
final class DecodeCodec: @unchecked Sendable {  // immutable after creation
  typealias ReadBytes = (inout JSONReader, UnsafeMutableRawPointer) throws -> Void
  typealias ReadJSON = (JSON, UnsafeMutableRawPointer) throws -> Void

  let type: Any.Type
  let typeName: String
  let size: Int
  let alignment: Int
  let readBytes: ReadBytes
  let readJSON: ReadJSON
  /// Deinitializes a value at the address.
  let destroy: (UnsafeMutableRawPointer) -> Void
  /// Initializes the address with `value` when it has this type; `false` otherwise.
  let store: (Any, UnsafeMutableRawPointer) -> Bool
  /// Initializes the address with `nil`, for `Optional` types.
  let storeNil: ((UnsafeMutableRawPointer) -> Void)?
  /// Initializes the address with `init()`, for `DefaultInitable` types.
  let storeDefault: ((UnsafeMutableRawPointer) -> Void)?
  /// For model types: their reflection state.
  let model: ModelDecodeState?
  /// For ``JSONPolymorphic`` classes: how an object chooses the class to build.
  let polymorphism: Polymorphism?
  /// For collections (and optionals of them): reading that leaves out elements that fail to
  /// map, for `.lossy`.
  let lossyReadBytes: ReadBytes?
  let lossyReadJSON: ReadJSON?
  /// `false` for types that cannot be decoded at all (their reads throw).
  let isMappable: Bool
  /// For codecs that depend on the key style of the model holding the property (`Codable`
  /// types): the codec for a style.
  private let restyle: ((JSON.KeyStyle) -> DecodeCodec)?

  init<T>(
    _: T.Type, readBytes: @escaping ReadBytes, readJSON: @escaping ReadJSON,
    storeNil: ((UnsafeMutableRawPointer) -> Void)? = nil, model: ModelDecodeState? = nil,
    polymorphism: Polymorphism? = nil,
    lossyReadBytes: ReadBytes? = nil, lossyReadJSON: ReadJSON? = nil, isMappable: Bool = true,
    storeWrapped: ((Any, UnsafeMutableRawPointer) -> Bool)? = nil,
    styled restyle: ((JSON.KeyStyle) -> DecodeCodec)? = nil
  ) {
    self.restyle = restyle
    self.model = model
    self.polymorphism = polymorphism
    self.isMappable = isMappable
    self.lossyReadBytes = lossyReadBytes
    self.lossyReadJSON = lossyReadJSON
    type = T.self
    typeName = AutoMap.typeName(T.self)
    size = MemoryLayout<T>.size
    alignment = MemoryLayout<T>.alignment
    self.readBytes = readBytes
    self.readJSON = readJSON
    destroy = { RawValue.destroy($0, as: T.self) }
    store = { value, destination in
      guard let value = value as? T else { return storeWrapped?(value, destination) ?? false }
      RawValue.initialize(destination, to: value)
      return true
    }
    self.storeNil = storeNil
    if let initable = T.self as? any DefaultInitable.Type {
      storeDefault = { destination in
        guard let value = initable.init() as? T else { return }
        RawValue.initialize(destination, to: value)
      }
    } else {
      storeDefault = nil
    }
  }

  var isOptional: Bool { storeNil != nil }

  /// This codec for a property of a model whose plan uses `style`.
  func styled(_ style: JSON.KeyStyle) -> DecodeCodec { restyle?(style) ?? self }
}

/// How values of one type are written: to bytes (through a ``JSONWriter``) or to a `JSON`
/// value, from raw memory holding an initialized value.
final class EncodeCodec: @unchecked Sendable {  // immutable after creation
  typealias WriteBytes = (UnsafeRawPointer, inout JSONWriter) throws -> Void
  typealias WriteJSON = (UnsafeRawPointer) throws -> JSON

  let type: Any.Type
  let typeName: String
  let writeBytes: WriteBytes
  let writeJSON: WriteJSON
  /// Whether the value at the address is `nil`, for `Optional` types.
  let isNil: ((UnsafeRawPointer) -> Bool)?
  /// Whether the value at the address is an empty collection or string.
  let isEmpty: ((UnsafeRawPointer) -> Bool)?
  /// The value at the address, boxed (for transforms).
  let load: (UnsafeRawPointer) -> Any
  /// `false` for types that cannot be encoded at all (their writes throw).
  let isMappable: Bool
  /// As for ``DecodeCodec``: the codec for a key style, for `Codable` types.
  private let restyle: ((JSON.KeyStyle) -> EncodeCodec)?

  init<T>(
    _: T.Type, writeBytes: @escaping WriteBytes, writeJSON: @escaping WriteJSON,
    isNil: ((UnsafeRawPointer) -> Bool)? = nil, isEmpty: ((UnsafeRawPointer) -> Bool)? = nil,
    isMappable: Bool = true, load: ((UnsafeRawPointer) -> Any)? = nil,
    styled restyle: ((JSON.KeyStyle) -> EncodeCodec)? = nil
  ) {
    self.restyle = restyle
    self.isMappable = isMappable
    type = T.self
    typeName = AutoMap.typeName(T.self)
    self.writeBytes = writeBytes
    self.writeJSON = writeJSON
    self.isNil = isNil
    self.isEmpty = isEmpty
    self.load = load ?? { RawValue.load($0, as: T.self) }
  }

  /// This codec for a property of a model whose plan uses `style`.
  func styled(_ style: JSON.KeyStyle) -> EncodeCodec { restyle?(style) ?? self }
}

/// Types of this library that know their own codecs (scalars, collections, optionals).
/// Everything else that is `JSONDecodable`/`JSONEncodable` is a model.
protocol DecodeCodecProvider {
  static func makeDecodeCodec() -> DecodeCodec
}

protocol EncodeCodecProvider {
  static func makeEncodeCodec() -> EncodeCodec
}

/// The process-wide codec caches.
///
/// What a type maps as, in order: AutoMap's own codec (scalars, collections, optionals,
/// Foundation leaves), a `JSONDecodable`/`JSONEncodable` model, a property wrapper, a
/// `Codable` type (``CodableCodecs``), a registered protocol type (``ExistentialRegistry``),
/// and otherwise nothing (an error at first use). Creating a codec never holds the lock (it may look up
/// other codecs); when two threads create the same codec at once, the first one stored wins.
enum CodecCache {
  private static let decoders = Locked<[ObjectIdentifier: DecodeCodec]>([:])
  private static let encoders = Locked<[ObjectIdentifier: EncodeCodec]>([:])

  static func decoder(for type: Any.Type) -> DecodeCodec {
    let key = ObjectIdentifier(type)
    if let codec = decoders.withLock({ $0[key] }) { return codec }
    let made = makeDecoder(for: type)
    return decoders.withLock { cache in
      if let raced = cache[key] { return raced }
      cache[key] = made
      return made
    }
  }

  static func encoder(for type: Any.Type) -> EncodeCodec {
    let key = ObjectIdentifier(type)
    if let codec = encoders.withLock({ $0[key] }) { return codec }
    let made = makeEncoder(for: type)
    return encoders.withLock { cache in
      if let raced = cache[key] { return raced }
      cache[key] = made
      return made
    }
  }

  /// Whether a codec for `type` was made already (it is then what models holding it use).
  static func hasCodec(_ type: ObjectIdentifier) -> Bool {
    decoders.withLock { $0[type] != nil } || encoders.withLock { $0[type] != nil }
  }

  /// Every model's decode state created so far.
  static var decodeStates: [ModelDecodeState] {
    decoders.withLock { $0.values.compactMap(\.model) }
  }

  private static func makeDecoder(for type: Any.Type) -> DecodeCodec {
    if let provider = type as? any DecodeCodecProvider.Type { return provider.makeDecodeCodec() }
    if let model = type as? any JSONDecodable.Type { return ModelDecoding.makeCodec(model) }
    if let wrapper = type as? any JSONPropertyWrapper.Type {
      return PropertyWrapperCodecs.decoder(wrapper)
    }
    if let codable = type as? any Decodable.Type {
      return CodableCodecs.decoder(for: codable, style: .exact)
    }
    if let registered = ExistentialRegistry.decoder(for: type) { return registered }
    return unmappableDecoder(type)
  }

  private static func makeEncoder(for type: Any.Type) -> EncodeCodec {
    if let provider = type as? any EncodeCodecProvider.Type { return provider.makeEncodeCodec() }
    if let model = type as? any JSONEncodable.Type { return ModelEncoding.makeCodec(model) }
    if let wrapper = type as? any JSONPropertyWrapper.Type {
      return PropertyWrapperCodecs.encoder(wrapper)
    }
    if let codable = type as? any Encodable.Type {
      return CodableCodecs.encoder(for: codable, style: .exact)
    }
    if let registered = ExistentialRegistry.encoder(for: type) { return registered }
    return unmappableEncoder(type)
  }

  private static func unmappableDecoder(_ type: Any.Type) -> DecodeCodec {
    func make<T>(_: T.Type) -> DecodeCodec {
      let error = JSON.Error(
        .invalidModel,
        "\(typeName(T.self)) cannot be decoded: it does not conform to JSONDecodable"
          + (ExistentialRegistry.hint(for: T.self).map { ". " + $0 } ?? ""))
      return DecodeCodec(
        T.self, readBytes: { _, _ in throw error }, readJSON: { _, _ in throw error },
        isMappable: false)
    }
    return make(type)
  }

  private static func unmappableEncoder(_ type: Any.Type) -> EncodeCodec {
    func make<T>(_: T.Type) -> EncodeCodec {
      let error = JSON.Error(
        .invalidModel,
        "\(typeName(T.self)) cannot be encoded: it does not conform to JSONEncodable"
          + (ExistentialRegistry.hint(for: T.self).map { ". " + $0 } ?? ""))
      return EncodeCodec(
        T.self, writeBytes: { _, _ in throw error }, writeJSON: { _ in throw error },
        isMappable: false)
    }
    return make(type)
  }
}

/// A type's name as people write it: `[String: Int]`, `User?`, `Page<User>`.
func typeName(_ type: Any.Type) -> String {
  String(describing: type)
    .replacingOccurrences(of: "Swift.", with: "")
}
