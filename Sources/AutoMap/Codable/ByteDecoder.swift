/// AutoMap's `Decoder` straight over the bytes: what `Codable` properties and enums with
/// payloads are read by on the byte path, with no `JSON` tree in between.
///
/// ``JSONValueDecoder`` stays the reference: this decoder must give the same value whenever it
/// succeeds, and gives up whenever anything is unusual. A value is decoded in one
/// ``ByteDecodingSession``; any error thrown to the `Codable` code (a missing key, a value of
/// the wrong kind, a repeated key, a `superDecoder`, a key style other than `.exact`) marks the
/// session failed, and a failed session's value is thrown away and decoded again through
/// `JSON` (``ByteDecoding/decode(_:_:style:)`` returns `nil`). So errors, their paths and every
/// rule on failure stay the reference's, and a `Codable` implementation that catches errors and
/// goes on never sees a different document than on the reference path.
///
/// - A keyed container scans its object once, lazily: each `decode(_:forKey:)` looks among
///   the members already met, then reads on until the key comes (its value is then read in
///   place). Members never asked for are skipped, still checked, when the value ends; a
///   repeated key fails the session (the reference's last-one-wins decides).
/// - Leaves (`String`, the numbers, `Bool`, and every `JSONDecodable` type) are read through
///   AutoMap's codecs, as the model byte path reads them.
/// - Nesting is bounded by the reader's depth count: one level per JSON array or object.
/// - A decoder kept after its value was decoded refuses to work (it would read freed bytes).
final class ByteDecodingSession {
  /// `false` once the value is decoded: the bytes may be gone.
  var live = true
  /// Set when anything was thrown to `Codable` code: the value is decoded again through `JSON`.
  var failed = false
  /// Decoders whose object is not scanned to its end yet: finished when the value ends, so
  /// that every byte is checked and every repeated key found.
  var open: [ByteDecoder] = []

  /// The error thrown to `Codable` code when this decoder gives up: never seen by callers.
  func giveUp() -> DecodingError {
    failed = true
    return DecodingError.dataCorrupted(
      DecodingError.Context(
        codingPath: [], debugDescription: "decoded again through JSON values (internal)"))
  }

  /// Runs `body`, failing the session on any error (the error is passed on).
  @inline(__always)
  func guarded<R>(_ body: () throws -> R) throws -> R {
    guard live else { throw giveUp() }
    do { return try body() } catch {
      failed = true
      throw error
    }
  }

  /// Scans every object still open to its end; repeated keys fail the session.
  func finishAll() throws {
    var position = 0
    while position < open.count {
      _ = try open[position].complete()
      position += 1
    }
    open = []
  }
}

/// Where a value sits in the document, for `codingPath`: built only when asked.
enum ByteStep {
  case root
  case key(any CodingKey)
  case index(Int)
}

/// The `Decoder` of one value in the bytes (see ``ByteDecodingSession``).
final class ByteDecoder: Decoder {
  let session: ByteDecodingSession
  let parent: ByteDecoder?
  var step: ByteStep
  /// A reader at the value (whitespace may come first).
  let origin: JSONReader
  /// Where the value ends, once known.
  var end: UnsafePointer<UInt8>?

  /// For enums in the internal- and adjacent-tag layouts (and an external tag written as a
  /// string): the external-tag view synthesized `Codable` expects, `{name: payload}`.
  var virtualCase: (name: String, payload: ByteDecoder)?
  /// A member key left out of the object's view (the internal tag).
  var hiddenKey: String?

  // The object scan, once a keyed container was asked for.
  enum ScanState { case none, first, open, closed }
  struct Member {
    let key: UnsafePointer<UInt8>
    let keyCount: Int
    let value: UnsafePointer<UInt8>
  }
  var state = ScanState.none
  /// After the last member met: at its value while `pending` is set.
  var scan: JSONReader
  var innerDepth = 0
  var members: [Member] = []
  var pending = false
  /// The decoder made for the pending member's value, whose end moves the scan on.
  var pendingChild: ByteDecoder?

