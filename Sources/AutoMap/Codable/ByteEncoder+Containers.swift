// The containers of ``ByteEncoder``. Every entry point that writes runs through the session's
// `guarded`: anything the encoder does not write as the reference would fails the session.
// The few that cannot throw and write nothing (`superEncoder`, a nested unkeyed container
// under a key, a container of a layout the encoder does not write) set `failed` without the
// guard: on a session that has finished this changes nothing, since an encoder kept past its
// value holds its root (or an ended session of its own), which is then never kept as a spare.

extension ByteEncoder {
  /// Writes one member: the key (a second write of it fails the session), then the value by
  /// `write`. Under `.omitNulls` a member whose value wrote `null` is taken back, as the
  /// reference leaves it out.
  @inline(__always)
  func member(_ name: String, _ write: () throws -> Void) throws {
    try session.guarded {
      guard state == .keyed else { throw session.giveUp() }
      try session.enter(self)
      // Objects of more keys than this are left to the reference.
      guard session.keys.count - firstKey < 64 else { throw session.giveUp() }
      for index in firstKey..<session.keys.count where session.keys[index] == name {
        throw session.giveUp()
      }
      if session.keys.capacity == 0 { session.keys.reserveCapacity(8) }
      session.keys.append(name)
      let mark = session.writer.pointee.mark
      session.writer.pointee.writeKey(name)
      let start = session.writer.pointee.bytes.count
      try write()
      if session.writer.pointee.omitNulls && session.writer.pointee.wroteNull(since: start) {
        session.writer.pointee.rollBack(to: mark)
      }
    }
  }

  /// An encoder for what this one does not write (`superEncoder`): the session fails.
  func refused(_ step: ByteStep) -> ByteEncoder {
    session.failed = true
    return child(step)
  }

  /// Writes one array element with `write`.
  @inline(__always)
  func element(_ write: () throws -> Void) throws {
    try session.guarded {
      guard state == .unkeyed else { throw session.giveUp() }
      try session.enter(self)
      session.writer.pointee.beginElement()
      count += 1
      try write()
    }
  }

  /// Writes this encoder's single value with `write`.
  @inline(__always)
  func single(_ write: () throws -> Void) throws {
    try session.guarded {
      guard state == .fresh else { throw session.giveUp() }
      state = .single
      try write()
    }
  }

  /// Writes a value of any type where the writer stands, through an encoder of its own.
  func write<T: Encodable>(_ value: T, _ step: ByteStep) throws {
    if let mapped = try mapped(value) { return try writeMapped(mapped) }
    let child = child(step)
    try value.encode(to: child)
    try child.finish()
    session.keepChild(consume child)
  }

  /// A nested container where the writer stands: an encoder of its own, open until its
  /// parent goes on.
  func nested(_ step: ByteStep, _ kind: State) -> ByteEncoder {
    let nested = child(step)
    do {
      try session.guarded {
        nested.state = kind
        if kind == .keyed {
          try session.writer.pointee.beginObject()
        } else {
          try session.writer.pointee.beginArray()
        }
        session.push(nested)
      }
    } catch {}  // the session failed: every write into the container fails it again
    return nested
  }

  /// Writes a double as `Double`'s own codec does; a non-finite one is left to the reference
  /// (its configuration may write it as a string).
  @inline(__always)
  func writeDouble(_ value: Double) throws {
    guard value.isFinite else { throw session.giveUp() }
    try session.writer.pointee.writeConfiguredDouble(value)
  }
}

