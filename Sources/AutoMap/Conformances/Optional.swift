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
      readBytes: { reader, destination in
        if try reader.consumeNull() {
          destination.initializeMemory(as: Wrapped?.self, to: nil)
          return
        }
        try wrapped.withDecoded(&reader) { value in
          destination.initializeMemory(
            as: Wrapped?.self, to: value.assumingMemoryBound(to: Wrapped.self).move())
        }
      },
      readJSON: { json, destination in
        switch json {
        case .null, .missing: destination.initializeMemory(as: Wrapped?.self, to: nil)
        default:
          let temporary = UnsafeMutablePointer<Wrapped>.allocate(capacity: 1)
          defer { temporary.deallocate() }
          try wrapped.readJSON(json, UnsafeMutableRawPointer(temporary))
          destination.initializeMemory(as: Wrapped?.self, to: temporary.move())
        }
      },
      storeNil: { $0.initializeMemory(as: Wrapped?.self, to: nil) },
      lossyReadBytes: wrapped.lossyReadBytes.map { lossy in
        { reader, destination in
          if try reader.consumeNull() {
            destination.initializeMemory(as: Wrapped?.self, to: nil)
            return
          }
          let temporary = UnsafeMutablePointer<Wrapped>.allocate(capacity: 1)
          defer { temporary.deallocate() }
          try lossy(&reader, UnsafeMutableRawPointer(temporary))
          destination.initializeMemory(as: Wrapped?.self, to: temporary.move())
        }
      },
      lossyReadJSON: wrapped.lossyReadJSON.map { lossy in
        { json, destination in
          if json.isNullOrMissing {
            destination.initializeMemory(as: Wrapped?.self, to: nil)
            return
          }
          let temporary = UnsafeMutablePointer<Wrapped>.allocate(capacity: 1)
          defer { temporary.deallocate() }
          try lossy(json, UnsafeMutableRawPointer(temporary))
          destination.initializeMemory(as: Wrapped?.self, to: temporary.move())
        }
      })
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
