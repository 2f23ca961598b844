import Foundation

extension JSONDecodable {
  /// Decodes UTF-8 JSON text with a configuration for this call, applied to every model in
  /// it (see ``JSON/Configuration``).
  ///
  /// ```swift
  /// let call = JSON.Configuration(dateTransform: .secondsSince1970, keyStyle: .snakeCase)
  /// let event = try Event(jsonData: data, configuration: call)
  /// ```
  ///
  /// - Throws: ``JSON/Error`` naming the path and what was expected and found.
  public init<Bytes: ContiguousBytes>(jsonData data: Bytes, configuration: JSON.Configuration)
    throws
  {
    self = try ConfigurationContext.with(configuration) { try Self(jsonData: data) }
  }

  /// Decodes JSON text held in a string with a configuration for this call.
  ///
  /// ```swift
  /// try [Double](jsonString: #"["NaN", 2]"#, configuration: .init(nonFiniteNumbers: .strings()))
  /// ```
  public init(jsonString string: String, configuration: JSON.Configuration) throws {
    self = try ConfigurationContext.with(configuration) { try Self(jsonString: string) }
  }

  /// Decodes a `JSON` value with a configuration for this call: the same rules as the byte
  /// entry points.
  ///
  /// ```swift
  /// let event = try Event(decode: json["event"], configuration: call)
  /// ```
  public init(decode json: JSON, configuration: JSON.Configuration) throws {
    self = try ConfigurationContext.with(configuration) { try Self(decode: json) }
  }

  /// Decodes only the value at `index`, straight from the bytes, with a configuration for
  /// this call.
  ///
  /// ```swift
  /// let users = try [User](jsonData: data, at: ["data", "users"], configuration: call)
  /// ```
  public init<Bytes: ContiguousBytes>(
    jsonData data: Bytes, at index: JSON.Index, configuration: JSON.Configuration
  ) throws {
    self = try ConfigurationContext.with(configuration) { try Self(jsonData: data, at: index) }
  }
}

extension JSONDecodable {
  /// Replaces the properties whose keys `json` has (see `update(from:keyStyle:)`), with a
  /// configuration for this call.
  ///
  /// ```swift
  /// try settings.update(from: json, configuration: .init(collectsAllErrors: true))
  /// ```
  public mutating func update(from json: JSON, configuration: JSON.Configuration) throws {
    var updated = self  // a class updates its object in place; a struct a copy, kept on success
    try ConfigurationContext.with(configuration) { try updated.update(from: json) }
    self = updated
  }

  /// Replaces the properties whose keys the UTF-8 JSON text has, with a configuration for
  /// this call.
  public mutating func update<Bytes: ContiguousBytes>(
    fromJSONData data: Bytes, configuration: JSON.Configuration
  ) throws {
    var updated = self
    try ConfigurationContext.with(configuration) { try updated.update(fromJSONData: data) }
    self = updated
  }
}

extension JSONDecodable where Self: AnyObject {
  /// Replaces the properties whose keys `json` has, in this object (callable on a `let`),
  /// with a configuration for this call.
  ///
  /// ```swift
  /// try account.update(from: json, configuration: .init(keyStyle: .snakeCase))
  /// ```
  public func update(from json: JSON, configuration: JSON.Configuration) throws {
    try ConfigurationContext.with(configuration) { try update(from: json) }
  }

  /// Replaces the properties whose keys the UTF-8 JSON text has, in this object, with a
  /// configuration for this call.
  public func update<Bytes: ContiguousBytes>(
    fromJSONData data: Bytes, configuration: JSON.Configuration
  ) throws {
    try ConfigurationContext.with(configuration) { try update(fromJSONData: data) }
  }
}

extension JSONEncodable {
  /// The value as JSON, with a configuration for this call.
  ///
  /// ```swift
  /// let json = try event.json(configuration: .init(dateTransform: .millisecondsSince1970))
  /// ```
  public func json(configuration: JSON.Configuration) throws -> JSON {
    try ConfigurationContext.with(configuration) { try json }
  }

  /// The value as UTF-8 JSON text, with a configuration for this call.
  ///
  /// ```swift
  /// let data = try event.jsonData(options: [.sortedKeys], configuration: call)
  /// ```
  public func jsonData(options: JSON.WritingOptions = [], configuration: JSON.Configuration)
    throws -> Data
  {
    try ConfigurationContext.with(configuration) { try jsonData(options: options) }
  }

  /// The value as JSON text, with a configuration for this call.
  ///
  /// ```swift
  /// try [Double.nan].jsonString(configuration: .init(nonFiniteNumbers: .strings()))   // ["NaN"]
  /// ```
  public func jsonString(options: JSON.WritingOptions = [], configuration: JSON.Configuration)
    throws -> String
  {
    try ConfigurationContext.with(configuration) { try jsonString(options: options) }
  }
}