/// Writes object members: coding keys as they are (`.exact`).
struct ByteKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let link: ContainerLink<ByteEncoder>

  private var encoder: ByteEncoder { link.node ?? ByteEncoder.cut(link) }

  var codingPath: [any CodingKey] { encoder.codingPath }

  mutating func encodeNil(forKey key: Key) throws {
    let encoder = encoder
    try encoder.member(key.stringValue) { encoder.session.writer.pointee.writeNull() }
  }
  mutating func encode(_ value: Bool, forKey key: Key) throws {
    let encoder = encoder
    try encoder.member(key.stringValue) { encoder.session.writer.pointee.writeBool(value) }
  }
  mutating func encode(_ value: String, forKey key: Key) throws {
    let encoder = encoder
    try encoder.member(key.stringValue) { encoder.session.writer.pointee.writeString(value) }
  }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    let encoder = encoder
    try encoder.member(key.stringValue) { try encoder.writeDouble(value) }
  }
  mutating func encode(_ value: Float, forKey key: Key) throws { try generic(value, key) }
  mutating func encode(_ value: Int, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { try integer(value, key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { try integer(value, key) }

  @inline(__always)
  private func integer<T: FixedWidthInteger>(_ value: T, _ key: Key) throws {
    let encoder = encoder
    try encoder.member(key.stringValue) { encoder.session.writer.pointee.writeInteger(value) }
  }

  private func generic<T: Encodable>(_ value: T, _ key: Key) throws {
    let encoder = encoder
    try encoder.member(key.stringValue) { try encoder.write(value, .key(key)) }
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try generic(value, key) }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy _: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let encoder = encoder
    var nested: ByteEncoder?
    try? encoder.member(key.stringValue) { nested = encoder.nested(.key(key), .keyed) }
    return (nested ?? encoder.child(.key(key))).keyed(NestedKey.self)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let encoder = encoder
    var nested: ByteEncoder?
    try? encoder.member(key.stringValue) { nested = encoder.nested(.key(key), .unkeyed) }
    return ByteUnkeyedEncodingContainer(encoder: nested ?? encoder.child(.key(key)))
  }

  mutating func superEncoder() -> any Encoder { encoder.refused(.key(AnyCodingKey.super)) }
  mutating func superEncoder(forKey key: Key) -> any Encoder { encoder.refused(.key(key)) }
}

/// The external-tag view synthesized `encode(to:)` writes into, laid out as the enum's internal
/// or adjacent tag: its one case key opens the tagged object.
struct ByteVirtualCaseEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let link: ContainerLink<ByteEncoder>

  private var encoder: ByteEncoder { link.node ?? ByteEncoder.cut(link) }

  var codingPath: [any CodingKey] { encoder.codingPath }

  private func refuse() throws -> Never { throw encoder.session.giveUp() }

  mutating func encodeNil(forKey _: Key) throws { try refuse() }
  mutating func encode<T: Encodable>(_: T, forKey _: Key) throws { try refuse() }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy _: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let encoder = encoder
    let session = encoder.session
    var payload: ByteEncoder?
    do {
      try session.guarded {
        guard encoder.state == .virtualCase, encoder.count == 0 else { throw session.giveUp() }
        encoder.count = 1
        try session.enter(encoder)
        guard case .tagged(let keys) = encoder.layout else { throw session.giveUp() }
        try session.writer.pointee.beginObject()
        session.writer.pointee.writeKey(quotedBytes: keys.quotedTag)
        session.writer.pointee.writeString(key.stringValue)
        if let quotedContent = keys.quotedContent {
          // Adjacent tag: the payload is the content member's value.
          let mark = session.writer.pointee.mark
          session.writer.pointee.writeKey(quotedBytes: quotedContent)
          let members = encoder.nested(.key(key), .keyed)
          members.dropIfEmpty = mark
          payload = members
        } else {
          // Internal tag: the payload's members are the tagged object's own.
          let members = encoder.child(.key(key))
          members.state = .keyed
          session.push(members)
          payload = members
          session.keys.append(keys.tag)
        }
      }
    } catch {}
    return (payload ?? encoder.child(.key(key))).keyed(NestedKey.self)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    encoder.session.failed = true
    return ByteUnkeyedEncodingContainer(encoder: encoder.child(.key(key)))
  }

  mutating func superEncoder() -> any Encoder { encoder.refused(.key(AnyCodingKey.super)) }
  mutating func superEncoder(forKey key: Key) -> any Encoder { encoder.refused(.key(key)) }
}

