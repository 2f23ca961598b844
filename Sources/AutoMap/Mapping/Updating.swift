import Foundation

extension JSONDecodable {
  /// Replaces the properties whose keys `json` has; the others keep their values.
  ///
  /// ```swift
  /// var settings = Settings()
  /// try settings.update(from: ["fontSize": 14])     // theme is unchanged
  /// ```
  ///
  /// All or nothing: when a present value does not decode, or `didDecode()` throws, the
  /// value is left as it was. `null` makes an optional `nil`. For structs and classes mapped
  /// by reflection (not one with a hand-written `init(decode:)`); other types throw.
  public mutating func update(from json: JSON, keyStyle: JSON.KeyStyle? = nil) throws {
    var updated = self  // a class updates its object in place; a struct a copy, kept on success
    try KeyStyleContext.with(keyStyle) { try ModelDecoding.update(&updated, from: json) }
    self = updated
  }

  /// Replaces the properties whose keys the UTF-8 JSON text has.
  public mutating func update<Bytes: ContiguousBytes>(
    fromJSONData data: Bytes, keyStyle: JSON.KeyStyle? = nil
  ) throws {
    try update(from: data.withUnsafeBytes { try JSON(mappingDocument: $0) }, keyStyle: keyStyle)
  }

  /// Replaces the properties whose keys the JSON text has.
  public mutating func update(fromJSONString string: String, keyStyle: JSON.KeyStyle? = nil)
    throws
  {
    try update(fromJSONData: Data(string.utf8), keyStyle: keyStyle)
  }
}

extension JSONDecodable where Self: AnyObject {
  /// Replaces the properties whose keys `json` has, in this object (callable on a `let`).
  ///
  /// ```swift
  /// let account = try Account(jsonData: data)
  /// try account.update(from: ["balance": 12])
  /// ```
  ///
  /// All or nothing for the properties it maps: when a value does not decode or
  /// `didDecode()` throws, they keep their values (changes `didDecode()` made to other
  /// properties stay).
  ///
  /// An object keeps its class. For a ``JSONPolymorphic`` class, a discriminator in `json`
  /// must choose the object's own class, as decoding would choose it (`subclass(for:)`, the
  /// table, the default subclass); another value is an error at the discriminator's key and
  /// nothing changes. Absent or `null`, the discriminator is not needed:
  ///
  /// ```swift
  /// try dog.update(from: ["name": "Rex"])                 // fine
  /// try dog.update(from: ["type": "cat", "lives": 3])     // error at type: … cannot change this Dog into another class
  /// ```
  public func update(from json: JSON, keyStyle: JSON.KeyStyle? = nil) throws {
    var reference = self
    try KeyStyleContext.with(keyStyle) { try ModelDecoding.update(&reference, from: json) }
  }

  /// Replaces the properties whose keys the UTF-8 JSON text has, in this object.
  public func update<Bytes: ContiguousBytes>(
    fromJSONData data: Bytes, keyStyle: JSON.KeyStyle? = nil
  ) throws {
    try update(from: data.withUnsafeBytes { try JSON(mappingDocument: $0) }, keyStyle: keyStyle)
  }

  /// Replaces the properties whose keys the JSON text has, in this object.
  public func update(fromJSONString string: String, keyStyle: JSON.KeyStyle? = nil) throws {
    try update(fromJSONData: Data(string.utf8), keyStyle: keyStyle)
  }
}

// Values with no properties to update: `Int.update(from:)` compiles with a warning that says
// so (an unavailable overload would lose to the general one silently), and throws.

extension JSONDecodable where Self: FixedWidthInteger {
  /// An integer has no properties to update: this always throws an `.invalidModel` error, and
  /// the compiler warns at the call. Assign a new value instead.
  @available(
    *, deprecated, message: "update(from:) applies to structs and classes; assign a new value"
  )
  public mutating func update(from json: JSON, keyStyle: JSON.KeyStyle? = nil) throws {
    throw JSON.Error.notUpdatable(Self.self)
  }
}

extension JSONDecodable where Self: BinaryFloatingPoint {
  /// A floating-point number has no properties to update: this always throws an `.invalidModel` error, and
  /// the compiler warns at the call. Assign a new value instead.
  @available(
    *, deprecated, message: "update(from:) applies to structs and classes; assign a new value"
  )
  public mutating func update(from json: JSON, keyStyle: JSON.KeyStyle? = nil) throws {
    throw JSON.Error.notUpdatable(Self.self)
  }
}

extension JSONDecodable where Self: Collection {
  /// A collection has no properties to update: this always throws an `.invalidModel` error, and
  /// the compiler warns at the call. Assign a new value instead.
  @available(
    *, deprecated, message: "update(from:) applies to structs and classes; assign a new value"
  )
  public mutating func update(from json: JSON, keyStyle: JSON.KeyStyle? = nil) throws {
    throw JSON.Error.notUpdatable(Self.self)
  }
}

extension JSON.Error {
  static func notUpdatable(_ type: Any.Type) -> JSON.Error {
    JSON.Error(
      .invalidModel,
      "\(typeName(type)) is not a model: update(from:) applies to structs and classes mapped by reflection"
    )
  }
}
