/// An `Encoder` that only notes what synthesized `encode(to:)` writes for an enum's case: the
/// case key, then each payload key with its value, unencoded. It tells the shape an untagged
/// value is written in without writing it (the shape can depend on the value: synthesized code
/// leaves out `nil` optionals), and hands the byte writer the payload's values.
///
/// Anything else (a value under the case key itself, nested containers in the payload, a key
/// written twice, `superEncoder`) is not what synthesized code does: the probe is then unsure,
/// and the reference decides.
final class UntaggedProbe: Encoder, Spare, ContainerNode {
  /// The shape of a payload (see ``UntaggedEnum/Shape``).
  enum Shape: Equatable {
    case name
    case single
    case array(Int)
    case object
  }

  /// A payload value: the common scalars as they are, anything else as written.
  enum Value {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case other(any Encodable)

    /// Exact types only: no bridging, no optional unwrapping.
    init<T: Encodable>(_ value: T) {
      // `_identityCast` checks the type and reinterprets: no dynamic cast.
      if T.self == Double.self {
        self = .double(_identityCast(value, to: Double.self))
      } else if T.self == Int.self {
        self = .int(_identityCast(value, to: Int.self))
      } else if T.self == String.self {
        self = .string(_identityCast(value, to: String.self))
      } else if T.self == Bool.self {
        self = .bool(_identityCast(value, to: Bool.self))
      } else {
        self = .other(value)
      }
    }
  }

  /// A payload member: its key and value.
  struct Member {
    let key: String
    let value: Value
  }

  // Unchecked exclusivity, as the byte encoder's: one probe, one call, one thread.
  @exclusivity(unchecked) var caseKey: String?
  /// The payload's members in order.
  @exclusivity(unchecked) var members: [Member] = []
  @exclusivity(unchecked) var unsure = false
  /// The next probe in a writer's list of spare ones (``JSONWriter/spareProbe``).
  @exclusivity(unchecked) var nextSpare: UntaggedProbe?
  /// The containers this probe handed out, for its next values (``KeptContainers``).
  @exclusivity(unchecked) var kept = KeptContainers<UntaggedProbe>()
  /// What the containers' links hold: not the probe, which a spare list keeps only when
  /// nothing else holds it.
  let session = Session()

  /// A probe's values, for its containers' links. What a container the probe let go writes
  /// goes nowhere: the probe notes one value at a time, and lets go of containers only after.
  /// (Its generation never moves: a probe container never asks whether it was cut in this
  /// value.)
  final class Session: CodingSession {
    var generation: UInt { 0 }
  }

  init() {}

  deinit { kept.cutAll() }

  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
    keyed(Key.self, isCase: true)
  }

  /// The case container (`isCase`) or the payload's, for `Key`.
  @inline(__always)
  func keyed<Key: CodingKey>(_: Key.Type, isCase: Bool) -> KeyedEncodingContainer<Key> {
    kept.container(
      Key.self, name: isCase ? nil : Self.payload, node: self,
      observable: ByteEncoder.keepsContainers
    ) { KeyedEncodingContainer(UntaggedProbeContainer<Key>(link: $0, isCase: isCase)) }
  }

  /// What tells a payload's container from a case container of the same keys.
  private static let payload = "(payload)"

  func settleContainers() -> Int { kept.settle() }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    unsure = true
    return UntaggedProbeSink(probe: self)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    unsure = true
    return UntaggedProbeSink(probe: self)
  }

  /// What `value.encode(to:)` writes, or `nil` when the probe cannot tell.
  static func probe<T: Encodable>(_ value: T) -> UntaggedProbe? {
    let probe = UntaggedProbe()
    return probe.notes(value) ? probe : nil
  }

  /// Notes what `value.encode(to:)` writes into this probe, which is empty; whether it can
  /// tell.
  func notes<T: Encodable>(_ value: T) -> Bool {
    do { try value.encode(to: self) } catch { return false }
    return !unsure && caseKey != nil
  }

  /// Empties the probe for another value (the members' storage is kept).
  func empty() {
    caseKey = nil
    members.truncate(to: 0)
    unsure = false
  }

  /// The case key and the payload's shape `value` writes, or `nil` when the probe cannot tell.
  static func shape<T: Encodable>(of value: T) -> (key: String, shape: Shape)? {
    guard let probe = probe(value), let key = probe.caseKey else { return nil }
    return (key, probe.shape)
  }

  var shape: Shape {
    if members.isEmpty { return .name }
    if members.count == 1, members[0].key == "_0" { return .single }
    for (offset, member) in members.enumerated() where !Self.isPositional(member.key, offset) {
      return .object
    }
    return .array(members.count)
  }

  /// The keys synthesized code gives unlabeled payload values, made once.
  private static let positionalKeys = (0..<16).map { "_\($0)" }

  /// Whether `key` is `_offset`, the key of the unlabeled value at `offset`.
  @inline(__always)
  private static func isPositional(_ key: String, _ offset: Int) -> Bool {
    offset < positionalKeys.count ? key == positionalKeys[offset] : key == "_\(offset)"
  }
}