/// Appends array elements.
/// The scalar writes of the unkeyed and single-value containers, which differ only in where
/// a value goes (`put`) and how any other value is written (`any`).
protocol ByteValueSlot {
  var encoder: ByteEncoder { get }
  func put(_ write: () throws -> Void) throws
  func any<T: Encodable>(_ value: T) throws
}

extension ByteValueSlot {
  private var writer: UnsafeMutablePointer<JSONWriter> { encoder.session.writer }

  mutating func encodeNil() throws {
    let writer = writer
    try put { writer.pointee.writeNull() }
  }
  mutating func encode(_ value: Bool) throws {
    let writer = writer
    try put { writer.pointee.writeBool(value) }
  }
  mutating func encode(_ value: String) throws {
    let writer = writer
    try put { writer.pointee.writeString(value) }
  }
  mutating func encode(_ value: Double) throws {
    let encoder = encoder
    try put { try encoder.writeDouble(value) }
  }
  mutating func encode(_ value: Float) throws { try any(value) }
  mutating func encode(_ value: Int) throws { try integer(value) }
  mutating func encode(_ value: Int8) throws { try integer(value) }
  mutating func encode(_ value: Int16) throws { try integer(value) }
  mutating func encode(_ value: Int32) throws { try integer(value) }
  mutating func encode(_ value: Int64) throws { try integer(value) }
  mutating func encode(_ value: UInt) throws { try integer(value) }
  mutating func encode(_ value: UInt8) throws { try integer(value) }
  mutating func encode(_ value: UInt16) throws { try integer(value) }
  mutating func encode(_ value: UInt32) throws { try integer(value) }
  mutating func encode(_ value: UInt64) throws { try integer(value) }

  @inline(__always)
  private func integer<T: FixedWidthInteger>(_ value: T) throws {
    let writer = writer
    try put { writer.pointee.writeInteger(value) }
  }
}

struct ByteUnkeyedEncodingContainer: UnkeyedEncodingContainer, ByteValueSlot {
  let encoder: ByteEncoder

  var codingPath: [any CodingKey] { encoder.codingPath }
  var count: Int { encoder.count }

  /// Each value is an element.
  func put(_ write: () throws -> Void) throws { try encoder.element(write) }

  mutating func encode<T: Encodable>(_ value: T) throws { try any(value) }

  func any<T: Encodable>(_ value: T) throws {
    let encoder = encoder
    let index = encoder.count
    try encoder.element { try encoder.write(value, .index(index)) }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    let encoder = encoder
    var nested: ByteEncoder?
    try? encoder.element { nested = encoder.nested(.index(encoder.count - 1), .keyed) }
    return (nested ?? encoder.child(.index(encoder.count))).keyed(NestedKey.self)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let encoder = encoder
    var nested: ByteEncoder?
    try? encoder.element { nested = encoder.nested(.index(encoder.count - 1), .unkeyed) }
    return ByteUnkeyedEncodingContainer(encoder: nested ?? encoder.child(.index(encoder.count)))
  }

  mutating func superEncoder() -> any Encoder { encoder.refused(.index(encoder.count)) }
}

/// One value.
struct ByteSingleValueEncodingContainer: SingleValueEncodingContainer, ByteValueSlot {
  let encoder: ByteEncoder

  var codingPath: [any CodingKey] { encoder.codingPath }

  /// The value is this encoder's one value.
  func put(_ write: () throws -> Void) throws { try encoder.single(write) }

  mutating func encode<T: Encodable>(_ value: T) throws { try any(value) }

  func any<T: Encodable>(_ value: T) throws {
    let encoder = encoder
    try encoder.session.guarded {
      guard encoder.state == .fresh else { throw encoder.session.giveUp() }
      if let mapped = try encoder.mapped(value) {
        encoder.state = .single
        return try encoder.writeMapped(mapped)
      }
      // The value's own containers are this encoder's, as in the reference.
      let session = encoder.session
      try session.insideSingleValue(orGiveUp: session.giveUp()) { try value.encode(to: encoder) }
    }
  }
}
