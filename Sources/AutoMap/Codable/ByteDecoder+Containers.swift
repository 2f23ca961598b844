// The containers of ``ByteDecoder``. Every entry point runs through the session's `guarded`:
// an error fails the session, and a decoder kept past its value refuses to work.

/// The members of an object in the bytes, looked up by coding key (`.exact` keys).
struct ByteKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let decoder: ByteDecoder

  var codingPath: [any CodingKey] { decoder.codingPath }

  var allKeys: [Key] {
    (try? decoder.session.guarded { try decoder.allKeys() })?.compactMap {
      Key(stringValue: $0)
    } ?? []
  }

  func contains(_ key: Key) -> Bool {
    (try? decoder.session.guarded { try decoder.lookup(key.stringValue) != nil }) ?? false
  }

  @inline(__always)
  private func read<R>(_ key: Key, _ read: (inout JSONReader) throws -> R) throws -> R {
    try decoder.session.guarded {
      try decoder.read(try decoder.member(key.stringValue), read)
    }
  }

  /// Looks without reading: the value stays for a `decode` after it.
  func decodeNil(forKey key: Key) throws -> Bool {
    try decoder.session.guarded {
      let position = try decoder.member(key.stringValue)
      var probe = decoder.scan
      probe.cursor = decoder.members[position].value
      return try probe.consumeNull()
    }
  }

  func decode(_: Bool.Type, forKey key: Key) throws -> Bool { try read(key) { try $0.readBool() } }
  func decode(_: String.Type, forKey key: Key) throws -> String {
    try read(key) { try $0.readStringValue() }
  }
  func decode(_: Double.Type, forKey key: Key) throws -> Double {
    try read(key) { try $0.readConfiguredDouble() }
  }
  func decode(_: Float.Type, forKey key: Key) throws -> Float {
    try read(key) { try ByteDecoder.readMapped(Float.self, &$0) }
  }
  func decode(_: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
  func decode(_: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
  func decode(_: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
  func decode(_: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
  func decode(_: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
  func decode(_: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
  func decode(_: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
  func decode(_: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
  func decode(_: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
  func decode(_: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }

  @inline(__always)
  private func integer<T: FixedWidthInteger & JSONDecodable>(_ key: Key) throws -> T {
    try read(key) { try $0.readInteger(T.self) }
  }

  func decode<T: Decodable>(_: T.Type, forKey key: Key) throws -> T {
    try decoder.session.guarded {
      let position = try decoder.member(key.stringValue)
      if T.self is any JSONDecodable.Type {
        return try decoder.read(position) { try ByteDecoder.readMapped(T.self, &$0) }
      }
      let child = decoder.memberDecoder(position, key: key)
      let value = try child.decodeSelf(T.self)
      _ = try child.complete()
      return value
    }
  }

  func decodeIfPresent<T: Decodable>(_: T.Type, forKey key: Key) throws -> T? {
    guard try decoder.session.guarded({ try decoder.lookup(key.stringValue) }) != nil,
      try !decodeNil(forKey: key)
    else { return nil }
    return try decode(T.self, forKey: key)
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type, forKey key: Key) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    try decoder.session.guarded {
      try decoder.memberDecoder(try decoder.member(key.stringValue), key: key)
        .container(keyedBy: NestedKey.self)
    }
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try decoder.session.guarded {
      try decoder.memberDecoder(try decoder.member(key.stringValue), key: key).unkeyedContainer()
    }
  }

  func superDecoder() throws -> any Decoder { throw decoder.session.giveUp() }
  func superDecoder(forKey _: Key) throws -> any Decoder { throw decoder.session.giveUp() }
}

/// The external-tag view of an enum in another layout: one key, the case name, whose value is
/// the payload (an object without its tag, the content member's value, or `{}`).
struct ByteVirtualCaseContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let decoder: ByteDecoder
  let name: String
  let payload: ByteDecoder

  var codingPath: [any CodingKey] { decoder.codingPath }
  var allKeys: [Key] { Key(stringValue: name).map { [$0] } ?? [] }
  func contains(_ key: Key) -> Bool { key.stringValue == name }

  /// The payload's decoder, for the case key.
  private func value(_ key: Key) throws -> ByteDecoder {
    try decoder.session.guarded {
      guard key.stringValue == name else { throw decoder.session.giveUp() }
      payload.step = .key(key)
      return payload
    }
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    try value(key).singleValueContainer().decodeNil()
  }
  func decode<T: Decodable>(_: T.Type, forKey key: Key) throws -> T {
    let payload = try value(key)
    return try decoder.session.guarded { try payload.decodeSelf(T.self) }
  }
  func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type, forKey key: Key) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    try value(key).container(keyedBy: NestedKey.self)
  }
  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try value(key).unkeyedContainer()
  }
  func superDecoder() throws -> any Decoder { throw decoder.session.giveUp() }
  func superDecoder(forKey _: Key) throws -> any Decoder { throw decoder.session.giveUp() }
}

/// The elements of an array in the bytes, in order. As in the reference, the position moves
/// on only when a value was decoded.
struct ByteUnkeyedContainer: UnkeyedDecodingContainer {
  private let decoder: ByteDecoder
  /// At the next element, or after the array.
  private var reader: JSONReader
  private var index = 0
  private var isClosed = false

  init(decoder: ByteDecoder) throws {
    self.decoder = decoder
    reader = decoder.origin
    if try !reader.openContainer(UInt8(ascii: "["), expected: "an array") { close() }
  }

  private mutating func close() {
    reader.leaveContainer()
    isClosed = true
    decoder.end = reader.cursor
  }

  var codingPath: [any CodingKey] { decoder.codingPath }
  var currentIndex: Int { index }
  var isAtEnd: Bool { !decoder.session.live || isClosed }

  var count: Int? {
    guard decoder.session.live else { return nil }
    var probe = reader
    var remaining = 0
    if !isClosed {
      do {
        repeat {
          try probe.skipValue()
          remaining += 1
        } while try probe.nextElement()
      } catch {
        decoder.session.failed = true
        return nil
      }
    }
    // Counted again at each ask (`count` cannot store it); synthesized code never asks.
    return remaining + index
  }

  /// Reads the next element with `read`; moves on only when it succeeds.
  @inline(__always)
  private mutating func next<R>(_ read: (inout JSONReader) throws -> R) throws -> R {
    guard decoder.session.live, !isClosed else { throw decoder.session.giveUp() }
    var element = reader
    do {
      let value = try read(&element)
      reader.cursor = element.cursor
      index += 1
      if try !reader.nextElement() { close() }
      return value
    } catch {
      decoder.session.failed = true
      throw error
    }
  }

  mutating func decodeNil() throws -> Bool {
    guard decoder.session.live, !isClosed else { throw decoder.session.giveUp() }
    var probe = reader
    guard try decoder.session.guarded({ try probe.consumeNull() }) else { return false }
    return try next { try $0.consumeNull() }
  }

  mutating func decode(_: Bool.Type) throws -> Bool { try next { try $0.readBool() } }
  mutating func decode(_: String.Type) throws -> String { try next { try $0.readStringValue() } }
  mutating func decode(_: Double.Type) throws -> Double {
    try next { try $0.readConfiguredDouble() }
  }
  mutating func decode(_: Float.Type) throws -> Float {
    try next { try ByteDecoder.readMapped(Float.self, &$0) }
  }
  mutating func decode(_: Int.Type) throws -> Int { try next { try $0.readInteger(Int.self) } }
  mutating func decode(_: Int8.Type) throws -> Int8 { try next { try $0.readInteger(Int8.self) } }
  mutating func decode(_: Int16.Type) throws -> Int16 {
    try next { try $0.readInteger(Int16.self) }
  }
  mutating func decode(_: Int32.Type) throws -> Int32 {
    try next { try $0.readInteger(Int32.self) }
  }
  mutating func decode(_: Int64.Type) throws -> Int64 {
    try next { try $0.readInteger(Int64.self) }
  }
  mutating func decode(_: UInt.Type) throws -> UInt { try next { try $0.readInteger(UInt.self) } }
  mutating func decode(_: UInt8.Type) throws -> UInt8 {
    try next { try $0.readInteger(UInt8.self) }
  }
  mutating func decode(_: UInt16.Type) throws -> UInt16 {
    try next { try $0.readInteger(UInt16.self) }
  }
  mutating func decode(_: UInt32.Type) throws -> UInt32 {
    try next { try $0.readInteger(UInt32.self) }
  }
  mutating func decode(_: UInt64.Type) throws -> UInt64 {
    try next { try $0.readInteger(UInt64.self) }
  }

  mutating func decode<T: Decodable>(_: T.Type) throws -> T {
    let (decoder, index) = (self.decoder, self.index)
    return try next { reader in try decoder.decodeValue(T.self, .index(index), &reader) }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    let (decoder, index) = (self.decoder, self.index)
    return try next { reader in
      let child = decoder.child(.index(index), at: reader)
      let container = try child.container(keyedBy: NestedKey.self)
      reader.cursor = try child.complete()
      return container
    }
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let (decoder, index) = (self.decoder, self.index)
    return try next { reader in
      let child = decoder.child(.index(index), at: reader)
      let container = try child.unkeyedContainer()
      reader.cursor = try child.complete()
      return container
    }
  }

  mutating func superDecoder() throws -> any Decoder { throw decoder.session.giveUp() }
}

/// One value in the bytes.
struct ByteSingleValueContainer: SingleValueDecodingContainer {
  let decoder: ByteDecoder

  var codingPath: [any CodingKey] { decoder.codingPath }

  @inline(__always)
  private func read<R>(_ read: (inout JSONReader) throws -> R) throws -> R {
    try decoder.session.guarded {
      var reader = decoder.origin
      let value = try read(&reader)
      decoder.end = reader.cursor
      return value
    }
  }

  func decodeNil() -> Bool {
    guard decoder.session.live else { return false }
    var reader = decoder.origin
    guard reader.peekByte() == UInt8(ascii: "n") else { return false }
    do {
      try reader.expectLiteral("null")
      decoder.end = reader.cursor
      return true
    } catch {
      decoder.session.failed = true
      return false
    }
  }

  func decode(_: Bool.Type) throws -> Bool { try read { try $0.readBool() } }
  func decode(_: String.Type) throws -> String { try read { try $0.readStringValue() } }
  func decode(_: Double.Type) throws -> Double { try read { try $0.readConfiguredDouble() } }
  func decode(_: Float.Type) throws -> Float {
    try read { try ByteDecoder.readMapped(Float.self, &$0) }
  }
  func decode(_: Int.Type) throws -> Int { try read { try $0.readInteger(Int.self) } }
  func decode(_: Int8.Type) throws -> Int8 { try read { try $0.readInteger(Int8.self) } }
  func decode(_: Int16.Type) throws -> Int16 { try read { try $0.readInteger(Int16.self) } }
  func decode(_: Int32.Type) throws -> Int32 { try read { try $0.readInteger(Int32.self) } }
  func decode(_: Int64.Type) throws -> Int64 { try read { try $0.readInteger(Int64.self) } }
  func decode(_: UInt.Type) throws -> UInt { try read { try $0.readInteger(UInt.self) } }
  func decode(_: UInt8.Type) throws -> UInt8 { try read { try $0.readInteger(UInt8.self) } }
  func decode(_: UInt16.Type) throws -> UInt16 { try read { try $0.readInteger(UInt16.self) } }
  func decode(_: UInt32.Type) throws -> UInt32 { try read { try $0.readInteger(UInt32.self) } }
  func decode(_: UInt64.Type) throws -> UInt64 { try read { try $0.readInteger(UInt64.self) } }
  func decode<T: Decodable>(_: T.Type) throws -> T {
    try decoder.session.guarded { try decoder.decodeSelf(T.self) }
  }
}
