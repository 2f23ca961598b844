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
    // `[Money]` and `Money?`: AutoMap's own array and optional rules around `Money`'s codec.
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

/// Arrays and optionals of `Codable`-only types, read by AutoMap's own array and optional
/// rules around the element's codec above, rather than by the standard library's
/// `Array.init(from:)` and `Optional.init(from:)`. What they read is the same (`null` is `nil`;
/// an array's elements in order, an error's path starting at the element's position, "expected
/// an array" for anything else), but that code is not specialized for the element type and
/// looks its array and optional types up for each element (about 330 instructions each), and
/// a `[Money]` of elements that give up on the byte path is read again element by element,
/// not as a whole.
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

extension Array: CodableContainer where Element: Decodable {
  static func codableCodec(style: JSON.KeyStyle) -> DecodeCodec {
    codableArrayCodec(CodableCodecs.decoder(for: Element.self, style: style), style: style)
  }
}

/// An array of `Codable`-only elements, its codec built where `Self`, the array type, arrives
/// as a type parameter: code in `extension Array` looks `[Element]`'s metadata up each time it
/// stores an array (see ``ElementsCodecProvider``).
protocol CodableArray: CodableContainer {
  static func readCodableElements(_ reader: inout JSONReader, _ element: DecodeCodec) throws
    -> Self
  static func decodeCodableElements(_ json: JSON, _ element: DecodeCodec) throws -> Self
}

extension CodableArray {
  static func codableArrayCodec(_ element: DecodeCodec, style: JSON.KeyStyle) -> DecodeCodec {
    DecodeCodec(
      Self.self,
      readBytes: { reader, destination in
        RawValue.initialize(destination, to: try readCodableElements(&reader, element))
      },
      readJSON: { json, destination in
        RawValue.initialize(destination, to: try decodeCodableElements(json, element))
      },
      styled: { codableCodec(style: $0) })
  }
}

extension Array: CodableArray where Element: Decodable {
  static func readCodableElements(_ reader: inout JSONReader, _ element: DecodeCodec) throws
    -> [Element]
  {
    // "an array", as the reference `Decoder` says it.
    try readArray(&reader, element, expected: "an array")
  }

  /// The elements of a JSON array, each read by `element`: the `JSON`-path twin of
  /// ``readCodableElements(_:_:)``.
  static func decodeCodableElements(_ json: JSON, _ element: DecodeCodec) throws -> [Element] {
    guard case .array(let elements) = json else {
      throw JSON.Error.mismatch(expected: "an array", found: json)
    }
    return try Nesting.level(encoding: false) {
      try [Element](unsafeUninitializedCapacity: elements.count) { buffer, initialized in
        guard let base = buffer.baseAddress else { return }
        // Each element at its place in the path, recorded substitutions included.
        try Problems.each(elements.indices, at: { .index($0) }) { position in
          try element.readJSON(elements[position], base + initialized)
          initialized += 1
        }
      }
    }
  }
}
