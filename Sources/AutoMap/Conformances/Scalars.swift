// The scalar leaf types: integers, floating point, Bool and String. Each decodes from bytes
// through a codec specialised for it, and from `JSON` through `init(decode:)`.

extension JSONDecodable where Self: FixedWidthInteger {
  /// Reads an integral JSON number that fits exactly; anything else is an error.
  public init(decode json: JSON) throws {
    guard case .number(let number) = json else {
      throw JSON.Error.mismatch(expected: typeName(Self.self), found: json)
    }
    guard let value = number.exactly(Self.self) else {
      throw JSON.Error.integerMismatch(Self.self, number)
    }
    self = value
  }
}

extension JSONEncodable where Self: FixedWidthInteger {
  /// Writes the integer exactly.
  public var json: JSON { JSON(self) }
}

/// The codec of a leaf type that bytes are read into by `read`; from `JSON` it reads through
/// its own `init(decode:)`.
func leafDecodeCodec<T: JSONDecodable>(
  _: T.Type, read: @escaping (inout JSONReader) throws -> T
) -> DecodeCodec {
  DecodeCodec(
    T.self,
    readBytes: { reader, destination in
      RawValue.initialize(destination, to: try read(&reader))
    },
    readJSON: { json, destination in
      RawValue.initialize(destination, to: try T(decode: json))
    })
}

/// The codec of a leaf type written to bytes by `write`; to `JSON` through its own `json`.
func leafEncodeCodec<T: JSONEncodable>(
  _: T.Type, isEmpty: ((T) -> Bool)? = nil, write: @escaping (T, inout JSONWriter) throws -> Void
) -> EncodeCodec {
  EncodeCodec(
    T.self,
    writeBytes: { value, writer in try write(RawValue.load(value, as: T.self), &writer) },
    writeJSON: { value in try RawValue.load(value, as: T.self).json },
    isEmpty: isEmpty.map { isEmpty in { isEmpty(RawValue.load($0, as: T.self)) } })
}

func integerDecodeCodec<T: FixedWidthInteger & JSONDecodable>(_: T.Type) -> DecodeCodec {
  leafDecodeCodec(T.self) { try $0.readInteger(T.self) }
}

func integerEncodeCodec<T: FixedWidthInteger & JSONEncodable>(_: T.Type) -> EncodeCodec {
  leafEncodeCodec(T.self) { value, writer in writer.writeInteger(value) }
}

extension Int: JSONDecodable, JSONEncodable, DefaultInitable, DecodeCodecProvider,
  EncodeCodecProvider
{
  static func makeDecodeCodec() -> DecodeCodec { integerDecodeCodec(Int.self) }
  static func makeEncodeCodec() -> EncodeCodec { integerEncodeCodec(Int.self) }
}
extension Int8: JSONDecodable, JSONEncodable, DefaultInitable, DecodeCodecProvider,
  EncodeCodecProvider
{
  static func makeDecodeCodec() -> DecodeCodec { integerDecodeCodec(Int8.self) }
  static func makeEncodeCodec() -> EncodeCodec { integerEncodeCodec(Int8.self) }
}
extension Int16: JSONDecodable, JSONEncodable, DefaultInitable, DecodeCodecProvider,
  EncodeCodecProvider
{
  static func makeDecodeCodec() -> DecodeCodec { integerDecodeCodec(Int16.self) }
  static func makeEncodeCodec() -> EncodeCodec { integerEncodeCodec(Int16.self) }
}
extension Int32: JSONDecodable, JSONEncodable, DefaultInitable, DecodeCodecProvider,
  EncodeCodecProvider
{
  static func makeDecodeCodec() -> DecodeCodec { integerDecodeCodec(Int32.self) }
  static func makeEncodeCodec() -> EncodeCodec { integerEncodeCodec(Int32.self) }
}
extension Int64: JSONDecodable, JSONEncodable, DefaultInitable, DecodeCodecProvider,
  EncodeCodecProvider
{
  static func makeDecodeCodec() -> DecodeCodec { integerDecodeCodec(Int64.self) }
  static func makeEncodeCodec() -> EncodeCodec { integerEncodeCodec(Int64.self) }
}
extension UInt: JSONDecodable, JSONEncodable, DefaultInitable, DecodeCodecProvider,
  EncodeCodecProvider
{
  static func makeDecodeCodec() -> DecodeCodec { integerDecodeCodec(UInt.self) }
  static func makeEncodeCodec() -> EncodeCodec { integerEncodeCodec(UInt.self) }
}
extension UInt8: JSONDecodable, JSONEncodable, DefaultInitable, DecodeCodecProvider,
  EncodeCodecProvider
{
  static func makeDecodeCodec() -> DecodeCodec { integerDecodeCodec(UInt8.self) }
  static func makeEncodeCodec() -> EncodeCodec { integerEncodeCodec(UInt8.self) }
}
extension UInt16: JSONDecodable, JSONEncodable, DefaultInitable, DecodeCodecProvider,
  EncodeCodecProvider
{
  static func makeDecodeCodec() -> DecodeCodec { integerDecodeCodec(UInt16.self) }
  static func makeEncodeCodec() -> EncodeCodec { integerEncodeCodec(UInt16.self) }
}
extension UInt32: JSONDecodable, JSONEncodable, DefaultInitable, DecodeCodecProvider,
  EncodeCodecProvider
{
  static func makeDecodeCodec() -> DecodeCodec { integerDecodeCodec(UInt32.self) }
  static func makeEncodeCodec() -> EncodeCodec { integerEncodeCodec(UInt32.self) }
}
extension UInt64: JSONDecodable, JSONEncodable, DefaultInitable, DecodeCodecProvider,
  EncodeCodecProvider
{
  static func makeDecodeCodec() -> DecodeCodec { integerDecodeCodec(UInt64.self) }
  static func makeEncodeCodec() -> EncodeCodec { integerEncodeCodec(UInt64.self) }
}

