// The keyed and unkeyed containers of ``JSONValueDecoder``.

/// The members of a JSON object, looked up by coding key in the decoder's key style.
struct KeyedJSONDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let decoder: JSONValueDecoder
  let object: JSON.Object
  /// For styles that convert JSON keys to coding keys (snake case, upper camel case): each
  /// converted key's member, the last of equal keys winning as with repeated keys. (A Swift
  /// dictionary: converted keys are compared as Swift strings, not byte by byte.)
  private let converted: [String: Int]?

  init(decoder: JSONValueDecoder, object: JSON.Object) {
    self.decoder = decoder
    self.object = object
    let style = decoder.style
    guard style.codingKey(forJSONKey: "") != nil else {
      converted = nil
      return
    }
    var converted = [String: Int](minimumCapacity: object.count)
    for (position, member) in object.members.enumerated() {
      converted[style.codingKey(forJSONKey: member.key) ?? member.key] = position
    }
    self.converted = converted
  }

  var codingPath: [any CodingKey] { decoder.codingPath }

  var allKeys: [Key] {
    guard let converted else { return object.keys.compactMap { Key(stringValue: $0) } }
    return object.members.indices.compactMap { position in
      let key = decoder.style.codingKey(forJSONKey: object.members[position].key) ?? ""
      return converted[key] == position ? Key(stringValue: key) : nil
    }
  }

  /// The position of the member `key` stands for, or `nil`.
  private func position(of key: Key) -> Int? {
    if let converted { return converted[key.stringValue] }
    if decoder.style == .caseInsensitive {
      return object.members.lastIndex {
        KeyMatching.equalFoldingASCII($0.key.utf8, key.stringValue.utf8)
      }
    }
    return object.index(forKey: key.stringValue)
  }

  func contains(_ key: Key) -> Bool { position(of: key) != nil }

  private func child(_ key: Key) throws -> JSONValueDecoder {
    guard let position = position(of: key) else {
      let jsonKey = decoder.style.jsonKey(forCodingKey: key.stringValue)
      let owner = CodableErrors.owner(of: Key.self).map { " for \($0).\(key.stringValue)" } ?? ""
      let error = JSON.Error(
        .missingValue, "missing key \(JSON.string(jsonKey))\(owner)", path: [.key(jsonKey)])
      throw DecodingError.keyNotFound(
        key,
        DecodingError.Context(
          codingPath: codingPath, debugDescription: error.message,
          underlyingError: decoder.path.locate(error)))
    }
    let member = object.members[position]
    return decoder.child(member.value, key: key, json: member.key)
  }

  func decodeNil(forKey key: Key) throws -> Bool { try child(key).decodeNil() }
  func decode(_: Bool.Type, forKey key: Key) throws -> Bool { try child(key).scalar() }
  func decode(_: String.Type, forKey key: Key) throws -> String { try child(key).scalar() }
  func decode(_: Double.Type, forKey key: Key) throws -> Double { try child(key).scalar() }
  func decode(_: Float.Type, forKey key: Key) throws -> Float { try child(key).scalar() }
  func decode(_: Int.Type, forKey key: Key) throws -> Int { try child(key).scalar() }
  func decode(_: Int8.Type, forKey key: Key) throws -> Int8 { try child(key).scalar() }
  func decode(_: Int16.Type, forKey key: Key) throws -> Int16 { try child(key).scalar() }
  func decode(_: Int32.Type, forKey key: Key) throws -> Int32 { try child(key).scalar() }
  func decode(_: Int64.Type, forKey key: Key) throws -> Int64 { try child(key).scalar() }
  func decode(_: UInt.Type, forKey key: Key) throws -> UInt { try child(key).scalar() }
  func decode(_: UInt8.Type, forKey key: Key) throws -> UInt8 { try child(key).scalar() }
  func decode(_: UInt16.Type, forKey key: Key) throws -> UInt16 { try child(key).scalar() }
  func decode(_: UInt32.Type, forKey key: Key) throws -> UInt32 { try child(key).scalar() }
  func decode(_: UInt64.Type, forKey key: Key) throws -> UInt64 { try child(key).scalar() }

  func decode<T: Decodable>(_: T.Type, forKey key: Key) throws -> T {
    try child(key).decodeValue(T.self)
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type, forKey key: Key) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    try child(key).container(keyedBy: NestedKey.self)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try child(key).unkeyedContainer()
  }

  /// The value under `"super"`, or `null` when there is none (as `JSONDecoder` does).
  func superDecoder() throws -> any Decoder {
    let value = object["super"] ?? .null
    return decoder.child(value, key: AnyCodingKey.super, json: "super")
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    guard let position = position(of: key) else {
      return decoder.child(
        .null, key: key, json: decoder.style.jsonKey(forCodingKey: key.stringValue))
    }
    return decoder.child(
      object.members[position].value, key: key, json: object.members[position].key)
  }
}

