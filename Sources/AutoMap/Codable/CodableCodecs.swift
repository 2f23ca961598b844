/// Codecs for property types that are `Codable` but not `JSONDecodable`/`JSONEncodable`:
/// `Money`, `[Money]`, `[String: Money?]`, `Money?` from a package that knows only `Codable`.
///
/// ``CodecCache`` asks for these last, after AutoMap's own conformances, models and property
/// wrappers: a type that is `JSONCodable` too maps by AutoMap's rules (JSONCodable wins).
/// The value goes through AutoMap's own `Decoder`s and `Encoder`s, honouring the type's
/// `CodingKeys` and `init(from:)`/`encode(to:)`: from `JSON` values through
/// ``JSONValueDecoder``/``JSONValueEncoder`` (the reference), and from bytes through
/// ``ByteDecoder``, which leaves anything unusual to the reference.
///
/// A codec is made for one key style, that of the model whose plan holds the property:
/// plans are built per key style, and each asks for its codec with ``DecodeCodec/styled(_:)``
/// (once, when the plan is built; nothing is added to the per-field loops).
enum CodableCodecs {
  static func decoder(for type: any Decodable.Type, style: JSON.KeyStyle) -> DecodeCodec {
    // `Money?`: AutoMap's own optional rule around `Money`'s codec.
    if let container = type as? any CodableContainer.Type {
      return container.codableCodec(style: style)
    }
    func make<T: Decodable>(_: T.Type) -> DecodeCodec {
      let none = (T.self as? any NilInitializable.Type)?.noneBytes()
      let readJSON: DecodeCodec.ReadJSON = { json, destination in
        if let none, json.isNullOrMissing { return none.store(at: destination) }
        RawValue.initialize(
          destination, to: try JSONValueDecoder.decode(T.self, from: json, style: style))
      }
      return DecodeCodec(
        T.self,
        readBytes: { reader, destination in
          if let none, try reader.consumeNull() { return none.store(at: destination) }
          // Straight from the bytes; when that gives up, through `JSON` (the reference).
          if ByteDecoding.decode(T.self, &reader, style: style, into: destination) { return }
          try readJSON(reader.parseValue(), destination)
        },
        readJSON: readJSON,
        storeNil: none.map { none in { none.store(at: $0) } },
        styled: { decoder(for: type, style: $0) })
    }
    return make(type)
  }

  static func encoder(for type: any Encodable.Type, style: JSON.KeyStyle) -> EncodeCodec {
    func make<T: Encodable>(_: T.Type) -> EncodeCodec {
      let optional = T.self as? any NilInitializable.Type
      let writeJSON: EncodeCodec.WriteJSON = { value in
        try JSONValueEncoder.encode(RawValue.load(value, as: T.self), style: style)
      }
      return EncodeCodec(
        T.self,
        writeBytes: { value, writer in
          // Straight to the bytes; when that gives up, through `JSON` (the reference).
          if ByteEncoding.encode(RawValue.load(value, as: T.self), style: style, &writer) {
            return
          }
          try writer.write(writeJSON(value))
        },
        writeJSON: writeJSON, isNil: optional.map { optional in { optional.isNil(at: $0) } },
        styled: { encoder(for: type, style: $0) })
    }
    return make(type)
  }
}

/// Optionals of `Codable`-only types (`Money?`), read by AutoMap's optional rule around the
/// wrapped type's codec above rather than by the standard library's `Optional.init(from:)`:
/// the same values and errors (`null` is `nil`, anything else is the wrapped type's), the
/// same coding path (the wrapped value is read at the optional's place), without that
/// unspecialized code's lookup of `Money?`'s metadata for each value (about 330
/// instructions).
///
/// (Arrays of them still go through `Array.init(from:)`: read element by element here, each
/// element's `init(from:)` would see a coding path that starts at the element, not at the
/// array.)
protocol CodableContainer {
  static func codableCodec(style: JSON.KeyStyle) -> DecodeCodec
}

extension Optional: CodableContainer where Wrapped: Decodable {
  static func codableCodec(style: JSON.KeyStyle) -> DecodeCodec {
    optionalCodec(CodableCodecs.decoder(for: Wrapped.self, style: style)) {
      codableCodec(style: $0)
    }
  }
}
