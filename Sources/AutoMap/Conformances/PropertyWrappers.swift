// Property wrappers that adopt `JSONPropertyWrapper` map through their wrapped value: the
// wrapper's codec is its wrapped value's codec, with `init(wrappedValue:)` around it.

enum PropertyWrapperCodecs {
  static func decoder(_ type: any JSONPropertyWrapper.Type) -> DecodeCodec {
    func make<W: JSONPropertyWrapper>(_: W.Type) -> DecodeCodec {
      let inner = CodecCache.decoder(for: W.WrappedValue.self)
      func wrap(_ read: (UnsafeMutableRawPointer) throws -> Void) rethrows -> W {
        W(wrappedValue: try RawValue.produce(W.WrappedValue.self, read))
      }
      func wrapping(_ read: DecodeCodec.ReadBytes?) -> DecodeCodec.ReadBytes? {
        read.map { read in
          { reader, destination in
            RawValue.initialize(destination, to: try wrap { try read(&reader, $0) })
          }
        }
      }
      func wrapping(_ read: DecodeCodec.ReadJSON?) -> DecodeCodec.ReadJSON? {
        read.map { read in
          { json, destination in
            RawValue.initialize(destination, to: try wrap { try read(json, $0) })
          }
        }
      }
      return DecodeCodec(
        W.self,
        readBytes: wrapping(inner.readBytes as DecodeCodec.ReadBytes?) ?? { _, _ in },
        readJSON: wrapping(inner.readJSON as DecodeCodec.ReadJSON?) ?? { _, _ in },
        storeNil: inner.storeNil.map { storeNil in
          { destination in RawValue.initialize(destination, to: wrap { storeNil($0) }) }
        },
        lossyReadBytes: wrapping(inner.lossyReadBytes),
        lossyReadJSON: wrapping(inner.lossyReadJSON),
        isMappable: inner.isMappable,
        storeWrapped: { value, destination in
          guard let value = value as? W.WrappedValue else { return false }
          RawValue.initialize(destination, to: W(wrappedValue: value))
          return true
        })
    }
    return make(type)
  }

  static func encoder(_ type: any JSONPropertyWrapper.Type) -> EncodeCodec {
    func make<W: JSONPropertyWrapper>(_: W.Type) -> EncodeCodec {
      let inner = CodecCache.encoder(for: W.WrappedValue.self)
      func unwrapped<R>(_ address: UnsafeRawPointer, _ body: (UnsafeRawPointer) throws -> R)
        rethrows
        -> R
      {
        try withUnsafePointer(to: RawValue.load(address, as: W.self).wrappedValue) {
          try body(UnsafeRawPointer($0))
        }
      }
      return EncodeCodec(
        W.self,
        writeBytes: { address, writer in
          try unwrapped(address) { try inner.writeBytes($0, &writer) }
        },
        writeJSON: { address in try unwrapped(address) { try inner.writeJSON($0) } },
        isNil: inner.isNil.map { isNil in { address in unwrapped(address, isNil) } },
        isEmpty: inner.isEmpty.map { isEmpty in { address in unwrapped(address, isEmpty) } },
        isMappable: inner.isMappable,
        load: { address in RawValue.load(address, as: W.self).wrappedValue })
    }
    return make(type)
  }
}
