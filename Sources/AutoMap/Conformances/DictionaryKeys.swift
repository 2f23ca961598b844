import Foundation

// The standard key types of `[Key: Value]`: their member-name text both ways.

extension String: JSONKeyRepresentable {
  /// The member name itself.
  public init(jsonKey: String) { self = jsonKey }
  /// The string itself.
  public var jsonKey: String { self }
}

extension JSONKeyRepresentable where Self: FixedWidthInteger {
  /// Reads the canonical decimal form: an optional `-`, then digits with no leading zero
  /// (`"-0"` is not canonical either); anything else, or a value out of range, is an error.
  public init(jsonKey: String) throws {
    let bytes = jsonKey.utf8
    let digits = bytes.first == UInt8(ascii: "-") ? bytes.dropFirst() : bytes[...]
    let canonical =
      !digits.isEmpty && digits.allSatisfy { $0 &- UInt8(ascii: "0") < 10 }
      && (digits.first != UInt8(ascii: "0") || (digits.count == 1 && digits.count == bytes.count))
    guard canonical, let value = Self(jsonKey, radix: 10) else {
      let why = canonical ? " (out of range)" : ""
      throw JSON.Error(
        .typeMismatch,
        "expected \(keyName(Self.self)) key, found \(JSON.string(jsonKey))\(why)")
    }
    self = value
  }

  /// The decimal form.
  public var jsonKey: String { String(self) }
}

extension Int: JSONKeyRepresentable {}
extension Int8: JSONKeyRepresentable {}
extension Int16: JSONKeyRepresentable {}
extension Int32: JSONKeyRepresentable {}
extension Int64: JSONKeyRepresentable {}
extension UInt: JSONKeyRepresentable {}
extension UInt8: JSONKeyRepresentable {}
extension UInt16: JSONKeyRepresentable {}
extension UInt32: JSONKeyRepresentable {}
extension UInt64: JSONKeyRepresentable {}

extension UUID: JSONKeyRepresentable {
  /// Reads the string form, as `UUID` values are read (either case).
  public init(jsonKey: String) throws {
    guard let value = UUID(uuidString: jsonKey) else {
      throw JSON.Error(.typeMismatch, "expected a UUID key, found \(JSON.string(jsonKey))")
    }
    self = value
  }

  /// The canonical, upper-case string form.
  public var jsonKey: String { uuidString }
}

extension JSONKeyRepresentable where Self: RawRepresentable, RawValue == String {
  /// The raw value; aliases and the fallback case apply as for values.
  public init(jsonKey: String) throws {
    guard
      let value = try Self(rawValue: jsonKey)
        ?? EnumResilience.resolve(Self.self, jsonKey, caseOf: Self.init)
    else {
      throw JSON.Error(
        .typeMismatch, "\(JSON.string(jsonKey)) is not a raw value of \(typeName(Self.self))")
    }
    self = value
  }

  /// The raw value.
  public var jsonKey: String { rawValue }
}

extension JSONKeyRepresentable where Self: RawRepresentable, RawValue == Int {
  /// The raw value in canonical decimal form (as `Int` keys are read); aliases and the
  /// fallback case apply as for values.
  public init(jsonKey: String) throws {
    let raw = try Int(jsonKey: jsonKey)
    guard
      let value = try Self(rawValue: raw)
        ?? EnumResilience.resolve(Self.self, raw, caseOf: Self.init)
    else {
      throw JSON.Error(.typeMismatch, "\(raw) is not a raw value of \(typeName(Self.self))")
    }
    self = value
  }

  /// The raw value's decimal form.
  public var jsonKey: String { String(rawValue) }
}

/// "an Int", "a UInt8": the key type for messages.
private func keyName(_ type: Any.Type) -> String {
  let name = typeName(type)
  return (name.hasPrefix("I") ? "an " : "a ") + name
}
