// `Codable` both ways: `JSON` is `Codable`, and a model that adopts `CodableByMapping` is
// `Codable` through its AutoMap mapping.

extension JSON: Codable {
  /// Reads any value from any `Decoder`: `null`, a `Bool`, an integer (as `Int64`, or
  /// `UInt64` above `Int64.max`), another number (as `Double`), a string, an array or an
  /// object.
  ///
  /// ```swift
  /// struct Event: Codable { let name: String; let payload: JSON }
  /// let event = try JSONDecoder().decode(Event.self, from: data)   // payload: anything
  /// ```
  ///
  /// From AutoMap's own decoder the value is taken as it is: exact numbers, members in
  /// order. Other decoders do not say in which order an object's keys came, so its members
  /// are sorted by key. An object's keys are read as dictionary keys, which key strategies
  /// such as `.convertFromSnakeCase` leave alone.
  public init(from decoder: any Decoder) throws {
    if let own = decoder as? JSONValueDecoder {
      self = own.value
      return
    }
    self = try Nesting.level(encoding: false, wrap: { Self.decodingError($0, decoder) }) {
      try Self.decodeForeign(decoder)
    }
  }

  /// Reads a value from a decoder that is not AutoMap's, trying each kind in turn.
  private static func decodeForeign(_ decoder: any Decoder) throws -> JSON {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() { return .null }
    if let value = try? container.decode(Bool.self) { return .bool(value) }
    if let value = try? container.decode(Int64.self) { return .number(Number(value)) }
    if let value = try? container.decode(UInt64.self) { return .number(Number(value)) }
    if let value = try? container.decode(Double.self) { return .number(Number(value)) }
    if let value = try? container.decode(String.self) { return .string(value) }
    if let value = try unlessTooDeep({ try container.decode([JSON].self) }) {
      return .array(value)
    }
    if let value = try unlessTooDeep({ try container.decode([String: JSON].self) }) {
      return .object(Object(value.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }))
    }
    throw DecodingError.dataCorruptedError(
      in: container, debugDescription: "not a null, bool, number, string, array or object")
  }

  /// What `read` gives, or `nil` when it fails (the value is of another kind), except when
  /// it fails because the document nests deeper than ``maximumDepth``: that is the answer at
  /// every level above, so it is thrown on, never taken for "not an array".
  private static func unlessTooDeep<T>(_ read: () throws -> T) throws -> T? {
    do {
      return try read()
    } catch let error as DecodingError {
      if case .dataCorrupted(let context) = error,
        let cause = context.underlyingError as? JSON.Error,
        case .tooDeep = cause.kind
      {
        throw error
      }
      return nil
    } catch {
      return nil
    }
  }

  private static func decodingError(_ error: JSON.Error, _ decoder: any Decoder) -> DecodingError {
    .dataCorrupted(
      DecodingError.Context(
        codingPath: decoder.codingPath, debugDescription: error.message, underlyingError: error))
  }

  /// Writes the value to any `Encoder`: integers as `Int64`/`UInt64`, other numbers as
  /// `Double`, objects as keyed containers in member order (a key strategy such as
  /// `.convertToSnakeCase` applies to their keys). A ``missing(_:)`` value is an error.
  ///
  /// ```swift
  /// let data = try JSONEncoder().encode(Event(name: "ping", payload: ["id": 7]))
  /// ```
  public func encode(to encoder: any Encoder) throws {
    if let own = encoder as? JSONValueEncoder {
      if case .missing(let error) = self { throw own.failure(error, self) }
      return own.set(self)
    }
    try Nesting.level(
      encoding: true,
      wrap: {
        EncodingError.invalidValue(
          self,
          EncodingError.Context(
            codingPath: encoder.codingPath, debugDescription: $0.message, underlyingError: $0))
      }
    ) { try encodeForeign(to: encoder) }
  }

  /// Writes the value to an encoder that is not AutoMap's.
  private func encodeForeign(to encoder: any Encoder) throws {
    switch self {
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case .bool(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .number(let number):
      var container = encoder.singleValueContainer()
      if let value = number.int64Value {
        try container.encode(value)
      } else if let value = number.uint64Value {
        try container.encode(value)
      } else {
        try container.encode(number.doubleValue)
      }
    case .string(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .array(let elements):
      var container = encoder.unkeyedContainer()
      for element in elements { try container.encode(element) }
    case .object(let object):
      var container = encoder.container(keyedBy: AnyCodingKey.self)
      for (key, value) in object {
        try container.encode(value, forKey: AnyCodingKey(stringValue: key))
      }
    case .missing(let error):
      throw EncodingError.invalidValue(
        self,
        EncodingError.Context(
          codingPath: encoder.codingPath, debugDescription: error.description,
          underlyingError: error))
    }
  }
}

/// A model that is `Codable` through its AutoMap mapping: `JSONEncoder`, `JSONDecoder`,
/// `PropertyListEncoder` and every other `Codable` API see the same keys, options, key
/// style and defaults as `jsonData()` and `init(jsonData:)`, instead of the compiler's
/// synthesized `Codable`.
///
/// ```swift
/// struct User: CodableByMapping {              // JSONCodable and Codable
///   var id = 0
///   var name = ""
///   static func specificOptions() -> [String: SpecificOption] { ["id": "user_id"] }
/// }
///
/// let data = try JSONEncoder().encode(user)                // {"user_id":7,"name":"Ada"}
/// let same = try JSONDecoder().decode(User.self, from: data)
/// let plist = try PropertyListEncoder().encode([user])
/// ```
///
/// Adopting it is a choice, because a type that is merely `JSONCodable, Codable` keeps the
/// compiler's synthesized `Codable` (benchmarks compare the two on such types). Classes need
/// nothing more: a subclass decodes as itself. The other side's key strategy, if any, applies
/// on top of AutoMap's keys, so leave it at its default and set the model's `keyStyle`.
///
/// The value passes through a `JSON` value: from another decoder it is read with
/// `JSON(from:)`, so integers stay exact and other numbers are `Double`s.
public protocol CodableByMapping: JSONCodable, Codable {}

extension CodableByMapping {
  /// Decodes through the AutoMap mapping (see ``CodableByMapping``).
  public init(from decoder: any Decoder) throws {
    let json = try JSON(from: decoder)
    do {
      self = try Self(decode: json)
    } catch {
      let error = JSON.Error.wrapping(error)
      let own = decoder as? JSONValueDecoder
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath + error.codingKeys, debugDescription: error.description,
          underlyingError: own?.path.locate(error) ?? error))
    }
  }

  /// Encodes through the AutoMap mapping (see ``CodableByMapping``).
  public func encode(to encoder: any Encoder) throws {
    let json: JSON
    do {
      json = try self.json
    } catch {
      let error = JSON.Error.wrapping(error)
      let own = encoder as? JSONValueEncoder
      throw EncodingError.invalidValue(
        self,
        EncodingError.Context(
          codingPath: encoder.codingPath + error.codingKeys, debugDescription: error.description,
          underlyingError: own?.path.locate(error) ?? error))
    }
    try json.encode(to: encoder)
  }
}
