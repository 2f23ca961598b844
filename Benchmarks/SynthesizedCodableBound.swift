import AutoMap
import Foundation

/// The least any `Decoder` or `Encoder` can cost for an enum with payloads: its synthesized
/// `Codable` run against coders that do no work of their own.
///
/// AutoMap maps enums with payloads through their synthesized `Codable` (it never reads an
/// enum's memory layout), and so does Foundation. The standard library's part of that code
/// (boxing each keyed container, casting `allKeys`, generic metadata lookups) is paid by every
/// coder alike. ``NullDecoder`` hands the synthesized `init(from:)` values already known, in
/// order, and ``NullEncoder`` drops what it is given: Foundation's time over theirs is the
/// highest ratio any coder can reach on the same values.
///
/// Both call the synthesized code unspecialized, as a library does (AutoMap and `JSONDecoder`
/// alike reach `init(from:)` through the `Decodable` witness). Both keep what a coder can keep
/// from one value to the next, as AutoMap's do: each keyed container (one per key type,
/// made once) and each case's keys (`allKeys`, one array per key type and name). What is
/// left is what no coder can avoid: the synthesized code, the standard library's box around
/// each container and its cast of `allKeys`.
enum SynthesizedCodableBound {
  /// An enum value as its synthesized `encode(to:)` gives it: the case key and the payload's
  /// numbers in order (the benchmark's enums carry numbers only).
  struct Parts: Equatable {
    var name: String
    var numbers: [Double]
  }

  /// Each value's case and numbers, recorded by a ``NullEncoder``.
  static func parts<T: Encodable>(_ values: [T]) throws -> [Parts] {
    let encoder = NullEncoder()
    encoder.recording = true
    return try values.map { value in
      encoder.parts = Parts(name: "", numbers: [])
      try value.encode(to: encoder)
      return encoder.parts
    }
  }

  /// The decode bound: `values` decoded from their parts by ``NullDecoder``, checked to give
  /// the same values back.
  static func decode<T: Codable>(_ values: [T]) throws -> Measurement {
    let parts = try parts(values)
    guard try self.parts(decodeAll(T.self, parts)) == parts else {
      throw JSON.Error.custom("\(T.self): the null decoder reads other values")
    }
    return Measurement(name: "bound") { _ = try decodeAll(T.self, parts) }
  }

  /// The encode bound: `values` written to a ``NullEncoder``.
  static func encode<T: Encodable>(_ values: [T]) -> Measurement {
    Measurement(name: "bound") { _ = try encodeAll(values) }
  }

  @inline(never) @_semantics("optimize.sil.specialize.generic.never")
  private static func decodeAll<T: Decodable>(_: T.Type, _ parts: [Parts]) throws -> [T] {
    let decoder = NullDecoder()
    var values: [T] = []
    values.reserveCapacity(parts.count)
    for part in parts {
      decoder.parts = part
      decoder.next = 0
      values.append(try T(from: decoder))
    }
    return values
  }

  @inline(never) @_semantics("optimize.sil.specialize.generic.never")
  private static func encodeAll<T: Encodable>(_ values: [T]) throws -> Double {
    let encoder = NullEncoder()
    for value in values { try value.encode(to: encoder) }
    return encoder.checksum
  }
}

/// A `Decoder` that hands synthesized `init(from:)` the case and numbers of one value.
final class NullDecoder: Decoder {
  var parts = SynthesizedCodableBound.Parts(name: "", numbers: [])
  var next = 0
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  var kept = KeptByType()

  func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedDecodingContainer<Key> {
    kept.value(Key.self) { KeyedDecodingContainer(NullKeyedDecoding<Key>(decoder: self)) }
  }
  func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw unused() }
  func singleValueContainer() throws -> any SingleValueDecodingContainer { throw unused() }

  func number() throws -> Double {
    guard next < parts.numbers.count else { throw unused() }
    defer { next += 1 }
    return parts.numbers[next]
  }

  func unused() -> DecodingError {
    .dataCorrupted(.init(codingPath: [], debugDescription: "not used by the benchmark's enums"))
  }
}

struct NullKeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
  unowned(unsafe) let decoder: NullDecoder
  var codingPath: [any CodingKey] { [] }
  var allKeys: [Key] {
    let name = decoder.parts.name
    return decoder.kept.value(Key.self, name: name) { Key(stringValue: name).map { [$0] } ?? [] }
  }
  func contains(_: Key) -> Bool { true }
  func decodeNil(forKey _: Key) throws -> Bool { false }
  func decode(_: Double.Type, forKey _: Key) throws -> Double { try decoder.number() }
  func decode(_: Int.Type, forKey _: Key) throws -> Int { Int(try decoder.number()) }
  func decode(_: Bool.Type, forKey _: Key) throws -> Bool { throw decoder.unused() }
  func decode(_: String.Type, forKey _: Key) throws -> String { throw decoder.unused() }
  func decode(_: Float.Type, forKey _: Key) throws -> Float { throw decoder.unused() }
  func decode(_: Int8.Type, forKey _: Key) throws -> Int8 { throw decoder.unused() }
  func decode(_: Int16.Type, forKey _: Key) throws -> Int16 { throw decoder.unused() }
  func decode(_: Int32.Type, forKey _: Key) throws -> Int32 { throw decoder.unused() }
  func decode(_: Int64.Type, forKey _: Key) throws -> Int64 { throw decoder.unused() }
  func decode(_: UInt.Type, forKey _: Key) throws -> UInt { throw decoder.unused() }
  func decode(_: UInt8.Type, forKey _: Key) throws -> UInt8 { throw decoder.unused() }
  func decode(_: UInt16.Type, forKey _: Key) throws -> UInt16 { throw decoder.unused() }
  func decode(_: UInt32.Type, forKey _: Key) throws -> UInt32 { throw decoder.unused() }
  func decode(_: UInt64.Type, forKey _: Key) throws -> UInt64 { throw decoder.unused() }
  func decode<T: Decodable>(_: T.Type, forKey _: Key) throws -> T { throw decoder.unused() }
  func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type, forKey _: Key)
    -> KeyedDecodingContainer<NestedKey>
  {
    decoder.kept.value(NestedKey.self) {
      KeyedDecodingContainer(NullKeyedDecoding<NestedKey>(decoder: decoder))
    }
  }
  func nestedUnkeyedContainer(forKey _: Key) throws -> any UnkeyedDecodingContainer {
    throw decoder.unused()
  }
  func superDecoder() throws -> any Decoder { throw decoder.unused() }
  func superDecoder(forKey _: Key) throws -> any Decoder { throw decoder.unused() }
}

