import Foundation

extension JSONDecodable {
  /// Replaces the properties whose keys `json` has; the others keep their values.
  ///
  /// ```swift
  /// var settings = Settings()
  /// try settings.update(from: ["fontSize": 14])     // theme is unchanged
  /// ```
  ///
  /// All or nothing: when a present value does not decode, nothing changes. `null` makes an
  /// optional `nil`. `didDecode()` runs afterwards. Needs a reflected model (not one with a
  /// hand-written `init(decode:)`).
  public mutating func update(from json: JSON, keyStyle: JSON.KeyStyle? = nil) throws {
    try KeyStyleContext.with(keyStyle) { try ModelDecoding.update(&self, from: json) }
  }

  /// Replaces the properties whose keys the UTF-8 JSON text has.
  public mutating func update<Bytes: ContiguousBytes>(
    fromJSONData data: Bytes, keyStyle: JSON.KeyStyle? = nil
  ) throws {
    try update(from: JSON(jsonData: data), keyStyle: keyStyle)
  }

  /// Replaces the properties whose keys the JSON text has.
  public mutating func update(fromJSONString string: String, keyStyle: JSON.KeyStyle? = nil)
    throws
  {
    try update(from: JSON(jsonString: string), keyStyle: keyStyle)
  }
}

extension JSONDecodable where Self: AnyObject {
  /// Replaces the properties whose keys `json` has, in this object (callable on a `let`).
  ///
  /// ```swift
  /// let account = try Account(jsonData: data)
  /// try account.update(from: ["balance": 12])
  /// ```
  public func update(from json: JSON, keyStyle: JSON.KeyStyle? = nil) throws {
    var reference = self
    try KeyStyleContext.with(keyStyle) { try ModelDecoding.update(&reference, from: json) }
  }

  /// Replaces the properties whose keys the UTF-8 JSON text has, in this object.
  public func update<Bytes: ContiguousBytes>(
    fromJSONData data: Bytes, keyStyle: JSON.KeyStyle? = nil
  ) throws {
    try update(from: JSON(jsonData: data), keyStyle: keyStyle)
  }

  /// Replaces the properties whose keys the JSON text has, in this object.
  public func update(fromJSONString string: String, keyStyle: JSON.KeyStyle? = nil) throws {
    try update(from: JSON(jsonString: string), keyStyle: keyStyle)
  }
}
