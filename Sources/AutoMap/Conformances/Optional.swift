// `Optional`: `null` and absence become `nil`; anything else must decode as the wrapped type.

extension Optional: JSONDecodable, DecodeCodecProvider where Wrapped: JSONDecodable {
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
      storeNil: { $0.initializeMemory(as: Wrapped?.self, to: nil) },
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
        destination.initializeMemory(as: Wrapped?.self, to: nil)
        return
      }
      let temporary = UnsafeMutablePointer<Wrapped>.allocate(capacity: 1)
      defer { temporary.deallocate() }
      try read(&reader, UnsafeMutableRawPointer(temporary))
      destination.initializeMemory(as: Wrapped?.self, to: temporary.move())
    }
  }

  /// ``optionalBytes(_:)`` for `JSON`: `null` and absence are `nil`.
  private static func optionalJSON(_ read: @escaping DecodeCodec.ReadJSON) -> DecodeCodec.ReadJSON {
    { json, destination in
      if json.isNullOrMissing {
        destination.initializeMemory(as: Wrapped?.self, to: nil)
        return
      }
      let temporary = UnsafeMutablePointer<Wrapped>.allocate(capacity: 1)
      defer { temporary.deallocate() }
      try read(json, UnsafeMutableRawPointer(temporary))
      destination.initializeMemory(as: Wrapped?.self, to: temporary.move())
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
        if let unwrapped = value.assumingMemoryBound(to: Wrapped?.self).pointee {
          try withUnsafePointer(to: unwrapped) { try wrapped.writeBytes($0, &writer) }
        } else {
          writer.writeNull()
        }
      },
      writeJSON: { value in
        guard let unwrapped = value.assumingMemoryBound(to: Wrapped?.self).pointee else {
          return .null
        }
        return try withUnsafePointer(to: unwrapped) { try wrapped.writeJSON($0) }
      },
      isNil: { $0.assumingMemoryBound(to: Wrapped?.self).pointee == nil },
      isEmpty: wrapped.isEmpty.map { isEmpty in
        { value in
          guard let unwrapped = value.assumingMemoryBound(to: Wrapped?.self).pointee else {
            return false
          }
          return withUnsafePointer(to: unwrapped) { isEmpty($0) }
        }
      })
  }
}
extension Optional: JSONMappable {}
