/// AutoMap's own `Encoder`: writes any `Encodable` value as a `JSON` value, with no detour
/// through text.
///
/// It encodes `Codable` properties of `JSONCodable` models (`CodableCodecs`), with the
/// same rules as ``JSONValueDecoder``: a value whose type is also `JSONEncodable` is written
/// by AutoMap (dates by `DateTransform.default`, exact numbers), coding keys follow the
/// model's key style as `JSONEncoder`'s key strategies would, string-keyed dictionaries keep
/// their keys, a non-finite number is an error, and nesting (a reference cycle included) is
/// bounded by ``JSON/maximumDepth``.
///
/// Asking one value for two kinds of container, which `JSONEncoder` traps on, is an error
/// here, reported when the value is finished.
struct JSONValueEncoder: Encoder {
  let box: EncodingBox
  let path: CodingPath
  let style: JSON.KeyStyle
  /// How many values hold this one at its place through their single-value containers (a
  /// `Codable` wrapper of a wrapper, or a reference cycle through them): no level of the
  /// document, but bounded as one.
  var wrapping = 0

  var codingPath: [any CodingKey] { path.codingKeys }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  /// Encodes `value` with `style` for coding keys; errors are `JSON.Error`s with paths
  /// relative to `value`.
  static func encode<T: Encodable>(_ value: T, style: JSON.KeyStyle) throws -> JSON {
    let box = EncodingBox(depth: Nesting.depth)  // inside the model's object
    do {
      try JSONValueEncoder(box: box, path: .root, style: style).encodeValue(value)
      return try box.json()
    } catch {
      throw CodableErrors.jsonError(error, style: style)
    }
  }

  /// Encodes `value` by its own `encode(to:)`, even when it is `JSONEncodable` too (an enum
  /// whose AutoMap mapping is its synthesized `Codable`); nested values follow the usual rules.
  static func encodeRoot<T: Encodable>(_ value: T, style: JSON.KeyStyle) throws -> JSON {
    // The caller counted the levels its document has (see `CodableEnums`); the value's own
    // object is the first of them.
    let encoder = JSONValueEncoder(
      box: EncodingBox(depth: Nesting.depth - 1), path: .root, style: style)
    do {
      try Nesting.level(encoding: true, wrap: { encoder.failure($0, value) }) {
        try value.encode(to: encoder)
      }
      return try encoder.box.json()
    } catch {
      throw CodableErrors.jsonError(error, style: style)
    }
  }

  // A detached box (nested past the depth limit) keeps its parent's path: the chain of path
  // nodes stops growing with the chain of boxes.

  func child(_ box: EncodingBox, key: any CodingKey, json: String) -> JSONValueEncoder {
    JSONValueEncoder(
      box: box, path: box.isDetached ? path : path.appending(key, json: json), style: style)
  }

  func child(_ box: EncodingBox, index: Int) -> JSONValueEncoder {
    JSONValueEncoder(
      box: box, path: box.isDetached ? path : path.appending(index: index), style: style)
  }

  func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
    box.become(.object, at: path)
    return KeyedEncodingContainer(KeyedJSONEncodingContainer<Key>(encoder: self))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    box.become(.array, at: path)
    return UnkeyedJSONEncodingContainer(encoder: self)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    JSONValueEncoder(box: box, path: path, style: style, wrapping: wrapping + 1)
  }

  // MARK: Values

  /// Encodes a value of any `Encodable` type into this encoder's box.
  func encodeValue<T: Encodable>(_ value: T) throws {
    if Nesting.stackIsLow { throw failure(Nesting.stackExhausted(encoding: true), value) }
    if let float = value as? any BinaryFloatingPoint, !float.isFinite {
      // Written as a string only when the call's configuration says so.
      if case .string(let text) = NonFinite.json(float) { return set(.string(text)) }
      throw failure(JSON.Error(.unencodable, "\(value) is not a finite number"), value)
    }
    // Levels are the document's containers (the box's depth): a value that writes a single
    // value has none, whatever its type. A value mapped by AutoMap counts its own from there.
    if let mapped = value as? any JSONEncodable {  // JSONCodable wins
      do {
        return set(try Nesting.within(readerLevels: box.depth - Nesting.depth) { try mapped.json })
      } catch {
        throw failure(JSON.Error.wrapping(error), value)
      }
    }
    // Recursion (a reference cycle included) goes through containers, each a level deeper, or
    // through single values at one place: both bounded.
    if box.depth > JSON.maximumDepth || wrapping > JSON.maximumDepth {
      throw failure(Nesting.tooDeep(encoding: true), value)
    }
    if let dictionary = value as? any StringKeyedEncodable {
      return try dictionary.encodeMembers(self)
    }
    try value.encode(to: self)
  }

  func set(_ json: JSON) { box.set(json, at: path) }

  /// The `EncodingError` for `error`, whose path is relative to this encoder's value.
  func failure(_ error: JSON.Error, _ value: Any) -> EncodingError {
    .invalidValue(
      value,
      EncodingError.Context(
        codingPath: codingPath + error.codingKeys, debugDescription: error.message,
        underlyingError: path.locate(error)))
  }
}

extension JSONValueEncoder: SingleValueEncodingContainer {
  func encodeNil() throws { set(.null) }
  func encode(_ value: Bool) throws { set(.bool(value)) }
  func encode(_ value: String) throws { set(.string(value)) }
  func encode(_ value: Double) throws { try encodeValue(value) }
  func encode(_ value: Float) throws { try encodeValue(value) }
  func encode(_ value: Int) throws { set(value.json) }
  func encode(_ value: Int8) throws { set(value.json) }
  func encode(_ value: Int16) throws { set(value.json) }
  func encode(_ value: Int32) throws { set(value.json) }
  func encode(_ value: Int64) throws { set(value.json) }
  func encode(_ value: UInt) throws { set(value.json) }
  func encode(_ value: UInt8) throws { set(value.json) }
  func encode(_ value: UInt16) throws { set(value.json) }
  func encode(_ value: UInt32) throws { set(value.json) }
  func encode(_ value: UInt64) throws { set(value.json) }
  func encode<T: Encodable>(_ value: T) throws { try encodeValue(value) }
}

/// String-keyed dictionaries keep their keys as they are (no key style), as with
/// `JSONEncoder`.
protocol StringKeyedEncodable {
  func encodeMembers(_ encoder: JSONValueEncoder) throws
}

extension Dictionary: StringKeyedEncodable where Key == String, Value: Encodable {
  func encodeMembers(_ encoder: JSONValueEncoder) throws {
    encoder.box.become(.object, at: encoder.path)
    for (key, value) in self {
      let member = encoder.box.member(key, fresh: true)
      try encoder.child(member, key: AnyCodingKey(stringValue: key), json: key).encodeValue(value)
    }
  }
}
