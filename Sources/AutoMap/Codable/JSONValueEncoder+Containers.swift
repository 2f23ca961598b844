// The keyed and unkeyed containers of ``JSONValueEncoder``.

/// Writes object members, each coding key written in the encoder's key style.
struct KeyedJSONEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let encoder: JSONValueEncoder

  var codingPath: [any CodingKey] { encoder.codingPath }

  private func child(_ key: Key, fresh: Bool = true) -> JSONValueEncoder {
    let json = encoder.style.jsonKey(forCodingKey: key.stringValue)
    return encoder.child(encoder.box.member(json, fresh: fresh), key: key, json: json)
  }

  mutating func encodeNil(forKey key: Key) throws { child(key).set(.null) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { try child(key).encode(value) }
  mutating func encode(_ value: String, forKey key: Key) throws { try child(key).encode(value) }
  mutating func encode(_ value: Double, forKey key: Key) throws { try child(key).encode(value) }
  mutating func encode(_ value: Float, forKey key: Key) throws { try child(key).encode(value) }
  mutating func encode(_ value: Int, forKey key: Key) throws { try child(key).encode(value) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { try child(key).encode(value) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { try child(key).encode(value) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { try child(key).encode(value) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { try child(key).encode(value) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { try child(key).encode(value) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { try child(key).encode(value) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { try child(key).encode(value) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { try child(key).encode(value) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { try child(key).encode(value) }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try child(key).encodeValue(value)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy _: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    child(key, fresh: false).container(keyedBy: NestedKey.self)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    child(key, fresh: false).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    encoder.child(encoder.box.member("super", fresh: true), key: AnyCodingKey.super, json: "super")
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder { child(key) }
}

/// Appends array elements.
struct UnkeyedJSONEncodingContainer: UnkeyedEncodingContainer {
  let encoder: JSONValueEncoder

  var codingPath: [any CodingKey] { encoder.codingPath }
  var count: Int { encoder.box.elements.count }

  private func next() -> JSONValueEncoder {
    let position = count
    return encoder.child(encoder.box.appendElement(), index: position)
  }

  mutating func encodeNil() throws { next().set(.null) }
  mutating func encode(_ value: Bool) throws { try next().encode(value) }
  mutating func encode(_ value: String) throws { try next().encode(value) }
  mutating func encode(_ value: Double) throws { try next().encode(value) }
  mutating func encode(_ value: Float) throws { try next().encode(value) }
  mutating func encode(_ value: Int) throws { try next().encode(value) }
  mutating func encode(_ value: Int8) throws { try next().encode(value) }
  mutating func encode(_ value: Int16) throws { try next().encode(value) }
  mutating func encode(_ value: Int32) throws { try next().encode(value) }
  mutating func encode(_ value: Int64) throws { try next().encode(value) }
  mutating func encode(_ value: UInt) throws { try next().encode(value) }
  mutating func encode(_ value: UInt8) throws { try next().encode(value) }
  mutating func encode(_ value: UInt16) throws { try next().encode(value) }
  mutating func encode(_ value: UInt32) throws { try next().encode(value) }
  mutating func encode(_ value: UInt64) throws { try next().encode(value) }
  mutating func encode<T: Encodable>(_ value: T) throws { try next().encodeValue(value) }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    next().container(keyedBy: NestedKey.self)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    next().unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder { next() }
}