/// The elements of a JSON array, in order. The position moves on only when a value was
/// decoded, so that a failed `try?` can be retried as another type (lossy decoding does).
struct UnkeyedJSONDecodingContainer: UnkeyedDecodingContainer {
  let decoder: JSONValueDecoder
  let elements: [JSON]
  private(set) var currentIndex = 0

  init(decoder: JSONValueDecoder, elements: [JSON]) {
    self.decoder = decoder
    self.elements = elements
  }

  var codingPath: [any CodingKey] { decoder.codingPath }
  var count: Int? { elements.count }
  var isAtEnd: Bool { currentIndex >= elements.count }

  private func current(_ type: Any.Type) throws -> JSONValueDecoder {
    guard currentIndex < elements.count else {
      let error = JSON.Error(
        .missingValue,
        "expected a value at [\(currentIndex)], but the array has \(elements.count) elements",
        path: [.index(currentIndex)])
      throw DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: codingPath + [AnyCodingKey(index: currentIndex)],
          debugDescription: error.message, underlyingError: decoder.path.locate(error)))
    }
    return decoder.child(elements[currentIndex], index: currentIndex)
  }

  private mutating func next<T>(_ read: (JSONValueDecoder) throws -> T) throws -> T {
    let value = try read(current(T.self))
    currentIndex += 1
    return value
  }

  mutating func decodeNil() throws -> Bool {
    guard case .null = try current(Never?.self).value else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode(_: Bool.Type) throws -> Bool { try next { try $0.scalar() } }
  mutating func decode(_: String.Type) throws -> String { try next { try $0.scalar() } }
  mutating func decode(_: Double.Type) throws -> Double { try next { try $0.scalar() } }
  mutating func decode(_: Float.Type) throws -> Float { try next { try $0.scalar() } }
  mutating func decode(_: Int.Type) throws -> Int { try next { try $0.scalar() } }
  mutating func decode(_: Int8.Type) throws -> Int8 { try next { try $0.scalar() } }
  mutating func decode(_: Int16.Type) throws -> Int16 { try next { try $0.scalar() } }
  mutating func decode(_: Int32.Type) throws -> Int32 { try next { try $0.scalar() } }
  mutating func decode(_: Int64.Type) throws -> Int64 { try next { try $0.scalar() } }
  mutating func decode(_: UInt.Type) throws -> UInt { try next { try $0.scalar() } }
  mutating func decode(_: UInt8.Type) throws -> UInt8 { try next { try $0.scalar() } }
  mutating func decode(_: UInt16.Type) throws -> UInt16 { try next { try $0.scalar() } }
  mutating func decode(_: UInt32.Type) throws -> UInt32 { try next { try $0.scalar() } }
  mutating func decode(_: UInt64.Type) throws -> UInt64 { try next { try $0.scalar() } }
  mutating func decode<T: Decodable>(_: T.Type) throws -> T {
    try next { try $0.decodeValue(T.self) }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    try next { try $0.container(keyedBy: NestedKey.self) }
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try next { try $0.unkeyedContainer() }
  }

  mutating func superDecoder() throws -> any Decoder { try next { $0 } }
}