  init(session: ByteDecodingSession, parent: ByteDecoder?, step: ByteStep, origin: JSONReader) {
    self.session = session
    self.parent = parent
    self.step = step
    self.origin = origin
    scan = origin
  }

  var codingPath: [any CodingKey] {
    var keys: [any CodingKey] = []
    var node: ByteDecoder? = self
    while let current = node {
      switch current.step {
      case .root: break
      case .key(let key): keys.append(key)
      case .index(let index): keys.append(AnyCodingKey(index: index))
      }
      node = current.parent
    }
    return keys.reversed()
  }

  var userInfo: [CodingUserInfoKey: Any] { [:] }

  /// A decoder for a value inside this one, at `reader`'s cursor.
  @inline(__always)
  func child(_ step: ByteStep, at reader: JSONReader) -> ByteDecoder {
    ByteDecoder(session: session, parent: self, step: step, origin: reader)
  }

  // MARK: Containers

  func container<Key: CodingKey>(keyedBy _: Key.Type) throws -> KeyedDecodingContainer<Key> {
    try session.guarded {
      if let virtualCase {
        return KeyedDecodingContainer(
          ByteVirtualCaseContainer<Key>(
            decoder: self, name: virtualCase.name, payload: virtualCase.payload))
      }
      try openObject()
      return KeyedDecodingContainer(ByteKeyedContainer<Key>(decoder: self))
    }
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try session.guarded {
      guard virtualCase == nil else { throw session.giveUp() }
      return try ByteUnkeyedContainer(decoder: self)
    }
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    try session.guarded {
      guard virtualCase == nil else { throw session.giveUp() }
      return ByteSingleValueContainer(decoder: self)
    }
  }

  // MARK: Values

  /// Decodes this decoder's value as `T`: `JSONDecodable` types by AutoMap's codec (JSONCodable
  /// wins), others by their `init(from:)` (`codable`: even when `JSONDecodable`, as an enum's
  /// own mapping is).
  func decodeSelf<T: Decodable>(_: T.Type, codable: Bool = false) throws -> T {
    if !codable, T.self is any JSONDecodable.Type {
      var reader = origin
      let value = try Self.readMapped(T.self, &reader)
      end = reader.cursor
      return value
    }
    // String-keyed dictionaries keep their keys: the reference's own rules.
    if T.self is any StringKeyedDecodable.Type { throw session.giveUp() }
    return try T(from: self)
  }

  /// A `JSONDecodable` value through its codec, as the model byte path reads it.
  @inline(__always)
  static func readMapped<T>(_: T.Type, _ reader: inout JSONReader) throws -> T {
    let codec = CodecCache.decoder(for: T.self)
    return try RawValue.produce(T.self) { try codec.readBytes(&reader, $0) }
  }

  /// Decodes the value at `reader` as `T` in a decoder of its own; moves `reader` past it.
  @inline(__always)
  func decodeValue<T: Decodable>(_: T.Type, _ step: ByteStep, _ reader: inout JSONReader)
    throws -> T
  {
    if T.self is any JSONDecodable.Type { return try Self.readMapped(T.self, &reader) }
    let child = child(step, at: reader)
    let value = try child.decodeSelf(T.self)
    reader.cursor = try child.complete()
    return value
  }

  /// Where this value ends: what was not read is scanned (and checked) now.
  func complete() throws -> UnsafePointer<UInt8> {
    if let end { return end }
    if let virtualCase {
      // Only the enum entry makes these, and sets their end itself.
      _ = try virtualCase.payload.complete()
      throw session.giveUp()
    }
    switch state {
    case .first, .open:
      while try scanNext() {}
    case .none, .closed:
      var reader = origin
      try reader.skipValue()
      end = reader.cursor
    }
    guard let end else { throw session.giveUp() }
    return end
  }

