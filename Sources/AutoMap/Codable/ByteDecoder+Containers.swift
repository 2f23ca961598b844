// The containers of ``ByteDecoder``. Every entry point runs through the session's `guarded`:
// an error fails the session, and a decoder kept past its value refuses to work.

/// The members of an object in the bytes, looked up by coding key (`.exact` keys).
struct ByteKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let link: ContainerLink<ByteDecoder>

  /// The decoder, once per call (each look through the link is a retain).
  private var decoder: ByteDecoder { link.node ?? ByteDecoder.cut(link) }

  var codingPath: [any CodingKey] { decoder.codingPath }

  var allKeys: [Key] {
    let decoder = decoder
    return (try? decoder.session.guarded { try decoder.allKeys(Key.self) }) ?? []
  }

  func contains(_ key: Key) -> Bool {
    let decoder = decoder
    return (try? decoder.session.guarded { try decoder.lookup(key.stringValue) != nil }) ?? false
  }

  @inline(__always)
  private func read<R>(_ key: Key, _ read: (inout JSONReader) throws -> R) throws -> R {
    let decoder = decoder
    return try decoder.session.guarded {
      try decoder.read(try decoder.member(key.stringValue), read)
    }
  }

  /// Looks without reading: the value stays for a `decode` after it.
  func decodeNil(forKey key: Key) throws -> Bool {
    let decoder = decoder
    return try decoder.session.guarded {
      let position = try decoder.member(key.stringValue)
      let probe = decoder.session.reader(
        at: decoder.members[position].value, depth: decoder.innerDepth)
      return try probe.pointee.consumeNull()
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
    let session = decoder.session
    return try read(key) { try session.readMapped(Float.self, &$0) }
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
    let decoder = decoder
    return try decoder.session.guarded {
      let position = try decoder.member(key.stringValue)
      if TypeFacts.of(T.self).contains(.decodable) {
        return try decoder.read(position) { try decoder.session.readMapped(T.self, &$0) }
      }
      let child = decoder.memberDecoder(position, .key(key))
      let value = try T(from: child)
      _ = try child.complete()
      return value
    }
  }

  func decodeIfPresent<T: Decodable>(_: T.Type, forKey key: Key) throws -> T? {
    let decoder = decoder
    guard try decoder.session.guarded({ try decoder.lookup(key.stringValue) }) != nil,
      try !decodeNil(forKey: key)
    else { return nil }
    return try decode(T.self, forKey: key)
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type, forKey key: Key) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    let decoder = decoder
    return try decoder.session.guarded {
      try decoder.memberDecoder(try decoder.member(key.stringValue), .key(key))
        .container(keyedBy: NestedKey.self)
    }
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    let decoder = decoder
    return try decoder.session.guarded {
      try decoder.memberDecoder(try decoder.member(key.stringValue), .key(key)).unkeyedContainer()
    }
  }

  func superDecoder() throws -> any Decoder { throw decoder.session.giveUp() }
  func superDecoder(forKey _: Key) throws -> any Decoder { throw decoder.session.giveUp() }
}

