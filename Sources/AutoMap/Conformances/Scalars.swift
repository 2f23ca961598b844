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
  public var json: JSON { JSON(self) }
}

func integerDecodeCodec<T: FixedWidthInteger & JSONDecodable>(_: T.Type) -> DecodeCodec {
  DecodeCodec(
    T.self,
    readBytes: { reader, destination in
      destination.initializeMemory(as: T.self, to: try reader.readInteger(T.self))
    },
    readJSON: { json, destination in
      destination.initializeMemory(as: T.self, to: try T(decode: json))
    })
}

func integerEncodeCodec<T: FixedWidthInteger>(_: T.Type) -> EncodeCodec {
  EncodeCodec(
    T.self,
    writeBytes: { value, writer in writer.writeInteger(value.load(as: T.self)) },
    writeJSON: { value in JSON(value.load(as: T.self)) })
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
  /// Reads any JSON number.
  public init(decode json: JSON) throws {
    guard case .number(let number) = json else {
      throw JSON.Error.mismatch(expected: "Double", found: json)
    }
    self = number.doubleValue
  }

  public var json: JSON { JSON(self) }

  static func makeDecodeCodec() -> DecodeCodec {
    DecodeCodec(
      Double.self,
      readBytes: { reader, destination in
        destination.initializeMemory(as: Double.self, to: try reader.readDouble())
      },
      readJSON: { json, destination in
        destination.initializeMemory(as: Double.self, to: try Double(decode: json))
      })
  }

  static func makeEncodeCodec() -> EncodeCodec {
    EncodeCodec(
      Double.self,
      writeBytes: { value, writer in try writer.writeDouble(value.load(as: Double.self)) },
      writeJSON: { value in JSON(value.load(as: Double.self)) })
  }
}

extension Float: JSONDecodable, JSONEncodable, DefaultInitable, DecodeCodecProvider,
  EncodeCodecProvider
{
  /// Reads any JSON number within `Float`'s range (rounded to the nearest `Float`).
  public init(decode json: JSON) throws {
    self = try Float.narrowing(Double(decode: json))
  }

  static func narrowing(_ double: Double) throws -> Float {
    let value = Float(double)
    guard value.isFinite else {
      throw JSON.Error(.typeMismatch, "expected Float, found number \(double) (out of range)")
    }
    return value
  }

  /// The shortest decimal form of the `Float` (so `0.1` stays `0.1`).
  public var json: JSON { JSON(Double(description) ?? Double(self)) }

  static func makeDecodeCodec() -> DecodeCodec {
    DecodeCodec(
      Float.self,
      readBytes: { reader, destination in
        destination.initializeMemory(as: Float.self, to: try Float.narrowing(reader.readDouble()))
      },
      readJSON: { json, destination in
        destination.initializeMemory(as: Float.self, to: try Float(decode: json))
      })
  }

  static func makeEncodeCodec() -> EncodeCodec {
    EncodeCodec(
      Float.self,
      writeBytes: { value, writer in
        let float = value.load(as: Float.self)
        try writer.writeDouble(Double(float.description) ?? Double(float))
      },
      writeJSON: { value in value.load(as: Float.self).json })
  }
}

extension Bool: JSONDecodable, JSONEncodable, DefaultInitable, DecodeCodecProvider,
  EncodeCodecProvider
{
  public init(decode json: JSON) throws {
    guard case .bool(let value) = json else {
      throw JSON.Error.mismatch(expected: "Bool", found: json)
    }
    self = value
  }

  public var json: JSON { .bool(self) }

  static func makeDecodeCodec() -> DecodeCodec {
    DecodeCodec(
      Bool.self,
      readBytes: { reader, destination in
        destination.initializeMemory(as: Bool.self, to: try reader.readBool())
      },
      readJSON: { json, destination in
        destination.initializeMemory(as: Bool.self, to: try Bool(decode: json))
      })
  }

  static func makeEncodeCodec() -> EncodeCodec {
    EncodeCodec(
      Bool.self,
      writeBytes: { value, writer in writer.writeBool(value.load(as: Bool.self)) },
      writeJSON: { value in .bool(value.load(as: Bool.self)) })
  }
}

extension String: JSONDecodable, JSONEncodable, DefaultInitable, DecodeCodecProvider,
  EncodeCodecProvider
{
  public init(decode json: JSON) throws {
    guard case .string(let value) = json else {
      throw JSON.Error.mismatch(expected: "String", found: json)
    }
    self = value
  }

  public var json: JSON { .string(self) }

  static func makeDecodeCodec() -> DecodeCodec {
    DecodeCodec(
      String.self,
      readBytes: { reader, destination in
        destination.initializeMemory(as: String.self, to: try reader.readStringValue())
      },
      readJSON: { json, destination in
        destination.initializeMemory(as: String.self, to: try String(decode: json))
      })
  }

  static func makeEncodeCodec() -> EncodeCodec {
    EncodeCodec(
      String.self,
      writeBytes: { value, writer in writer.writeString(value.load(as: String.self)) },
      writeJSON: { value in .string(value.load(as: String.self)) },
      isEmpty: { $0.load(as: String.self).isEmpty })
  }
}

extension JSON: JSONDecodable, JSONEncodable, DefaultInitable, DecodeCodecProvider,
  EncodeCodecProvider
{
  /// A `JSON` property takes whatever is there; only absence is an error.
  public init(decode json: JSON) throws {
    if case .missing(let error) = json { throw error }
    self = json
  }

  public init() { self = .null }

  public var json: JSON { self }

  static func makeDecodeCodec() -> DecodeCodec {
    DecodeCodec(
      JSON.self,
      readBytes: { reader, destination in
        destination.initializeMemory(as: JSON.self, to: try reader.parseValue())
      },
      readJSON: { json, destination in
        destination.initializeMemory(as: JSON.self, to: try JSON(decode: json))
      })
  }

  static func makeEncodeCodec() -> EncodeCodec {
    EncodeCodec(
      JSON.self,
      writeBytes: { value, writer in try writer.write(value.load(as: JSON.self)) },
      writeJSON: { value in value.load(as: JSON.self) })
  }
}
