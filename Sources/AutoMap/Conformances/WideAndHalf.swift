// `Int128` and `UInt128`, exact across their whole range, and `Float16` where the platform has
// it. A number beyond 64 bits is kept in `JSON.Number` as its text, and read from it digit by
// digit; the byte path reads such values through `JSON` (they are rare).

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension Int128: JSONDecodable, JSONEncodable, DefaultInitable, DecodeCodecProvider,
  EncodeCodecProvider, JSONKeyRepresentable
{
  static func makeDecodeCodec() -> DecodeCodec { wideIntegerDecodeCodec(Int128.self) }
  static func makeEncodeCodec() -> EncodeCodec { wideIntegerEncodeCodec(Int128.self) }
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension UInt128: JSONDecodable, JSONEncodable, DefaultInitable, DecodeCodecProvider,
  EncodeCodecProvider, JSONKeyRepresentable
{
  static func makeDecodeCodec() -> DecodeCodec { wideIntegerDecodeCodec(UInt128.self) }
  static func makeEncodeCodec() -> EncodeCodec { wideIntegerEncodeCodec(UInt128.self) }
}

private func wideIntegerDecodeCodec<T: FixedWidthInteger & JSONDecodable>(_: T.Type)
  -> DecodeCodec
{
  leafDecodeCodec(T.self) { reader in
    guard let byte = reader.peekByte(),
      byte == UInt8(ascii: "-") || byte &- UInt8(ascii: "0") < 10
    else { throw reader.mismatch(expected: typeName(T.self)) }
    return try T(decode: reader.parseValue())
  }
}

private func wideIntegerEncodeCodec<T: FixedWidthInteger & JSONEncodable>(_: T.Type)
  -> EncodeCodec
{
  leafEncodeCodec(T.self) { value, writer in try writer.write(JSON(value)) }
}

extension JSON.Number {
  /// The exact value as an integer type wider than 64 bits, when it is integral and fits.
  func wideExactly<T: FixedWidthInteger>(_: T.Type) -> T? {
    switch storage {
    case .int(let value): return T(exactly: value)
    case .uint(let value): return T(exactly: value)
    case .double(let value): return value.isFinite ? T(exactly: value) : nil
    case .decimal(let double, let significand, let exponent):
      let digits = String(significand).utf8.map { $0 &- UInt8(ascii: "0") }
      return DecimalDigits.exactly(
        T.self, negative: double.sign == .minus, digits: digits, exponent: Int(exponent))
    case .text(let text):
      let (negative, digits, exponent) = DecimalDigits.split(text.text)
      return DecimalDigits.exactly(T.self, negative: negative, digits: digits, exponent: exponent)
    }
  }
}

extension DecimalDigits {
  /// `digits × 10^exponent`, with its sign, as `T` when it is an integer that fits.
  static func exactly<T: FixedWidthInteger>(
    _: T.Type, negative: Bool, digits: [UInt8], exponent: Int
  ) -> T? {
    var digits = digits[...]
    var exponent = exponent
    while digits.last == 0 {
      digits.removeLast()
      exponent += 1
    }
    if digits.isEmpty { return 0 }  // `-0` too
    // 40 digits exceed any 128-bit value; checked before any zeros are made.
    guard exponent >= 0, digits.count + exponent <= 40 else { return nil }
    var magnitude: T.Magnitude = 0
    for digit in digits + repeatElement(0, count: exponent) {
      let (tens, overflow) = magnitude.multipliedReportingOverflow(by: 10)
      let (sum, carry) = tens.addingReportingOverflow(T.Magnitude(digit))
      if overflow || carry { return nil }
      magnitude = sum
    }
    guard negative else { return T(exactly: magnitude) }
    guard T.isSigned else { return nil }
    if magnitude == T.min.magnitude { return T.min }
    return T(exactly: magnitude).map { 0 - $0 }
  }
}

#if !((os(macOS) || targetEnvironment(macCatalyst)) && arch(x86_64))
  @available(macOS 11.0, iOS 14.0, watchOS 7.0, tvOS 14.0, *)
  extension Float16: JSONDecodable, JSONEncodable, DefaultInitable, DecodeCodecProvider,
    EncodeCodecProvider
  {
    /// Reads any JSON number within `Float16`'s range (±65504), rounded to the nearest
    /// `Float16` through the nearest `Double`.
    public init(decode json: JSON) throws { self = try narrowFloat(json) }

    /// The shortest decimal form of the `Float16` (`0.1` stays `0.1`).
    public var json: JSON { isFinite ? JSON(shortestDouble(self)) : NonFinite.json(self) }

    static func makeDecodeCodec() -> DecodeCodec { narrowFloatDecodeCodec(Float16.self) }
    static func makeEncodeCodec() -> EncodeCodec { narrowFloatEncodeCodec(Float16.self) }
  }
#endif