/// The external-tag view of an enum in another layout: one key, the case name, whose value is
/// the payload (an object without its tag, the content member's value, or `{}`).
///
/// The payload is read from the enum's decoder (its `virtualCase`) rather than held here: the
/// standard library's box copies the container for each call, and each reference it holds is
/// an atomic retain and release per copy. The name is the container's own, so that `allKeys`
/// and `contains`, which need no session, share nothing that changes (a container used from
/// another thread while its value ends reads no half-written case). Once the value ended the
/// decoder has no case: asked for the payload, the container refuses.
struct ByteVirtualCaseContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let link: ContainerLink<ByteDecoder>
  let name: String
  /// The case's keys, looked up once (a decoder keeps its container for each key type and
  /// case name); `nil` for class keys, which are made for each value (``CaseKeys``).
  private let keys: [Key]?

  init(link: ContainerLink<ByteDecoder>, name: String) {
    self.link = link
    self.name = name
    keys = Key.self is AnyClass ? nil : CaseKeys.keys(Key.self, named: name)
  }

  private var decoder: ByteDecoder { link.node ?? ByteDecoder.cut(link) }

  var codingPath: [any CodingKey] { decoder.codingPath }
  var allKeys: [Key] { keys ?? CaseKeys.keys(Key.self, named: name) }
  /// The case key is the name's bytes, as the reference's `{name: payload}` object has it:
  /// a key `==` takes for the name (another spelling a key type answers with) is not it.
  func contains(_ key: Key) -> Bool { JSON.sameKey(key.stringValue, name) }

  /// The payload's decoder, for the case key.
  private func value(_ key: Key) throws -> ByteDecoder {
    let decoder = decoder
    return try decoder.session.guarded {
      guard JSON.sameKey(key.stringValue, name), let payload = decoder.virtualCase?.payload else {
        throw decoder.session.giveUp()
      }
      payload.step = .key(key)
      return payload
    }
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    try value(key).singleValueContainer().decodeNil()
  }
  func decode<T: Decodable>(_: T.Type, forKey key: Key) throws -> T {
    let payload = try value(key)
    return try payload.session.guarded { try payload.decodeSelf(T.self) }
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
  /// At the next element, or after the array; the depth inside it.
  private var cursor: UnsafePointer<UInt8>
  private var depth = 0
  private var index = 0
  private var isClosed = false

  init(decoder: ByteDecoder) throws {
    self.decoder = decoder
    guard !decoder.isEmptyObject else { throw decoder.session.giveUp() }
    let reader = decoder.session.reader(at: decoder.originCursor, depth: decoder.originDepth)
    let hasElements = try reader.pointee.openContainer(UInt8(ascii: "["), expected: "an array")
    cursor = reader.pointee.cursor
    depth = reader.pointee.depth
    if !hasElements { close() }
  }

  private mutating func close() {
    isClosed = true
    decoder.end = cursor
  }

  var codingPath: [any CodingKey] { decoder.codingPath }
  var currentIndex: Int { index }
  var isAtEnd: Bool { !decoder.session.live || isClosed }

  var count: Int? {
    guard decoder.session.live, !decoder.session.busy else { return nil }
    let probe = decoder.session.reader(at: cursor, depth: depth)
    var remaining = 0
    if !isClosed {
      do {
        repeat {
          try probe.pointee.skipValue()
          remaining += 1
        } while try probe.pointee.nextElement()
      } catch {
        decoder.session.failed = true
        return nil
      }
    }
    // Counted again at each ask (`count` cannot store it); synthesized code never asks.
    return remaining + index
  }

  /// Reads the next element with `read`, given where it starts and the depth, which returns
  /// the value and where it ends; moves on only when it succeeds.
  @inline(__always)
  private mutating func advance<R>(
    _ read: (UnsafePointer<UInt8>, Int) throws -> (R, UnsafePointer<UInt8>)
  ) throws -> R {
    let session = decoder.session
    guard session.live, !session.busy, !isClosed else { throw session.giveUp() }
    do {
      let (value, end) = try read(cursor, depth)
      let reader = session.reader(at: end, depth: depth)
      let more = try reader.pointee.nextElement()
      cursor = reader.pointee.cursor
      index += 1
      if !more { close() }
      return value
    } catch {
      session.failed = true
      throw error
    }
  }

  /// Reads the next element with `read` (a leaf: no other code runs meanwhile).
  @inline(__always)
  private mutating func next<R>(_ read: (inout JSONReader) throws -> R) throws -> R {
    let session = decoder.session
    return try advance { cursor, depth in
      let reader = session.reader(at: cursor, depth: depth)
      let value = try read(&reader.pointee)
      return (value, reader.pointee.cursor)
    }
  }

  mutating func decodeNil() throws -> Bool {
    let session = decoder.session
    guard session.live, !session.busy, !isClosed else { throw session.giveUp() }
    let probe = session.reader(at: cursor, depth: depth)
    guard try session.guarded({ try probe.pointee.consumeNull() }) else { return false }
    return try next { try $0.consumeNull() }
  }

  mutating func decode(_: Bool.Type) throws -> Bool { try next { try $0.readBool() } }
  mutating func decode(_: String.Type) throws -> String { try next { try $0.readStringValue() } }
  mutating func decode(_: Double.Type) throws -> Double {
    try next { try $0.readConfiguredDouble() }
  }
  mutating func decode(_: Float.Type) throws -> Float {
    let session = decoder.session
    return try next { try session.readMapped(Float.self, &$0) }
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
    if TypeFacts.of(T.self).contains(.decodable) {
      return try next { try decoder.session.readMapped(T.self, &$0) }
    }
    return try advance { cursor, depth in
      let child = decoder.child(.index(index), at: cursor, depth: depth)
      let value = try T(from: child)
      return (value, try child.complete())
    }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    let (decoder, index) = (self.decoder, self.index)
    return try advance { cursor, depth in
      let child = decoder.child(.index(index), at: cursor, depth: depth)
      let container = try child.container(keyedBy: NestedKey.self)
      return (container, try child.complete())
    }
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let (decoder, index) = (self.decoder, self.index)
    return try advance { cursor, depth in
      let child = decoder.child(.index(index), at: cursor, depth: depth)
      let container = try child.unkeyedContainer()
      return (container, try child.complete())
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
    try decoder.session.guarded { try decoder.readValue(read) }
  }

  func decodeNil() -> Bool {
    let session = decoder.session
    guard session.live, !session.busy, !decoder.isEmptyObject else { return false }
    let reader = session.reader(at: decoder.originCursor, depth: decoder.originDepth)
    guard reader.pointee.peekByte() == UInt8(ascii: "n") else { return false }
    do {
      try reader.pointee.expectLiteral("null")
      decoder.end = reader.pointee.cursor
      return true
    } catch {
      session.failed = true
      return false
    }
  }

  func decode(_: Bool.Type) throws -> Bool { try read { try $0.readBool() } }
  func decode(_: String.Type) throws -> String { try read { try $0.readStringValue() } }
  func decode(_: Double.Type) throws -> Double { try read { try $0.readConfiguredDouble() } }
  func decode(_: Float.Type) throws -> Float {
    try read { try decoder.session.readMapped(Float.self, &$0) }
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
    let session = decoder.session
    return try session.guarded {
      try session.insideSingleValue(orGiveUp: session.giveUp()) { try decoder.decodeSelf(T.self) }
    }
  }
}
