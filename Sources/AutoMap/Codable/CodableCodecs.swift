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
    func make<T: Decodable>(_: T.Type) -> DecodeCodec {
      let optional = T.self as? any NilInitializable.Type
      let readJSON: DecodeCodec.ReadJSON = { json, destination in
        if let optional, json.isNullOrMissing { return optional.initializeNil(at: destination) }
        RawValue.initialize(
          destination, to: try JSONValueDecoder.decode(T.self, from: json, style: style))
      }
      return DecodeCodec(
        T.self,
        readBytes: { reader, destination in
          if let optional, try reader.consumeNull() {
            return optional.initializeNil(at: destination)
          }
          // Straight from the bytes; when that gives up, through `JSON` (the reference).
          if ByteDecoding.decode(T.self, &reader, style: style, into: destination) { return }
          try readJSON(reader.parseValue(), destination)
        },
        readJSON: readJSON,
        storeNil: optional.map { optional in { optional.initializeNil(at: $0) } },
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
