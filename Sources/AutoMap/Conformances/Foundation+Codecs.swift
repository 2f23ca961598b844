import Foundation

// Foundation's leaf types have codecs of their own, so that the engine treats them as leaf
// values (never reflected into: `update(from:)` refuses them, and their private storage is
// never touched). Their bytes are read as a `JSON` value first, then converted.

private func foundationDecodeCodec<T: JSONDecodable>(_: T.Type) -> DecodeCodec {
  leafDecodeCodec(T.self) { reader in try T(decode: reader.parseValue()) }
}

private func foundationEncodeCodec<T: JSONEncodable>(_: T.Type) -> EncodeCodec {
  leafEncodeCodec(T.self) { value, writer in try writer.write(value.json) }
}

extension Date: DecodeCodecProvider, EncodeCodecProvider {
  static func makeDecodeCodec() -> DecodeCodec { foundationDecodeCodec(Date.self) }
  static func makeEncodeCodec() -> EncodeCodec { foundationEncodeCodec(Date.self) }
}

extension URL: DecodeCodecProvider, EncodeCodecProvider {
  static func makeDecodeCodec() -> DecodeCodec { foundationDecodeCodec(URL.self) }
  static func makeEncodeCodec() -> EncodeCodec { foundationEncodeCodec(URL.self) }
}

extension UUID: DecodeCodecProvider, EncodeCodecProvider {
  static func makeDecodeCodec() -> DecodeCodec { foundationDecodeCodec(UUID.self) }
  static func makeEncodeCodec() -> EncodeCodec { foundationEncodeCodec(UUID.self) }
}

extension Data: DecodeCodecProvider, EncodeCodecProvider {
  static func makeDecodeCodec() -> DecodeCodec { foundationDecodeCodec(Data.self) }
  static func makeEncodeCodec() -> EncodeCodec { foundationEncodeCodec(Data.self) }
}

extension Decimal: DecodeCodecProvider, EncodeCodecProvider {
  static func makeDecodeCodec() -> DecodeCodec { foundationDecodeCodec(Decimal.self) }
  static func makeEncodeCodec() -> EncodeCodec { foundationEncodeCodec(Decimal.self) }
}
