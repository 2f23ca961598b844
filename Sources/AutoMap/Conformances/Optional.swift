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
    optionalCodec(CodecCache.decoder(for: Wrapped.self))
  }
}

extension Optional {
  /// The codec of `Wrapped?` around `wrapped`, the codec of `Wrapped`: `null` (and, from
  /// `JSON`, absence) is `nil`, anything else is `wrapped`'s value.
  static func optionalCodec(
    _ wrapped: DecodeCodec, styled: ((JSON.KeyStyle) -> DecodeCodec)? = nil
  ) -> DecodeCodec {
    let none = NoneBytes(Wrapped.self)
    return DecodeCodec(
      Wrapped?.self,
      readBytes: optionalBytes(wrapped.readBytes, none),
      readJSON: optionalJSON(wrapped.readJSON, none),
      storeNil: { none.store(at: $0) },
      lossyReadBytes: wrapped.lossyReadBytes.map { optionalBytes($0, none) },
      lossyReadJSON: wrapped.lossyReadJSON.map { optionalJSON($0, none) },
      styled: styled)
  }

  /// The `Wrapped?` reader for a `Wrapped` reader: `null` is `nil`, anything else is read by
  /// `read` into a temporary and wrapped.
  private static func optionalBytes(_ read: @escaping DecodeCodec.ReadBytes, _ none: NoneBytes)
    -> DecodeCodec.ReadBytes
  {
    { reader, destination in
      if try reader.consumeNull() {
        none.store(at: destination)
        return
      }
      let value = try RawValue.produce(Wrapped.self) { try read(&reader, $0) }
      RawValue.initialize(destination, to: Wrapped?.some(value))
    }
  }

  /// ``optionalBytes(_:_:)`` for `JSON`: `null` and absence are `nil`.
  private static func optionalJSON(_ read: @escaping DecodeCodec.ReadJSON, _ none: NoneBytes)
    -> DecodeCodec.ReadJSON
  {
    { json, destination in
      if json.isNullOrMissing {
        none.store(at: destination)
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
    optionalEncodeCodec(CodecCache.encoder(for: Wrapped.self))
  }
}

extension Optional {
  /// The codec of `Wrapped?` around `wrapped`, the codec of `Wrapped`: `nil` is `null`,
  /// anything else is `wrapped`'s, written at the optional's place (no level of its own).
  static func optionalEncodeCodec(
    _ wrapped: EncodeCodec, styled: ((JSON.KeyStyle) -> EncodeCodec)? = nil
  ) -> EncodeCodec {
    EncodeCodec(
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
      },
      styled: styled)
  }
}
extension Optional: JSONMappable {}

/// One `nil` of `Wrapped?`, made once, whose bytes are copied to store `nil`.
///
/// Storing `Wrapped?.none` in code that knows `Wrapped` only at run time looks up the
/// metadata of `Optional<Wrapped>` (about 450 instructions) for every absent or null
/// optional. `nil` holds no payload, so its bytes are a complete copy of it.
final class NoneBytes: @unchecked Sendable {
  private let address: UnsafeMutableRawPointer
  private let size: Int

  init<Wrapped>(_: Wrapped.Type) {
    size = MemoryLayout<Wrapped?>.size
    address = RawValue.allocate(size: size, alignment: MemoryLayout<Wrapped?>.alignment)
    RawValue.initialize(address, to: Wrapped?.none)
  }

  deinit { address.deallocate() }

  /// Initializes the uninitialized optional at `target` to `nil`.
  @inline(__always)
  func store(at target: UnsafeMutableRawPointer) {
    RawValue.copyNone(from: address, to: target, size: size)
  }
}
