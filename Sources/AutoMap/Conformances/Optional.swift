// `Optional`: `null` and absence become `nil`; anything else must decode as the wrapped type.

extension Optional: JSONDecodable, DecodeCodecProvider where Wrapped: JSONDecodable {
  /// `nil` for `null` or no value; otherwise the wrapped type must decode.
  ///
  /// ```swift
  /// let nickname = try String?(decode: json["nickname"])   // nil when absent or null
  /// ```
  public init(decode json: JSON) throws {
    switch json {
    case .null, .missing: self = .none
    default: self = .some(try Wrapped(decode: json))
    }
  }

  static func makeDecodeCodec() -> DecodeCodec {
    let wrapped = CodecCache.decoder(for: Wrapped.self)
    return DecodeCodec(
      Wrapped?.self,
      readBytes: optionalBytes(wrapped.readBytes),
      readJSON: optionalJSON(wrapped.readJSON),
      storeNil: { RawValue.initialize($0, to: Wrapped?.none) },
      lossyReadBytes: wrapped.lossyReadBytes.map { optionalBytes($0) },
      lossyReadJSON: wrapped.lossyReadJSON.map { optionalJSON($0) })
  }

  /// The `Wrapped?` reader for a `Wrapped` reader: `null` is `nil`, anything else is read by
  /// `read` into a temporary and wrapped.
  private static func optionalBytes(_ read: @escaping DecodeCodec.ReadBytes)
    -> DecodeCodec.ReadBytes
  {
    { reader, destination in
      if try reader.consumeNull() {
        RawValue.initialize(destination, to: Wrapped?.none)
        return
      }
      let value = try RawValue.produce(Wrapped.self) { try read(&reader, $0) }
      RawValue.initialize(destination, to: Wrapped?.some(value))
    }
  }

  /// ``optionalBytes(_:)`` for `JSON`: `null` and absence are `nil`.
  private static func optionalJSON(_ read: @escaping DecodeCodec.ReadJSON) -> DecodeCodec.ReadJSON {
    { json, destination in
      if json.isNullOrMissing {
        RawValue.initialize(destination, to: Wrapped?.none)
        return
      }
      let value = try RawValue.produce(Wrapped.self) { try read(json, $0) }
      RawValue.initialize(destination, to: Wrapped?.some(value))
    }
  }
}

extension Optional: JSONEncodable, EncodeCodecProvider where Wrapped: JSONEncodable {
  /// `nil` is `null`.
  public var json: JSON {
    get throws {
      guard let value = self else { return .null }
      return try value.json
    }
  }

  static func makeEncodeCodec() -> EncodeCodec {
    let wrapped = CodecCache.encoder(for: Wrapped.self)
    return EncodeCodec(
      Wrapped?.self,
      writeBytes: { value, writer in
        if let unwrapped = RawValue.load(value, as: Wrapped?.self) {
          try withUnsafePointer(to: unwrapped) { try wrapped.writeBytes($0, &writer) }
        } else {
          writer.writeNull()
        }
      },
      writeJSON: { value in
        guard let unwrapped = RawValue.load(value, as: Wrapped?.self) else {
          return .null
        }
        return try withUnsafePointer(to: unwrapped) { try wrapped.writeJSON($0) }
      },
      isNil: { RawValue.load($0, as: Wrapped?.self) == nil },
      isEmpty: wrapped.isEmpty.map { isEmpty in
        { value in
          guard let unwrapped = RawValue.load(value, as: Wrapped?.self) else {
            return false
          }
          return withUnsafePointer(to: unwrapped) { isEmpty($0) }
        }
      })
  }
}
extension Optional: JSONMappable {}