extension Double: JSONDecodable, JSONEncodable, DefaultInitable, DecodeCodecProvider,
  EncodeCodecProvider
{
  /// Reads any JSON number within `Double`'s range (correctly rounded; `-0` keeps its sign).
  /// A number beyond it (`1e400`) is an error. NaN and ±infinity are read from strings only
  /// when the call's ``JSON/Configuration/nonFiniteNumbers`` says so.
  public init(decode json: JSON) throws {
    guard case .number(let number) = json else {
      self = try NonFinite.decode(json, as: Double.self)
      return
    }
    self = try JSON.Number.finiteDouble(number, for: "Double")
  }

  /// Writes the double in its shortest round-trip form; a non-finite double cannot be
  /// written (the writer throws) unless the call's ``JSON/Configuration/nonFiniteNumbers``
  /// writes it as a string.
  public var json: JSON { isFinite ? JSON(self) : NonFinite.json(self) }

  static func makeDecodeCodec() -> DecodeCodec {
    leafDecodeCodec(Double.self) { try $0.readConfiguredDouble() }
  }

  static func makeEncodeCodec() -> EncodeCodec {
    leafEncodeCodec(Double.self) { value, writer in try writer.writeConfiguredDouble(value) }
  }
}

extension Float: JSONDecodable, JSONEncodable, DefaultInitable, DecodeCodecProvider,
  EncodeCodecProvider
{
  /// Reads any JSON number within `Float`'s range (rounded to the nearest `Float`).
  public init(decode json: JSON) throws { self = try narrowFloat(json) }

  /// The shortest decimal form of the `Float` (so `0.1` stays `0.1`).
  public var json: JSON { isFinite ? JSON(shortestDouble(self)) : NonFinite.json(self) }

  static func makeDecodeCodec() -> DecodeCodec { narrowFloatDecodeCodec(Float.self) }
  static func makeEncodeCodec() -> EncodeCodec { narrowFloatEncodeCodec(Float.self) }
}

// Floating-point types narrower than `Double` (`Float`, `Float16`): read through the nearest
// `Double`, written in their own shortest form.

/// A narrower float from a JSON number; one beyond the type's range is an error.
func narrowFloat<T: BinaryFloatingPoint>(_ json: JSON) throws -> T {
  guard case .number(let number) = json else { return try NonFinite.decode(json, as: T.self) }
  return try narrowing(JSON.Number.finiteDouble(number, for: typeName(T.self)))
}

func narrowing<T: BinaryFloatingPoint>(_ double: Double) throws -> T {
  let value = T(double)
  guard value.isFinite else {
    throw JSON.Error(
      .typeMismatch, "expected \(typeName(T.self)), found number \(double) (out of range)")
  }
  return value
}

