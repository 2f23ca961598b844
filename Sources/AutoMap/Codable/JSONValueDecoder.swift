/// AutoMap's own `Decoder`: reads any `Decodable` type from a `JSON` value, with no detour
/// through text.
///
/// It decodes `Codable` properties of `JSONCodable` models (`CodableCodecs`), so it follows
/// AutoMap's rules where they meet `Codable`'s:
/// - A value whose type is also `JSONDecodable` (`String`, the numbers, `Date`, `Decimal`,
///   `URL`, a nested model) is mapped by AutoMap, exactly as a model property of that type:
///   integers are exact and range-checked, dates use `DateTransform.default`.
/// - Keys follow the key style of the model the value belongs to, as `JSONDecoder`'s key
///   strategies would (see `JSON.KeyStyle.codingKey(forJSONKey:)`); string-keyed
///   dictionaries keep their keys as they are, as with `JSONDecoder`.
/// - Errors are `DecodingError`s, as `Codable` code expects, whose `underlyingError` is the
///   `JSON.Error` AutoMap reports, with the document's path (`orders[2].total.amount`).
/// - Nesting counts against ``JSON/maximumDepth``.
///
/// A decoder is a small struct; a nested value costs one path node, no decoder object.
struct JSONValueDecoder: Decoder {
  let value: JSON
  let path: CodingPath
  let style: JSON.KeyStyle
  /// How many of the document's containers the value is inside, those around the root's value
  /// included (``Nesting``'s count where the root was made): its own container is level
  /// `depth + 1`. (``Nesting`` counts per value, so nested containers of `Codable` code are
  /// counted here.)
  let depth: Int
  /// How many values hold this one at its place through their single-value containers (a
  /// `Codable` wrapper of a wrapper): no level of the document, but bounded as one.
  var wrapping = 0

  var codingPath: [any CodingKey] { path.codingKeys }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  /// Decodes `T` from `json` with `style` for coding keys; errors are `JSON.Error`s with paths
  /// relative to `json`, after `path`: where the value's coding path starts (as
  /// ``ByteDecoding/decode(_:_:style:into:at:)``).
  static func decode<T: Decodable>(
    _: T.Type, from json: JSON, style: JSON.KeyStyle, at path: CodingPath = .root
  ) throws -> T {
    do {
      // Inside the model's object.
      return try JSONValueDecoder(value: json, path: path, style: style, depth: Nesting.depth)
        .decodeValue(T.self)
    } catch {
      throw CodableErrors.jsonError(error, style: style)
    }
  }

  /// Decodes `T` by its own `init(from:)`, even when it is `JSONDecodable` too (an enum whose
  /// AutoMap mapping is its synthesized `Codable`); nested values follow the usual rules.
  static func decodeRoot<T: Decodable>(_: T.Type, from json: JSON, style: JSON.KeyStyle) throws
    -> T
  {
    // The caller counted the levels its document has (see `CodableEnums`); the value's own
    // object is the first of them.
    let decoder = JSONValueDecoder(value: json, path: .root, style: style, depth: Nesting.depth - 1)
    do {
      return try Nesting.level(encoding: false, wrap: { decoder.failure($0, T.self) }) {
        try T(from: decoder)
      }
    } catch {
      throw CodableErrors.jsonError(error, style: style)
    }
  }

  func child(_ value: JSON, key: any CodingKey, json: String) -> JSONValueDecoder {
    JSONValueDecoder(
      value: value, path: path.appending(key, json: json), style: style, depth: depth + 1)
  }

  func child(_ value: JSON, index: Int) -> JSONValueDecoder {
    JSONValueDecoder(
      value: value, path: path.appending(index: index), style: style, depth: depth + 1)
  }

  func container<Key: CodingKey>(keyedBy _: Key.Type) throws -> KeyedDecodingContainer<Key> {
    try checkDepth([String: JSON].self)
    guard case .object(let object) = value else {
      let expected = CodableErrors.owner(of: Key.self).map { "\($0) (an object)" } ?? "an object"
      throw failure(JSON.Error.mismatch(expected: expected, found: value), [String: JSON].self)
    }
    return KeyedDecodingContainer(KeyedJSONDecodingContainer<Key>(decoder: self, object: object))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try checkDepth([JSON].self)
    guard case .array(let elements) = value else {
      throw failure(JSON.Error.mismatch(expected: "an array", found: value), [JSON].self)
    }
    return UnkeyedJSONDecodingContainer(decoder: self, elements: elements)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    JSONValueDecoder(value: value, path: path, style: style, depth: depth, wrapping: wrapping + 1)
  }

  /// Opening a container here opens level `depth + 1`.
  @inline(__always)
  private func checkDepth(_ type: Any.Type) throws {
    if depth >= JSON.maximumDepth { throw failure(Nesting.tooDeep(encoding: false), type) }
  }

  // MARK: Values