/// The case container (`isCase`) and the payload's container of an ``UntaggedProbe``.
struct UntaggedProbeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let link: ContainerLink<UntaggedProbe>
  let isCase: Bool

  /// The probe; a container it let go writes into a probe of its own.
  private var probe: UntaggedProbe { link.node ?? UntaggedProbe() }

  var codingPath: [any CodingKey] { [] }

  private func note(_ key: Key, _ value: consuming UntaggedProbe.Value) {
    let probe = probe
    let name = key.stringValue
    guard !isCase else {
      probe.unsure = true
      return
    }
    for index in probe.members.indices where probe.members[index].key == name {
      probe.unsure = true
      return
    }
    if probe.members.capacity == 0 { probe.members.reserveCapacity(8) }
    probe.members.append(UntaggedProbe.Member(key: name, value: value))
  }

  mutating func encodeNil(forKey key: Key) throws { note(key, .null) }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    note(key, UntaggedProbe.Value(value))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy _: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let probe = probe
    if isCase, probe.caseKey == nil {
      probe.caseKey = key.stringValue
      return probe.keyed(NestedKey.self, isCase: false)
    }
    probe.unsure = true
    return probe.keyed(NestedKey.self, isCase: true)
  }

  mutating func nestedUnkeyedContainer(forKey _: Key) -> any UnkeyedEncodingContainer {
    probe.unsure = true
    return UntaggedProbeSink(probe: probe)
  }

  mutating func superEncoder() -> any Encoder {
    probe.unsure = true
    return probe
  }

  mutating func superEncoder(forKey _: Key) -> any Encoder {
    probe.unsure = true
    return probe
  }
}

/// Takes whatever is written where synthesized code writes nothing; the probe is unsure.
struct UntaggedProbeSink: UnkeyedEncodingContainer, SingleValueEncodingContainer {
  let probe: UntaggedProbe

  var codingPath: [any CodingKey] { [] }
  var count: Int { 0 }

  mutating func encodeNil() throws { probe.unsure = true }
  mutating func encode<T: Encodable>(_: T) throws { probe.unsure = true }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    probe.unsure = true
    return probe.keyed(NestedKey.self, isCase: true)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    probe.unsure = true
    return self
  }

  mutating func superEncoder() -> any Encoder {
    probe.unsure = true
    return probe
  }
}

extension UntaggedEnum {
  /// Writes `value` straight to `writer` in its untagged shape; `false`, with nothing written,
  /// when the reference must write it (a key style other than `.exact`, sorted keys, an
  /// unlisted case, a payload the byte encoders leave to the reference).
  func encodeBytes(_ value: E, _ writer: inout JSONWriter) -> Bool {
    guard style == .exact, !writer.sorted, (try? Nesting.checkStack()) != nil else {
      return false
    }
    // A probe the writer kept from its last untagged value, when nothing else holds it.
    let probe = writer.spareProbe.takeSpare() ?? UntaggedProbe()
    let written = write(probe, value, &writer)
    probe.empty()  // the payload's values are not kept
    writer.spareProbe.keepSpare(consume probe)
    return written
  }

  private func write(_ probe: UntaggedProbe, _ value: E, _ writer: inout JSONWriter) -> Bool {
    guard probe.notes(value), let key = probe.caseKey, keys.contains(key) else { return false }
    let mark = writer.mark
    let shape = probe.shape
    // The members are read in place (none is copied out), from an array of this function's
    // own: a value written here runs its own `encode(to:)`, which may write through a
    // container of this probe kept by the enum's code, and so append to the probe's array.
    let members = probe.members
    let written = members.withUnsafeBufferPointer { members in
      (try? Self.write(shape, key, members, &writer)) ?? false
    }
    if !written { writer.rollBack(to: mark) }
    return written
  }

  /// The payload in its shape; `false` (something may be written) when the reference must
  /// write it.
  private static func write(
    _ shape: UntaggedProbe.Shape, _ key: String,
    _ members: UnsafeBufferPointer<UntaggedProbe.Member>,
    _ writer: inout JSONWriter
  ) throws -> Bool {
    switch shape {
    case .name: writer.writeString(key)
    case .single: return try write(members[0].value, &writer)
    case .array:
      try writer.beginArray()
      for index in members.indices {
        writer.beginElement()
        guard try write(members[index].value, &writer) else { return false }
      }
      writer.endArray()
    case .object:
      try writer.beginObject()
      for index in members.indices {
        let before = writer.mark
        writer.writeKey(members[index].key)
        let start = writer.bytes.count
        guard try write(members[index].value, &writer) else { return false }
        if writer.omitNulls && writer.wroteNull(since: start) { writer.rollBack(to: before) }
      }
      writer.endObject()
    }
    return true
  }

  /// One payload value, as the byte paths write it; `false` (something may be written) when
  /// the reference must write it.
  private static func write(_ value: UntaggedProbe.Value, _ writer: inout JSONWriter) throws
    -> Bool
  {
    switch value {
    case .null: writer.writeNull()
    case .bool(let value): writer.writeBool(value)
    case .int(let value): writer.writeInteger(value)
    case .string(let value): writer.writeString(value)
    case .double(let value):
      // A non-finite number is written as the call's configuration says: the reference.
      guard value.isFinite else { return false }
      try writer.writeConfiguredDouble(value)
    case .other(let value): return try writeOther(value, &writer)
    }
    return true
  }

  private static func writeOther(_ value: any Encodable, _ writer: inout JSONWriter) throws
    -> Bool
  {
    func open<T: Encodable>(_ value: T) throws -> Bool {
      if let mapped = ByteEncoding.mapped(value) {
        if ByteEncoding.isNonFinite(mapped) { return false }
        try writeMapped(mapped, &writer)
        return true
      }
      return ByteEncoding.encode(value, style: .exact, &writer)
    }
    return try open(value)
  }

  private static func writeMapped<M: JSONEncodable>(_ value: M, _ writer: inout JSONWriter)
    throws
  {
    let codec = CodecCache.encoder(for: M.self)
    try withUnsafePointer(to: value) { try codec.writeBytes(UnsafeRawPointer($0), &writer) }
  }
}