  // MARK: The object scan

  /// Opens the object (once; a second container shares the scan).
  func openObject() throws {
    guard state == .none else { return }
    scan = origin
    guard try scan.openContainer(UInt8(ascii: "{"), expected: "an object") else {
      scan.leaveContainer()
      state = .closed
      end = scan.cursor
      return
    }
    innerDepth = scan.depth
    state = .first
    session.open.append(self)
  }

  /// Moves to the next member, leaving the scan at its value; `false` at the object's end.
  func scanNext() throws -> Bool {
    switch state {
    case .none, .closed: return false
    case .first: state = .open
    case .open:
      if pending { try finishPending() }
      guard try scan.nextMember() else {
        scan.leaveContainer()
        state = .closed
        end = scan.cursor
        return false
      }
    }
    scan.skipWhitespace()
    let key = try scan.scanKeyString()
    if key.hasEscapes { throw session.giveUp() }  // rare: the reference unescapes
    try scan.validateUTF8(key)
    try scan.expect(UInt8(ascii: ":"), "':' after object key")
    for member in members
    where member.keyCount == key.count && sameBytes(member.key, key.start, key.count) {
      throw session.giveUp()  // a repeated key: the last one wins, as the reference decides
    }
    scan.skipWhitespace()
    members.append(Member(key: key.start, keyCount: key.count, value: scan.cursor))
    pending = true
    return true
  }

  /// Steps over the pending member's value (or past what its decoder read).
  private func finishPending() throws {
    if let child = pendingChild {
      scan.cursor = try child.complete()
      pendingChild = nil
    } else {
      try scan.skipValue()
    }
    pending = false
  }

  @inline(__always)
  private func matches(_ member: Member, _ key: String) -> Bool {
    var key = key
    return key.withUTF8 { bytes in
      guard bytes.count == member.keyCount else { return false }
      guard let base = bytes.baseAddress else { return true }
      return sameBytes(base, member.key, bytes.count)
    }
  }

  /// The member `key` names, or `nil` when the object has none.
  func lookup(_ key: String) throws -> Int? {
    if let hiddenKey, hiddenKey == key { return nil }
    for position in members.indices where matches(members[position], key) {
      return position
    }
    while try scanNext() {
      if matches(members[members.count - 1], key) { return members.count - 1 }
    }
    return nil
  }

  /// The member `key` names; a missing key fails the session.
  func member(_ key: String) throws -> Int {
    guard let position = try lookup(key) else { throw session.giveUp() }
    return position
  }

  /// Reads member `position`'s value with `read`: in place when the scan is at it.
  @inline(__always)
  func read<R>(_ position: Int, _ read: (inout JSONReader) throws -> R) throws -> R {
    var reader = scan
    let inPlace = pending && pendingChild == nil && position == members.count - 1
    if !inPlace {
      reader.cursor = members[position].value
      reader.depth = innerDepth
    }
    let value = try read(&reader)
    if inPlace {
      scan.cursor = reader.cursor
      pending = false
    }
    return value
  }

  /// A decoder for member `position`'s value (nested containers, `Codable` values).
  func memberDecoder(_ position: Int, key: any CodingKey) -> ByteDecoder {
    var reader = scan
    reader.cursor = members[position].value
    reader.depth = innerDepth
    let decoder = child(.key(key), at: reader)
    if pending && pendingChild == nil && position == members.count - 1 {
      pendingChild = decoder  // its end moves the scan on
    }
    return decoder
  }

  /// Every key the object has, in document order (the hidden one left out).
  func allKeys() throws -> [String] {
    while try scanNext() {}
    return members.compactMap { member in
      let key = String(
        decoding: UnsafeBufferPointer(start: member.key, count: member.keyCount), as: UTF8.self)
      return key == hiddenKey ? nil : key
    }
  }
}