  /// Decodes a value of any `Decodable` type from this decoder's value.
  ///
  /// Levels are the document's containers (``depth``): a value that writes a single value
  /// has none, whatever its type. A value mapped by AutoMap counts its own from there.
  func decodeValue<T: Decodable>(_: T.Type) throws -> T {
    if Nesting.stackIsLow { throw failure(Nesting.stackExhausted(encoding: false), T.self) }
    if let mapped = T.self as? any JSONDecodable.Type {
      return try Nesting.within(readerLevels: depth - Nesting.depth) {
        try decodeMapped(mapped, as: T.self)
      }
    }
    // Recursion goes through containers, each a level deeper, or through single values at
    // one place: both bounded.
    if wrapping > JSON.maximumDepth { throw failure(Nesting.tooDeep(encoding: false), T.self) }
    if let dictionary = T.self as? any StringKeyedDecodable.Type {
      try checkDepth(T.self)  // an object, read without `container(keyedBy:)`
      guard let members = try dictionary.decodeMembers(self) as? T else {
        throw failure(JSON.Error(.typeMismatch, "cannot make \(typeName(T.self))"), T.self)
      }
      return members
    }
    return try T(from: self)
  }

  /// A type that is `JSONDecodable` too is mapped by AutoMap: JSONCodable wins.
  private func decodeMapped<T>(_ mapped: any JSONDecodable.Type, as _: T.Type) throws -> T {
    func open<M: JSONDecodable>(_: M.Type) throws -> T {
      let result: M
      do {
        // A substitution the model makes is at this decoder's place in the value.
        result = try Substitutions.within(Substitutions.isRecording ? path.components : []) {
          try M(decode: value)
        }
      } catch {
        throw failure(JSON.Error.wrapping(error), T.self)
      }
      guard let result = result as? T else {
        throw failure(JSON.Error(.typeMismatch, "cannot make \(typeName(T.self))"), T.self)
      }
      return result
    }
    return try open(mapped)
  }

  /// A scalar, read by its AutoMap conformance (exact, range-checked).
  func scalar<T: JSONDecodable>(_: T.Type = T.self) throws -> T {
    do { return try T(decode: value) } catch { throw failure(JSON.Error.wrapping(error), T.self) }
  }

  /// The `DecodingError` for `error`, whose path is relative to this decoder's value: its
  /// `underlyingError` is `error` with the full path, which AutoMap reports.
  func failure(_ error: JSON.Error, _ type: Any.Type) -> DecodingError {
    Self.failure(
      error.kind, type,
      DecodingError.Context(
        codingPath: codingPath + error.codingKeys, debugDescription: error.message,
        underlyingError: path.locate(error)))
  }

  /// The `DecodingError` case for an error of `kind`, as `Codable` code sees it: also what
  /// the byte `Decoder` throws (``ByteDecodingSession/decodingError(_:)``).
  static func failure(_ kind: JSON.Error.Kind, _ type: Any.Type, _ context: DecodingError.Context)
    -> DecodingError
  {
    switch kind {
    case .missingValue: return .valueNotFound(type, context)
    case .typeMismatch: return .typeMismatch(type, context)
    default: return .dataCorrupted(context)
    }
  }
}

extension JSONValueDecoder: SingleValueDecodingContainer {
  func decodeNil() -> Bool { value.isNullOrMissing }
  func decode(_: Bool.Type) throws -> Bool { try scalar() }
  func decode(_: String.Type) throws -> String { try scalar() }
  func decode(_: Double.Type) throws -> Double { try scalar() }
  func decode(_: Float.Type) throws -> Float { try scalar() }
  func decode(_: Int.Type) throws -> Int { try scalar() }
  func decode(_: Int8.Type) throws -> Int8 { try scalar() }
  func decode(_: Int16.Type) throws -> Int16 { try scalar() }
  func decode(_: Int32.Type) throws -> Int32 { try scalar() }
  func decode(_: Int64.Type) throws -> Int64 { try scalar() }
  func decode(_: UInt.Type) throws -> UInt { try scalar() }
  func decode(_: UInt8.Type) throws -> UInt8 { try scalar() }
  func decode(_: UInt16.Type) throws -> UInt16 { try scalar() }
  func decode(_: UInt32.Type) throws -> UInt32 { try scalar() }
  func decode(_: UInt64.Type) throws -> UInt64 { try scalar() }
  func decode<T: Decodable>(_: T.Type) throws -> T { try decodeValue(T.self) }
}

/// String-keyed dictionaries keep their keys as they are (no key style), as with
/// `JSONDecoder`.
protocol StringKeyedDecodable {
  static func decodeMembers(_ decoder: JSONValueDecoder) throws -> Self
}

extension Dictionary: StringKeyedDecodable where Key == String, Value: Decodable {
  static func decodeMembers(_ decoder: JSONValueDecoder) throws -> Self {
    guard case .object(let object) = decoder.value else {
      throw decoder.failure(
        JSON.Error.mismatch(expected: typeName(Self.self), found: decoder.value), Self.self)
    }
    var result = Self(minimumCapacity: object.count)
    for (key, member) in object {
      let child = decoder.child(member, key: AnyCodingKey(stringValue: key), json: key)
      result[key] = try child.decodeValue(Value.self)
    }
    return result
  }
}