/// The `Double` whose shortest form is the value's own shortest form (`0.1` as `Float` is
/// written `0.1`, not `0.10000000149011612`).
func shortestDouble<T: BinaryFloatingPoint & LosslessStringConvertible>(_ value: T) -> Double {
  Double(value.description) ?? Double(value)
}

func narrowFloatDecodeCodec<T: BinaryFloatingPoint & JSONDecodable>(_: T.Type) -> DecodeCodec {
  leafDecodeCodec(T.self) { reader in
    guard let byte = reader.peekByte(),
      byte == UInt8(ascii: "-") || byte &- UInt8(ascii: "0") < 10
    else {
      return try reader.readNonFinite(T.self, after: reader.mismatch(expected: typeName(T.self)))
    }
    return try narrowing(reader.readFiniteDouble(for: typeName(T.self)))
  }
}

func narrowFloatEncodeCodec<T: BinaryFloatingPoint & LosslessStringConvertible & JSONEncodable>(
  _: T.Type
) -> EncodeCodec {
  leafEncodeCodec(T.self) { value, writer in
    guard value.isFinite else {
      return try writer.writeNonFinite(value, after: nonFiniteError(value))
    }
    try writer.writeDouble(shortestDouble(value))
  }
}

extension Bool: JSONDecodable, JSONEncodable, DefaultInitable, DecodeCodecProvider,
  EncodeCodecProvider
{
  /// Reads `true` or `false`; anything else is an error (`.lossless` accepts more).
  public init(decode json: JSON) throws {
    guard case .bool(let value) = json else {
      throw JSON.Error.mismatch(expected: "Bool", found: json)
    }
    self = value
  }

  /// Writes `true` or `false`.
  public var json: JSON { .bool(self) }

  static func makeDecodeCodec() -> DecodeCodec {
    leafDecodeCodec(Bool.self) { try $0.readBool() }
  }

  static func makeEncodeCodec() -> EncodeCodec {
    leafEncodeCodec(Bool.self) { value, writer in writer.writeBool(value) }
  }
}

extension String: JSONDecodable, JSONEncodable, DefaultInitable, DecodeCodecProvider,
  EncodeCodecProvider
{
  /// Reads a JSON string; anything else is an error (`.lossless` accepts numbers and bools).
  public init(decode json: JSON) throws {
    guard case .string(let value) = json else {
      throw JSON.Error.mismatch(expected: "String", found: json)
    }
    self = value
  }

  /// Writes a JSON string, escaped as RFC 8259 requires.
  public var json: JSON { .string(self) }

  static func makeDecodeCodec() -> DecodeCodec {
    leafDecodeCodec(String.self) { try $0.readStringValue() }
  }

  static func makeEncodeCodec() -> EncodeCodec {
    leafEncodeCodec(String.self, isEmpty: \.isEmpty) { value, writer in writer.writeString(value) }
  }
}

extension JSON: JSONDecodable, JSONEncodable, DefaultInitable, DecodeCodecProvider,
  EncodeCodecProvider
{
  /// A `JSON` property takes whatever is there; only absence is an error, and nesting past
  /// ``maximumDepth`` where the value sits, as in the bytes.
  public init(decode json: JSON) throws {
    if case .missing(let error) = json { throw error }
    try Nesting.checkFits(json, encoding: false)
    self = json
  }

  /// `null`.
  public init() { self = .null }

  /// The value itself, where it fits: nested deeper than ``maximumDepth`` from where it is
  /// encoded, it is the depth error that writing it as bytes throws.
  ///
  /// ```swift
  /// struct Event: JSONCodable { var payload: JSON }
  /// try Event(payload: ["a": [1, 2]]).json  // {"payload":{"a":[1,2]}}
  /// ```
  public var json: JSON {
    get throws {
      try Nesting.checkFits(self, encoding: true)
      return self
    }
  }

  static func makeDecodeCodec() -> DecodeCodec {
    leafDecodeCodec(JSON.self) { try $0.parseValue() }
  }

  static func makeEncodeCodec() -> EncodeCodec {
    leafEncodeCodec(JSON.self) { value, writer in try writer.write(value) }
  }
}

/// What writing a non-finite `value` throws when no configuration writes it as a string.
func nonFiniteError<T: BinaryFloatingPoint>(_ value: T) -> JSON.Error {
  JSON.Error(.unencodable, "\(value) cannot be written as JSON: numbers must be finite")
}
