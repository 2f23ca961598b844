/// A conversion between what the JSON holds and what a property holds.
///
/// Either direction may be left out: a transform that only converts from JSON lets encoding
/// write the property as usual, and the other way round. Use ``CustomTransform`` or
/// ``DateTransform`` rather than adopting this yourself.
public protocol Transform: Sendable {
  /// The property value for `json`, or `nil` when this transform does not convert from JSON.
  func decodeValue(from json: JSON) throws -> Any?
  /// The JSON for a property value, or `nil` when this transform does not convert to JSON.
  func encodeValue(_ value: Any) throws -> JSON?
}

/// A transform written as closures between a JSON-side type and the property's type.
///
/// ```swift
/// // JSON has "example.com", the property holds a URL to https://example.com.
/// let web = CustomTransform<String, URL>.both(
///   fromJSON: { host in
///     guard let url = URL(string: "https://\(host)") else { throw JSON.Error.custom("bad host \(host)") }
///     return url
///   },
///   toJSON: { $0.host ?? "" })
///
/// static func specificOptions() -> [String: SpecificOption] { ["website": .transform(web)] }
/// ```
///
/// `JSONValue` is decoded from the JSON first (so `CustomTransform<String?, URL?>` sees `nil`
/// for `null`); errors the closures throw fail the decode with the property's path.
public struct CustomTransform<JSONValue, Value>: Transform {
  private let decoder: (@Sendable (JSON) throws -> Any)?
  private let encoder: (@Sendable (Any) throws -> JSON)?

  private init(
    decoder: (@Sendable (JSON) throws -> Any)?, encoder: (@Sendable (Any) throws -> JSON)?
  ) {
    self.decoder = decoder
    self.encoder = encoder
  }

  /// The `fromJSON` closure's result, or `nil` when this transform has none.
  public func decodeValue(from json: JSON) throws -> Any? { try decoder?(json) }
  /// The `toJSON` closure's result as JSON, or `nil` when this transform has none.
  public func encodeValue(_ value: Any) throws -> JSON? { try encoder?(value) }
}

extension CustomTransform where JSONValue: JSONDecodable {
  /// Converts from JSON only; encoding writes the property as usual.
  ///
  /// ```swift
  /// let shout = CustomTransform<String, String>.fromJSON { $0.uppercased() }
  /// // "ada" reads as "ADA"; "ADA" is written as it is
  /// ```
  public static func fromJSON(_ transform: @escaping @Sendable (JSONValue) throws -> Value) -> Self
  {
    Self(decoder: { json in try transform(JSONValue(decode: json)) }, encoder: nil)
  }
}

extension CustomTransform where JSONValue: JSONEncodable {
  /// Converts to JSON only; decoding reads the property as usual.
  ///
  /// ```swift
  /// let rounded = CustomTransform<Int, Double>.toJSON { Int($0.rounded()) }
  /// // 2.6 is written as 3; 2.6 in the JSON reads as 2.6
  /// ```
  public static func toJSON(_ transform: @escaping @Sendable (Value) throws -> JSONValue) -> Self {
    Self(decoder: nil, encoder: Self.encoder(transform))
  }

  private static func encoder(
    _ transform: @escaping @Sendable (Value) throws -> JSONValue
  ) -> @Sendable (Any) throws -> JSON {
    { value in
      guard let value = value as? Value else {
        throw JSON.Error(
          .invalidModel,
          "transform expects \(typeName(Value.self)), the property holds \(typeName(type(of: value)))"
        )
      }
      return try transform(value).json
    }
  }
}

extension CustomTransform where JSONValue: JSONDecodable & JSONEncodable {
  /// Converts both ways.
  ///
  /// ```swift
  /// let cents = CustomTransform<Int, Decimal>.both(
  ///   fromJSON: { Decimal($0) / 100 },  // 1999 reads as 19.99
  ///   toJSON: { NSDecimalNumber(decimal: $0 * 100).intValue })  // 19.99 is written as 1999
  /// ```
  public static func both(
    fromJSON: @escaping @Sendable (JSONValue) throws -> Value,
    toJSON: @escaping @Sendable (Value) throws -> JSONValue
  ) -> Self {
    Self(decoder: { json in try fromJSON(JSONValue(decode: json)) }, encoder: Self.encoder(toJSON))
  }
}
