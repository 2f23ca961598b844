import Foundation

extension JSON {
  /// Decodes a value of any type a model property may have, including the ones that cannot
  /// adopt ``JSONDecodable`` themselves: a registered protocol type and the containers of one.
  ///
  /// ```swift
  /// try JSON.registerPolymorphic(
  ///   (any Shape).self, discriminator: "kind", types: ["circle": Circle.self])
  /// let shapes = try JSON.decode([any Shape].self, from: json)
  /// ```
  ///
  /// A type that is ``JSONDecodable`` decodes as `T(decode:)` does.
  ///
  /// - Throws: ``JSON/Error`` naming the path, as a property of type `T` would; for a type
  ///   AutoMap cannot map (or a protocol type not registered), ``JSON/Error/Kind-swift.enum/invalidModel``.
  public static func decode<T>(_: T.Type, from json: JSON) throws -> T {
    if let model = T.self as? any JSONDecodable.Type {
      func decodeModel<M: JSONDecodable>(_: M.Type) throws -> T {
        try cast(M(decode: json), to: T.self)
      }
      return try _openExistential(model, do: decodeModel)
    }
    let codec = CodecCache.decoder(for: T.self)
    return try RawValue.produce(T.self) { try codec.readJSON(json, $0) }
  }

  /// Decodes UTF-8 JSON text into a value of any type a model property may have (see
  /// ``decode(_:from:)``).
  ///
  /// ```swift
  /// let shapes = try JSON.decode([any Shape].self, fromJSONData: data)
  /// ```
  ///
  /// A type that is ``JSONDecodable`` decodes as `T(jsonData:)` does, straight from the
  /// bytes; other types through a `JSON` value, as their properties do.
  public static func decode<T, Bytes: ContiguousBytes>(_: T.Type, fromJSONData data: Bytes)
    throws -> T
  {
    if let model = T.self as? any JSONDecodable.Type {
      func decodeModel<M: JSONDecodable>(_: M.Type) throws -> T {
        try cast(M(jsonData: data), to: T.self)
      }
      return try _openExistential(model, do: decodeModel)
    }
    let codec = CodecCache.decoder(for: T.self)
    return try data.withUnsafeBytes { document in
      try LenientText.configured(document) { bytes in
        try ModelDecoding.decode(T.self, fromBytes: bytes, codec) {
          try decode(T.self, from: JSON(mappingBytes: bytes))
        }
      }
    }
  }

  /// Encodes a value as `type`, any type a model property may have (see
  /// ``decode(_:from:)``): a protocol type's value is written with its discriminator.
  ///
  /// ```swift
  /// let json = try JSON.encode(shapes, as: [any Shape].self)
  /// let one = try JSON.encode(shape, as: (any Shape).self)   // {"kind": "circle", …}
  /// ```
  ///
  /// The type is a parameter because Swift would otherwise open a single `any Shape` to its
  /// concrete type, which has no discriminator. A type that is ``JSONEncodable`` encodes as
  /// its `json` does.
  public static func encode<T>(_ value: T, as _: T.Type) throws -> JSON {
    if T.self is any JSONEncodable.Type, let model = value as? any JSONEncodable {
      return try model.json
    }
    let codec = CodecCache.encoder(for: T.self)
    return try withUnsafePointer(to: value) { try codec.writeJSON(UnsafeRawPointer($0)) }
  }

  /// Encodes a value as `type` (see ``encode(_:as:)``) to UTF-8 JSON text, written straight
  /// to bytes.
  ///
  /// ```swift
  /// let data = try JSON.jsonData(shapes, as: [any Shape].self, options: [.sortedKeys])
  /// ```
  public static func jsonData<T>(_ value: T, as _: T.Type, options: WritingOptions = [])
    throws -> Data
  {
    if T.self is any JSONEncodable.Type, let model = value as? any JSONEncodable {
      return try model.jsonData(options: options)
    }
    return Data(
      try ModelEncoding.encodeBytes(value, options: options) { try encode(value, as: T.self) })
  }

  private static func cast<T>(_ value: Any, to _: T.Type) throws -> T {
    guard let value = value as? T else {
      throw JSON.Error(.invalidModel, "cannot make \(typeName(T.self))")
    }
    return value
  }
}
