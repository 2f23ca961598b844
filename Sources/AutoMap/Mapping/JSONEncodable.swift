import Foundation

/// A type that can be turned into JSON.
///
/// Adopt it and you are done: stored properties are written by reflection, each under the
/// key of its own name, in declaration order.
///
/// ```swift
/// struct Point: JSONEncodable { var x: Double; var y: Double }
/// try Point(x: 1, y: 2).jsonString()            // {"x":1.0,"y":2.0}
/// try [Point(x: 1, y: 2)].json                  // [{"x":1.0,"y":2.0}]
/// ```
///
/// Write `json` yourself to take over completely; AutoMap then calls yours everywhere, also
/// when the type is nested in reflected models and when encoding straight to bytes.
public protocol JSONEncodable: JSONMappable {
  /// The value as JSON. The default writes stored properties by reflection.
  var json: JSON { get throws }
}

/// A type that maps both ways.
///
/// ```swift
/// struct Point: JSONCodable { var x: Double; var y: Double }
///
/// let point = try Point(jsonString: #"{"x": 1, "y": 2}"#)
/// try point.jsonString()  // {"x":1.0,"y":2.0}
/// ```
public typealias JSONCodable = JSONDecodable & JSONEncodable

extension JSONEncodable {
  /// Writes stored properties by reflection (see ``JSONEncodable``).
  public var json: JSON {
    get throws { try ModelEncoding.encodeJSON(self) }
  }

  /// The value as UTF-8 JSON text, written straight to bytes.
  ///
  /// ```swift
  /// let data = try user.jsonData(options: [.prettyPrinted, .sortedKeys])
  /// ```
  public func jsonData(options: JSON.WritingOptions = []) throws -> Data {
    Data(try ModelEncoding.encodeBytes(self, options: options))
  }

  /// The value as JSON text.
  public func jsonString(options: JSON.WritingOptions = []) throws -> String {
    String(decoding: try ModelEncoding.encodeBytes(self, options: options), as: UTF8.self)
  }
}

extension JSONEncodable {
  /// The value as JSON, with a key style for this call overriding every model's own.
  public func json(keyStyle: JSON.KeyStyle) throws -> JSON {
    try KeyStyleContext.with(keyStyle) { try json }
  }

  /// The value as UTF-8 JSON text, with a key style for this call.
  ///
  /// ```swift
  /// try profile.jsonData(options: [.omitNulls], keyStyle: .snakeCase)
  /// ```
  public func jsonData(options: JSON.WritingOptions = [], keyStyle: JSON.KeyStyle) throws -> Data {
    try KeyStyleContext.with(keyStyle) { try jsonData(options: options) }
  }

  /// The value as JSON text, with a key style for this call.
  public func jsonString(options: JSON.WritingOptions = [], keyStyle: JSON.KeyStyle) throws
    -> String
  {
    try KeyStyleContext.with(keyStyle) { try jsonString(options: options) }
  }
}