/// An `Encoder` that keeps a checksum of the numbers it is given (and, `recording`, the case
/// key and the numbers).
final class NullEncoder: Encoder {
  var recording = false
  var parts = SynthesizedCodableBound.Parts(name: "", numbers: [])
  var checksum = 0.0
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  var kept = KeptByType()

  func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
    kept.value(Key.self) { KeyedEncodingContainer(NullKeyedEncoding<Key>(encoder: self)) }
  }
  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    fatalError("not used by the benchmark's enums")
  }
  func singleValueContainer() -> any SingleValueEncodingContainer {
    fatalError("not used by the benchmark's enums")
  }

  func note(_ number: Double) {
    checksum += number
    if recording { parts.numbers.append(number) }
  }

  func unused() -> EncodingError {
    .invalidValue((), .init(codingPath: [], debugDescription: "not used by the benchmark's enums"))
  }
}

struct NullKeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
  unowned(unsafe) let encoder: NullEncoder
  var codingPath: [any CodingKey] { [] }
  mutating func encode(_ value: Double, forKey _: Key) throws { encoder.note(value) }
  mutating func encode(_ value: Int, forKey _: Key) throws { encoder.note(Double(value)) }
  mutating func encodeNil(forKey _: Key) throws { throw encoder.unused() }
  mutating func encode(_: Bool, forKey _: Key) throws { throw encoder.unused() }
  mutating func encode(_: String, forKey _: Key) throws { throw encoder.unused() }
  mutating func encode(_: Float, forKey _: Key) throws { throw encoder.unused() }
  mutating func encode(_: Int8, forKey _: Key) throws { throw encoder.unused() }
  mutating func encode(_: Int16, forKey _: Key) throws { throw encoder.unused() }
  mutating func encode(_: Int32, forKey _: Key) throws { throw encoder.unused() }
  mutating func encode(_: Int64, forKey _: Key) throws { throw encoder.unused() }
  mutating func encode(_: UInt, forKey _: Key) throws { throw encoder.unused() }
  mutating func encode(_: UInt8, forKey _: Key) throws { throw encoder.unused() }
  mutating func encode(_: UInt16, forKey _: Key) throws { throw encoder.unused() }
  mutating func encode(_: UInt32, forKey _: Key) throws { throw encoder.unused() }
  mutating func encode(_: UInt64, forKey _: Key) throws { throw encoder.unused() }
  mutating func encode<T: Encodable>(_: T, forKey _: Key) throws { throw encoder.unused() }
  /// The case key: the outer container's one nested container.
  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  {
    if encoder.recording { encoder.parts.name = key.stringValue }
    return encoder.kept.value(NestedKey.self) {
      KeyedEncodingContainer(NullKeyedEncoding<NestedKey>(encoder: encoder))
    }
  }
  mutating func nestedUnkeyedContainer(forKey _: Key) -> any UnkeyedEncodingContainer {
    fatalError("not used by the benchmark's enums")
  }
  mutating func superEncoder() -> any Encoder { fatalError("not used by the benchmark's enums") }
  mutating func superEncoder(forKey _: Key) -> any Encoder {
    fatalError("not used by the benchmark's enums")
  }
}

/// Values a null coder made once and hands out again, by type (and name). Nothing checks
/// that a container handed out is not still held: the synthesized code never keeps one.
struct KeptByType {
  private var entries: [(type: ObjectIdentifier, name: String?, held: AnyObject)] = []

  /// The value kept for `Key` and `name` (a container: `nil`; a case's keys: the case name).
  mutating func value<Key, Value>(_: Key.Type, name: String? = nil, _ make: () -> Value) -> Value {
    let type = ObjectIdentifier(Key.self)
    for entry in entries where entry.type == type && entry.name == name {
      return unsafeDowncast(entry.held, to: Held<Value>.self).copy()
    }
    let value = make()
    entries.append((type, name, Held(value)))
    return value
  }
}

/// One kept value. Copied out by a method that is never specialized: it finds the value's type
/// in its own metadata, where a caller generic over the key would look it up.
final class Held<Value> {
  let value: Value
  init(_ value: Value) { self.value = value }

  @inline(never) @_semantics("optimize.sil.specialize.generic.never")
  func copy() -> Value { value }
}