/// Entry points of the byte `Decoder`.
enum ByteDecoding {
  /// `"{}"`: the payload of a case written as its name alone.
  private static let emptyObject: StaticString = "{}"

  /// A reader over `{}` with `reader`'s settings.
  static func emptyObjectReader(like reader: JSONReader) -> JSONReader {
    var empty = JSONReader(start: emptyObject.utf8Start, count: emptyObject.utf8CodeUnitCount)
    empty.depth = reader.depth
    empty.rejectsUnrepresentableNumbers = reader.rejectsUnrepresentableNumbers
    return empty
  }

  /// Whether the byte decoder may run: it knows only `.exact` keys, and recorded
  /// substitutions need the reference's paths.
  @inline(__always)
  static func applies(_ style: JSON.KeyStyle) -> Bool {
    style == .exact && !Substitutions.isRecording
  }

  /// Decodes the `Codable` value at the reader, moving it past the value; `nil` (the reader
  /// where it was) when the reference must decide.
  static func decode<T: Decodable>(_: T.Type, _ reader: inout JSONReader, style: JSON.KeyStyle)
    -> T?
  {
    guard applies(style) else { return nil }
    return run(&reader) { session, reader in
      let root = ByteDecoder(session: session, parent: nil, step: .root, origin: reader)
      let value = try root.decodeSelf(T.self)
      return (value, try root.complete())
    }
  }

  /// Runs one session: `body` returns the value and where it ends.
  static func run<T>(
    _ reader: inout JSONReader,
    _ body: (ByteDecodingSession, JSONReader) throws -> (T, UnsafePointer<UInt8>)
  ) -> T? {
    let session = ByteDecodingSession()
    defer { session.live = false }
    do {
      let (value, end) = try body(session, reader)
      try session.finishAll()
      guard !session.failed else { return nil }
      reader.cursor = end
      return value
    } catch {
      return nil
    }
  }

  /// Decodes an enum with payloads through its synthesized `init(from:)`, the layout
  /// presented to it as the external tag it speaks; `nil` when the reference must decide.
  static func decodeEnum<T: Decodable>(
    _: T.Type, _ reader: inout JSONReader, layout: JSON.CaseLayout, style: JSON.KeyStyle
  ) -> T? {
    guard applies(style) else { return nil }
    return run(&reader) { session, reader in
      let root = ByteDecoder(session: session, parent: nil, step: .root, origin: reader)
      var probe = reader
      let isString = probe.peekByte() == UInt8(ascii: "\"")
      switch layout {
      case .externalTag where isString:
        let name = try probe.readString()
        let payload = root.child(
          .key(AnyCodingKey(stringValue: name)), at: emptyObjectReader(like: probe))
        root.virtualCase = (name, payload)
        let value = try T(from: root)
        _ = try payload.complete()
        return (value, probe.cursor)
      case .externalTag, .untagged:
        let value = try root.decodeSelf(T.self, codable: true)
        return (value, try root.complete())
      case .internalTag(let tag):
        // The payload is the object itself, its tag hidden.
        let payload = root.child(.root, at: reader)
        try payload.openObject()
        let name = try payload.read(try payload.member(tag)) { try $0.readStringValue() }
        payload.step = .key(AnyCodingKey(stringValue: name))
        payload.hiddenKey = tag
        root.virtualCase = (name, payload)
        let value = try T(from: root)
        return (value, try payload.complete())
      case .adjacentTag(let tag, let content):
        let object = root.child(.root, at: reader)
        try object.openObject()
        let name = try object.read(try object.member(tag)) { try $0.readStringValue() }
        let key = AnyCodingKey(stringValue: name)
        let payload =
          try object.lookup(content).map { object.memberDecoder($0, key: key) }
          ?? root.child(.key(key), at: emptyObjectReader(like: reader))
        root.virtualCase = (name, payload)
        let value = try T(from: root)
        _ = try payload.complete()
        return (value, try object.complete())
      }
    }
  }
}
