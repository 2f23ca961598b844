/// Learns the payload of one case of an enum with synthesized `Decodable`, without reading
/// the enum's metadata: its `init(from:)` runs against a decoder that offers the case's name
/// as the only key, and records each payload value the compiler's code asks for (its label,
/// its type, whether it is asked with `decodeIfPresent`). Values are made up as zeros, empty
/// strings and `nil`s; a payload type that cannot be made that way (a `URL`, a raw-value enum
/// with no such case) stops the probe there, and what follows is not known.
enum PayloadProbe {
  struct Field {
    /// The coding key: `radius`, or `_0`, `_1` for unlabeled values.
    let key: String
    let type: Any.Type
    /// Asked with `decode`, not `decodeIfPresent`.
    let required: Bool
  }

  /// What the probe saw of a case.
  struct Payload {
    var fields: [Field] = []
    /// Every payload value was asked for and the case was built.
    var complete = false
  }

  /// The payload of the case `name` of `E`; `nil` when `name` is not a case.
  static func payload<E: Decodable>(of _: E.Type, case name: String) -> Payload? {
    let log = ProbeLog()
    do {
      _ = try E(from: CaseDecoder(name: name, log: log))
      log.payload.complete = true
    } catch {
      guard log.opened else { return nil }
    }
    return log.payload
  }
}

private final class ProbeLog {
  var payload = PayloadProbe.Payload()
  /// The case's payload container was opened: `name` is a case.
  var opened = false
  /// Keys asked about with `contains` (what `decodeIfPresent` does first).
  var checked: Set<String> = []
}

private struct ProbeError: Error {}

/// The decoder the enum's `init(from:)` sees: one key, the case's name.
private struct CaseDecoder: Decoder {
  let name: String
  let log: ProbeLog
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy _: Key.Type) throws -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(CaseContainer<Key>(name: name, log: log))
  }
  func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw ProbeError() }
  func singleValueContainer() throws -> any SingleValueDecodingContainer { throw ProbeError() }
}

private struct CaseContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let name: String
  let log: ProbeLog
  var codingPath: [any CodingKey] { [] }
  var allKeys: [Key] { CaseKeys.built(Key.self, name) }

  func contains(_ key: Key) -> Bool { key.stringValue == name }
  func decodeNil(forKey _: Key) throws -> Bool { false }
  func decode<T: Decodable>(_: T.Type, forKey _: Key) throws -> T { throw ProbeError() }
  func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type, forKey key: Key) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    guard key.stringValue == name else { throw ProbeError() }
    log.opened = true
    return KeyedDecodingContainer(PayloadContainer<NestedKey>(log: log))
  }
  func nestedUnkeyedContainer(forKey _: Key) throws -> any UnkeyedDecodingContainer {
    throw ProbeError()
  }
  func superDecoder() throws -> any Decoder { throw ProbeError() }
  func superDecoder(forKey _: Key) throws -> any Decoder { throw ProbeError() }
}

/// The case's payload: every value asked for is recorded, and answered with a zero.
private struct PayloadContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let log: ProbeLog
  var codingPath: [any CodingKey] { [] }
  var allKeys: [Key] { [] }

  func contains(_ key: Key) -> Bool {
    log.checked.insert(key.stringValue)
    return true
  }
  func decodeNil(forKey _: Key) throws -> Bool { false }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    log.payload.fields.append(
      PayloadProbe.Field(
        key: key.stringValue, type: type, required: !log.checked.contains(key.stringValue)))
    return try zero(T.self, depth: 0)
  }
  func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type, forKey _: Key) throws
    -> KeyedDecodingContainer<NestedKey>
  { throw ProbeError() }
  func nestedUnkeyedContainer(forKey _: Key) throws -> any UnkeyedDecodingContainer {
    throw ProbeError()
  }
  func superDecoder() throws -> any Decoder { throw ProbeError() }
  func superDecoder(forKey _: Key) throws -> any Decoder { throw ProbeError() }
}

/// Makes the simplest value of a type: zeros, `false`, empty strings and containers, `nil`.
private struct ZeroDecoder: Decoder {
  let depth: Int
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy _: Key.Type) throws -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(ZeroKeyed<Key>(depth: depth))
  }
  func unkeyedContainer() throws -> any UnkeyedDecodingContainer { ZeroUnkeyed() }
  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    ZeroSingle(depth: depth)
  }
}

private struct ZeroSingle: SingleValueDecodingContainer {
  let depth: Int
  var codingPath: [any CodingKey] { [] }
  func decodeNil() -> Bool { true }
  func decode<T: Decodable>(_: T.Type) throws -> T { try zero(T.self, depth: depth + 1) }
}

private struct ZeroKeyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let depth: Int
  var codingPath: [any CodingKey] { [] }
  var allKeys: [Key] { [] }
  func contains(_: Key) -> Bool { false }
  func decodeNil(forKey _: Key) throws -> Bool { true }
  func decode<T: Decodable>(_: T.Type, forKey _: Key) throws -> T {
    try zero(T.self, depth: depth + 1)
  }
  func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type, forKey _: Key) throws
    -> KeyedDecodingContainer<NestedKey>
  { KeyedDecodingContainer(ZeroKeyed<NestedKey>(depth: depth + 1)) }
  func nestedUnkeyedContainer(forKey _: Key) throws -> any UnkeyedDecodingContainer {
    ZeroUnkeyed()
  }
  func superDecoder() throws -> any Decoder { ZeroDecoder(depth: depth + 1) }
  func superDecoder(forKey _: Key) throws -> any Decoder { ZeroDecoder(depth: depth + 1) }
}

private struct ZeroUnkeyed: UnkeyedDecodingContainer {
  var codingPath: [any CodingKey] { [] }
  var count: Int? { 0 }
  var isAtEnd: Bool { true }
  var currentIndex: Int { 0 }
  mutating func decodeNil() throws -> Bool { throw ProbeError() }
  mutating func decode<T: Decodable>(_: T.Type) throws -> T { throw ProbeError() }
  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  { throw ProbeError() }
  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    throw ProbeError()
  }
  mutating func superDecoder() throws -> any Decoder { throw ProbeError() }
}

/// The zero of a standard scalar, or the type's own `init(from:)` on a ``ZeroDecoder``;
/// bounded, for a class that holds itself and can never be made.
private func zero<T: Decodable>(_: T.Type, depth: Int) throws -> T {
  guard depth < 32 else { throw ProbeError() }
  if let value = false as? T ?? "" as? T { return value }
  if let integer = T.self as? any BinaryInteger.Type, let value = integer.init(0) as? T {
    return value
  }
  if let float = T.self as? any BinaryFloatingPoint.Type, let value = float.init(0) as? T {
    return value
  }
  return try T(from: ZeroDecoder(depth: depth))
}
