import Foundation

extension SchemaBuilder {
  /// The schema of AutoMap's leaf types, `nil` for any other type.
  func leafSchema(_ type: Any.Type) -> JSON? {
    switch ObjectIdentifier(type) {
    case ObjectIdentifier(String.self): return ["type": "string"]
    case ObjectIdentifier(Bool.self): return ["type": "boolean"]
    case ObjectIdentifier(Int.self): return Self.integer(Int.self)
    case ObjectIdentifier(Int8.self): return Self.integer(Int8.self)
    case ObjectIdentifier(Int16.self): return Self.integer(Int16.self)
    case ObjectIdentifier(Int32.self): return Self.integer(Int32.self)
    case ObjectIdentifier(Int64.self): return Self.integer(Int64.self)
    case ObjectIdentifier(UInt.self): return Self.integer(UInt.self)
    case ObjectIdentifier(UInt8.self): return Self.integer(UInt8.self)
    case ObjectIdentifier(UInt16.self): return Self.integer(UInt16.self)
    case ObjectIdentifier(UInt32.self): return Self.integer(UInt32.self)
    case ObjectIdentifier(UInt64.self): return Self.integer(UInt64.self)
    case ObjectIdentifier(Double.self), ObjectIdentifier(Decimal.self):
      return Self.number(nonFinite: type != Decimal.self)
    case ObjectIdentifier(Float.self):
      let bound = JSON.number(JSON.Number(Double(Float.greatestFiniteMagnitude)))
      var schema = Self.number(nonFinite: true)
      if case .object(var members) = schema, members["type"] != nil {
        members["minimum"] = JSON.number(JSON.Number(-Double(Float.greatestFiniteMagnitude)))
        members["maximum"] = bound
        schema = .object(members)
      }
      return schema
    case ObjectIdentifier(Date.self): return Self.date(DateTransform.forCall)
    case ObjectIdentifier(URL.self): return ["type": "string", "format": "uri-reference"]
    case ObjectIdentifier(UUID.self): return ["type": "string", "format": "uuid"]
    case ObjectIdentifier(Data.self):
      return Self.data(ConfigurationContext.current?.dataEncoding ?? .base64)
    case ObjectIdentifier(JSON.self): return [:]
    default: return wideLeafSchema(type)
    }
  }

  private func wideLeafSchema(_ type: Any.Type) -> JSON? {
    if #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) {
      if type == Int128.self || type == UInt128.self {
        // Bounds past 64 bits: written as exact integers.
        let (low, high) =
          type == Int128.self
          ? (String(Int128.min), String(Int128.max)) : ("0", String(UInt128.max))
        var schema: JSON.Object = ["type": "integer"]
        if let low = try? JSON(strictString: low), let high = try? JSON(strictString: high) {
          schema["minimum"] = low
          schema["maximum"] = high
        }
        return .object(schema)
      }
    }
    #if !((os(macOS) || targetEnvironment(macCatalyst)) && arch(x86_64))
      if #available(macOS 11.0, iOS 14.0, watchOS 7.0, tvOS 14.0, *), type == Float16.self {
        return ["type": "number", "minimum": -65504, "maximum": 65504]
      }
    #endif
    return nil
  }

  /// An integer type's schema, with its bounds.
  static func integer<I: FixedWidthInteger>(_: I.Type) -> JSON {
    let low: JSON = I.isSigned ? .number(JSON.Number(Int64(I.min))) : 0
    let high: JSON =
      I.bitWidth <= 63 || I.isSigned
      ? .number(JSON.Number(Int64(I.max))) : .number(JSON.Number(UInt64(I.max)))
    return ["type": "integer", "minimum": low, "maximum": high]
  }

  /// A floating-point number; with non-finite numbers written as strings (the
  /// configuration's `nonFiniteNumbers`), those strings too.
  static func number(nonFinite: Bool) -> JSON {
    guard nonFinite,
      case .strings(let infinity, let negativeInfinity, let nan)? =
        ConfigurationContext.current?.nonFiniteNumbers
    else { return ["type": "number"] }
    return [
      "anyOf": [
        ["type": "number"],
        ["enum": [.string(infinity), .string(negativeInfinity), .string(nan)]],
      ]
    ]
  }

  /// A date as `transform` writes it.
  static func date(_ transform: DateTransform) -> JSON {
    switch transform.kind {
    case .iso8601: ["type": "string", "format": "date-time"]
    case .seconds, .milliseconds: ["type": "number"]
    case .formatter, .rfc1123: ["type": "string"]
    case .oneOf: ["anyOf": .array(transform.formats.map(date))]
    }
  }

  /// Data as `encoding` writes it.
  static func data(_ encoding: JSON.DataEncoding) -> JSON {
    switch encoding {
    case .base64: ["type": "string", "contentEncoding": "base64"]
    case .base64URL:
      ["type": "string", "contentEncoding": "base64url", "pattern": "^[A-Za-z0-9_-]*=*$"]
    case .hex: ["type": "string", "contentEncoding": "base16", "pattern": "^([0-9A-Fa-f]{2})*$"]
    }
  }
}
