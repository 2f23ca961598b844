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
    let reference = make(type)
    // `[Money]`: on bytes, each element on its own (see ``CodableArray``).
    if let array = type as? any CodableArray.Type, array.readsElementsAlone {
      return array.codableArrayCodec(reference, style: style)
    }
    return reference
  }

  static func encoder(for type: any Encodable.Type, style: JSON.KeyStyle) -> EncodeCodec {
    // `Money?`: AutoMap's own optional rule around `Money`'s codec, as for decoding.
    if let container = type as? any CodableEncodingContainer.Type {
      return container.codableEncodeCodec(style: style)
    }
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
/// (Arrays of them: see ``CodableArray``.)
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

/// Optionals of `Codable`-only types (`Money?`) on the way out: `nil` is `null`, anything else
/// is the wrapped type's, at the optional's place. Through the standard library's
/// `Optional.encode(to:)`, the reference counted the optional as a nesting level of its own,
/// which the document does not have: a `Money?` at the depth bound was refused by `json` and
/// written by `jsonData()`.
protocol CodableEncodingContainer {
  static func codableEncodeCodec(style: JSON.KeyStyle) -> EncodeCodec
}

extension Optional: CodableEncodingContainer where Wrapped: Encodable {
  static func codableEncodeCodec(style: JSON.KeyStyle) -> EncodeCodec {
    optionalEncodeCodec(CodableCodecs.encoder(for: Wrapped.self, style: style)) {
      codableEncodeCodec(style: $0)
    }
  }
}

/// Arrays of `Codable`-only values (`[Money]`), read from bytes element by element around the
/// element's `init(from:)`, rather than as one value by the standard library's
/// `Array.init(from:)`, which is not specialized for the element type and looks the array's
/// and its storage's types up for each element.
///
/// What `init(from:)` sees is the same: each element's coding path starts at its index
/// (`[2]`), as under `Array.init(from:)`. An element the byte decoder gives up on is decoded
/// again alone, through the reference at that place; anything that is not an array, and every
/// read through `JSON` values (the reference, where errors are reported and collected), goes
/// through `Array.init(from:)` as before. An error thrown on the byte path is never the
/// caller's: the document is then decoded again through `JSON` values.
protocol CodableArray: Decodable {
  /// Whether the elements are plain `Codable` values, read here one by one (optionals keep
  /// the standard library's rules for their elements).
  static var readsElementsAlone: Bool { get }
  static func readCodableElements(_ reader: inout JSONReader, style: JSON.KeyStyle) throws
    -> Self
}

extension CodableArray {
  /// The codec of `Self`, the array type, built where it arrives as a type parameter: code in
  /// `extension Array` looks `[Element]`'s metadata up each time it stores an array (see
  /// ``ElementsCodecProvider``). `reference`: the codec that reads the array as one value.
  static func codableArrayCodec(_ reference: DecodeCodec, style: JSON.KeyStyle) -> DecodeCodec {
    DecodeCodec(
      Self.self,
      readBytes: { reader, destination in
        // Not an array (the reference says what it expected), or a call the byte decoder
        // does not serve: as one value.
        guard ByteDecoding.applies(style), reader.peekByte() == UInt8(ascii: "[") else {
          return try reference.readBytes(&reader, destination)
        }
        RawValue.initialize(destination, to: try readCodableElements(&reader, style: style))
      },
      readJSON: reference.readJSON,
      styled: { CodableCodecs.decoder(for: Self.self, style: $0) })
  }
}

extension Array: CodableArray where Element: Decodable {
  static var readsElementsAlone: Bool { !(Element.self is any CodableContainer.Type) }

  static func readCodableElements(_ reader: inout JSONReader, style: JSON.KeyStyle) throws
    -> [Element]
  {
    try readEach(&reader) { reader, position, slot in
      if ByteDecoding.decode(Element.self, &reader, style: style, into: slot, at: .index(position))
      {
        return true
      }
      let json = try reader.parseValue()
      RawValue.initialize(
        slot,
        to: try JSONValueDecoder.decode(
          Element.self, from: json, style: style, at: CodingPath.root.appending(index: position)))
      return true
    }
  }
}
