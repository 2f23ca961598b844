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
///
/// The session's and decoders' properties are `@exclusivity(unchecked)`: one decode on one
/// thread uses them, and no access overlaps another (each is a read or a short write, never
/// held across a call). The runtime's exclusivity checks cost 11% of a `Codable` property's
/// decode (3.7K instructions of 34.7K per benchmark `Invoice`).
final class ByteDecodingSession: CodingSession, SingleValueBounded {
  /// The reader of the value, moved to each value before it is read (decoders keep positions
  /// only). The session's own memory: the caller's reader is moved in for the value (no copy)
  /// and moved back after, leaving a placeholder, so that even a decoder kept past its value
  /// and used from another thread reaches memory the session owns. Behind a pointer, so that
  /// each read is not an exclusive access to a class property.
  let reader: UnsafeMutablePointer<JSONReader>
  /// `false` once the value is decoded: the bytes may be gone.
  @exclusivity(unchecked) var live = true
  /// Set while a codec reads with the reader: it may run other code, which must not use it.
  @exclusivity(unchecked) var busy = false
  /// Set when anything was thrown to `Codable` code: the value is decoded again through `JSON`.
  @exclusivity(unchecked) var failed = false
  /// See ``SingleValueBounded``.
  @exclusivity(unchecked) var wrapping = 0
  /// Set with `failed` when the reason is one the reference may decide otherwise (a repeated
  /// or escaped key, a `superDecoder`, …); a missing key or a value of the wrong kind leaves
  /// it unset: untagged trials take those as the case's failure (``UntaggedEnum``).
  @exclusivity(unchecked) var unsure = false
  /// Decoders whose object scan began, most recent first (linked through `nextOpen`): each
  /// is scanned to its end when the value ends, so that every byte is checked and every
  /// repeated key found.
  @exclusivity(unchecked) var open: ByteDecoder?
  /// Child decoders whose value ended and that nothing else held, for the next values'
  /// nested containers (an enum's payload makes no decoder, and no member storage, per value):
  /// at most ``maximumSpareChildren``. A spare holds no parent; it holds its session, which
  /// holds it: the root, whose session this is, empties the list when it goes (`deinit`).
  @exclusivity(unchecked) var spareChild: ByteDecoder?
  @exclusivity(unchecked) var spareChildren = 0
  static let maximumSpareChildren = 16

  init(_ reader: JSONReader) {
    self.reader = .allocate(capacity: 1)
    self.reader.initialize(to: reader)
  }

  deinit { reader.deinitialize(count: 1).deallocate() }

  /// Case names the session met (at most ``caseNameLimit``), by their bytes: a name met again
  /// is the same `String`, not made from its bytes again (130 instructions of an enum value).
  @exclusivity(unchecked) private var caseNames:
    [(low: UInt64, high: UInt64, count: Int, name: String)] = []
  static var caseNameLimit: Int { 8 }

  /// The case name whose UTF-8 bytes, valid and without escapes, are at `start`.
  func caseName(_ start: UnsafePointer<UInt8>, count: Int) -> String {
    let bytes = UnsafeBufferPointer(start: start, count: count)
    guard count <= 16 else { return String(decoding: bytes, as: UTF8.self) }
    var words: (UInt64, UInt64) = (0, 0)
    withUnsafeMutableBytes(of: &words) {
      UnsafeMutableRawBufferPointer(rebasing: $0[..<count]).copyMemory(
        from: UnsafeRawBufferPointer(bytes))
    }
    for entry in caseNames
    where entry.low == words.0 && entry.high == words.1 && entry.count == count {
      return entry.name
    }
    let name = String(decoding: bytes, as: UTF8.self)
    if caseNames.count < Self.caseNameLimit {
      caseNames.append((words.0, words.1, count, name))
    }
    return name
  }

  /// Reads a case name, a string value, as `readStringValue()` does: the same `String` for
  /// one met before, when it is ASCII without escapes.
  func readCaseName(_ reader: inout JSONReader) throws -> String {
    guard reader.peekByte() == UInt8(ascii: "\"") else {
      throw reader.mismatch(expected: "String")
    }
    let span = try reader.scanString()
    guard !span.hasEscapes, span.isASCII else { return try reader.string(from: span) }
    return caseName(span.start, count: span.count)
  }

  /// How many values the session began before this one (``CodingSession``).
  @exclusivity(unchecked) private(set) var generation: UInt = 0

  /// Makes a finished session, which no decoder outlived, ready for another value.
  func begin() {
    (live, busy, failed, unsure, open) = (true, false, false, false, nil)
    generation &+= 1
  }

  /// Decodes one value with `body` (see ``ByteDecoding/run(_:_:into:_:)``): where it ends, or
  /// `nil` when the reference must decide (`destination` then untouched).
  func decode<T>(
    _: T.Type, root: ByteDecoder, into destination: UnsafeMutableRawPointer,
    _ body: (ByteDecodingSession, ByteDecoder, inout UnsafePointer<UInt8>) throws -> T
  ) -> UnsafePointer<UInt8>? {
    defer {
      live = false
      breakCycles(root)
    }
    var end = root.originCursor
    do {
      RawValue.initialize(destination, to: try body(self, root, &end))
    } catch {
      return nil
    }
    // Every object scanned to its end; anything thrown to `Codable` code failed the session.
    guard (try? finishAll()) != nil, !failed else {
      RawValue.destroy(destination, as: T.self)
      return nil
    }
    return end
  }

  /// The reader, at `cursor` and `depth`.
  @inline(__always)
  func reader(at cursor: UnsafePointer<UInt8>, depth: Int) -> UnsafeMutablePointer<JSONReader> {
    reader.pointee.cursor = cursor
    reader.pointee.depth = depth
    return reader
  }

  /// The error thrown to `Codable` code when this decoder gives up: never seen by callers.
  func giveUp() -> DecodingError {
    failed = true
    unsure = true
    return DecodingError.dataCorrupted(
      DecodingError.Context(
        codingPath: [], debugDescription: "decoded again through JSON values (internal)"))
  }

  /// Runs `body`, failing the session on any error (passed on as the reference decoder's
  /// `DecodingError` of the same kind, so that `Codable` code that catches it does on bytes
  /// what it does there).
  @inline(__always)
  func guarded<R>(_ body: () throws -> R) throws -> R {
    guard live, !busy else { throw giveUp() }
    do { return try body() } catch {
      failed = true
      throw Self.decodingError(error)
    }
  }

  /// `error` as ``JSONValueDecoder`` throws it to `Codable` code (``JSONValueDecoder/failure(_:_:)``):
  /// AutoMap's own error in `underlyingError`, which the engine reads back.
  static func decodingError(_ error: any Error) -> any Error {
    guard let error = error as? JSON.Error else { return error }
    return JSONValueDecoder.failure(
      error.kind, Any.self,
      DecodingError.Context(
        codingPath: [], debugDescription: error.message, underlyingError: error))
  }

  /// A `JSONDecodable` value through its codec, as the model byte path reads it. The codec may
  /// run other code (a hand-written `init(decode:)`): this session refuses work meanwhile.
  @inline(__always)
  func readMapped<T>(_: T.Type, _ reader: inout JSONReader) throws -> T {
    let codec = CodecCache.decoder(for: T.self)
    busy = true
    defer { busy = false }
    return try RawValue.produce(T.self) { try codec.readBytes(&reader, $0) }
  }

  /// Drops the references that point back up (a scan's pending child, an enum's payload,
  /// the list of scans begun), so that the session and its decoders are freed with the value
  /// even when it failed half-way. Decoders kept by other code stay usable (and refuse work).
  func breakCycles(_ root: ByteDecoder) {
    root.virtualCase = nil
    while let decoder = open {
      decoder.pendingChild = nil
      unlink(decoder)
    }
  }

  /// Scans every object still open to its end; repeated keys fail the session.
  func finishAll() throws {
    while let decoder = open {
      _ = try decoder.complete()  // still listed if it throws: `breakCycles` unlinks it
      unlink(decoder)
    }
  }

  /// Unlinks `decoder`, the head of the list of scans begun, and keeps it as a spare child.
  @inline(__always)
  private func unlink(_ decoder: consuming ByteDecoder) {
    // Unlinked by moves: the next one becomes the head, `decoder` holds the list's reference.
    swap(&open, &decoder.nextOpen)
    decoder.nextOpen = nil
    keepChild(decoder)
  }

  /// Keeps a child decoder whose value ended as a spare (``spareChild``), unless something
  /// else holds it (the list of scans begun, its parent's pending child, a container `Codable`
  /// code kept) or the list is full.
  @inline(__always)
  func keepChild(_ decoder: consuming ByteDecoder) {
    guard spareChildren < Self.maximumSpareChildren else { return }
    if spareChild.keepChild(consume decoder) { spareChildren += 1 }
  }

  /// A spare child decoder, taken from ``spareChild``.
  @inline(__always)
  func takeChild() -> ByteDecoder? {
    guard let spare = spareChild.takeSpare() else { return nil }
    spareChildren -= 1
    return spare
  }
}

/// Where a value sits in the document, for `codingPath`: built only when asked.
enum ByteStep {
  case root
  case key(any CodingKey)
  /// A key known by its name (an enum's case): made a `CodingKey` only when a path is asked
  /// for (an `AnyCodingKey` is too large for an existential's inline storage: boxing one
  /// allocates).
  case name(String)
  case index(Int)

  /// The coding path of `node`, from the steps of it and its parents.
  static func path<Node: ByteStepNode>(_ node: Node) -> [any CodingKey] {
    var keys: [any CodingKey] = []
    var current: Node? = node
    while let node = current {
      switch node.step {
      case .root: break
      case .key(let key): keys.append(key)
      case .name(let name): keys.append(AnyCodingKey(stringValue: name))
      case .index(let index): keys.append(AnyCodingKey(index: index))
      }
      current = node.parent
    }
    return keys.reversed()
  }
}

/// A byte decoder or encoder: a step from its parent.
protocol ByteStepNode: AnyObject {
  var step: ByteStep { get }
  var parent: Self? { get }
}

/// The `Decoder` of one value in the bytes (see ``ByteDecodingSession``).
final class ByteDecoder: Decoder, SpareChild, ContainerNode {
  let session: ByteDecodingSession
  /// Set when the decoder is made or taken from its session's spares (``child(_:at:depth:)``).
  @exclusivity(unchecked) var parent: ByteDecoder?
  @exclusivity(unchecked) var step: ByteStep
  /// Where the value starts (whitespace may come first), and the reader's depth there.
  @exclusivity(unchecked) private(set) var originCursor: UnsafePointer<UInt8>
  @exclusivity(unchecked) private(set) var originDepth: Int
  /// The next decoder in the session's list of scans begun.
  @exclusivity(unchecked) var nextOpen: ByteDecoder?
  /// Where the value ends, once known.
  @exclusivity(unchecked) var end: UnsafePointer<UInt8>?

  /// For enums with payloads, on the enum's root while its `init(from:)` runs: the
  /// external-tag view synthesized `Codable` expects, `{name: payload}`, shown by
  /// ``ByteVirtualCaseContainer``. (`nil` again before the root completes its own object.)
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
  @exclusivity(unchecked) var state = ScanState.none
  /// After the last member met: at its value while `pending` is set.
  @exclusivity(unchecked) var scanCursor: UnsafePointer<UInt8>
  /// `{}` with no bytes of its own: the payload of a case written as its name alone.
  @exclusivity(unchecked) var isEmptyObject = false
  @exclusivity(unchecked) var innerDepth = 0
  @exclusivity(unchecked) var members: [Member] = []
  @exclusivity(unchecked) var pending = false
  /// The decoder made for the pending member's value, whose end moves the scan on.
  @exclusivity(unchecked) var pendingChild: ByteDecoder?
  /// The next root in a reader's list of spare ones (``JSONReader/spareRoot``).
  @exclusivity(unchecked) var nextSpare: ByteDecoder?
  /// The keyed containers this decoder handed out, for its next values.
  @exclusivity(unchecked) var kept = KeptContainers<ByteDecoder>()

  init(
    session: ByteDecodingSession, parent: ByteDecoder?, step: ByteStep,
    at cursor: UnsafePointer<UInt8>, depth: Int
  ) {
    self.session = session
    self.parent = parent
    self.step = step
    originCursor = cursor
    originDepth = depth
    scanCursor = cursor
  }

  deinit {
    // A session and its spare children hold each other: the session's root, when it goes,
    // lets the spares go. (Spares have no parent either: a spare goes only once its list is
    // let go.)
    if parent == nil, session.spareChild != nil { session.spareChild = nil }
    kept.cutAll()
  }

  /// Makes a spare root, which nothing outlived, the root of a new value at `cursor`.
  func reset(at cursor: UnsafePointer<UInt8>, depth: Int) {
    step = .root
    clear(at: cursor, depth: depth)
  }

  /// Makes a spare, which nothing outlived, the decoder of a new value at `cursor`, its step
  /// left as it is (the members' storage is kept).
  private func clear(at cursor: UnsafePointer<UInt8>, depth: Int) {
    (originCursor, originDepth, scanCursor) = (cursor, depth, cursor)
    (nextOpen, end, virtualCase, hiddenKey, pendingChild) = (nil, nil, nil, nil, nil)
    (state, isEmptyObject, innerDepth, pending) = (.none, false, 0, false)
    members.truncate(to: 0)
  }

  /// Reads this value with `read` (no other code may run meanwhile); notes where it ends.
  @inline(__always)
  func readValue<R>(_ read: (inout JSONReader) throws -> R) throws -> R {
    guard !isEmptyObject else { throw session.giveUp() }
    let reader = session.reader(at: originCursor, depth: originDepth)
    let value = try read(&reader.pointee)
    end = reader.pointee.cursor
    return value
  }

  var codingPath: [any CodingKey] { ByteStep.path(self) }

  var userInfo: [CodingUserInfoKey: Any] { [:] }

  /// A decoder for a value inside this one, at `cursor`: one of the session's spares when it
  /// has one.
  @inline(__always)
  func child(_ step: ByteStep, at cursor: UnsafePointer<UInt8>, depth: Int) -> ByteDecoder {
    if let spare = session.takeChild() {
      (spare.parent, spare.step) = (self, step)
      spare.clear(at: cursor, depth: depth)
      return spare
    }
    return ByteDecoder(session: session, parent: self, step: step, at: cursor, depth: depth)
  }

  // MARK: Containers

  func container<Key: CodingKey>(keyedBy _: Key.Type) throws -> KeyedDecodingContainer<Key> {
    try session.guarded {
      if let name = virtualCase?.name {
        return kept.container(Key.self, name: name, node: self, observable: Self.keepsContainers) {
          KeyedDecodingContainer(ByteVirtualCaseContainer<Key>(link: $0, name: name))
        }
      }
      try openObject()
      return kept.container(Key.self, node: self, observable: Self.keepsContainers) {
        KeyedDecodingContainer(ByteKeyedContainer<Key>(link: $0))
      }
    }
  }

  /// Whether this system's `KeyedDecodingContainer` can be kept (``KeptContainers``).
  static let keepsContainers = KeptContainers<ByteDecoder>.boxesAreObservable {
    try? JSONValueDecoder(value: .object([:]), path: .root, style: .exact, depth: 0)
      .container(keyedBy: AnyCodingKey.self)
  }

  /// The decoder of a container whose link was cut (``ContainerLink``): `Codable` code kept
  /// the container past its value. It refuses every read.
  static func cut(_ link: ContainerLink<ByteDecoder>) -> ByteDecoder {
    if link.wasCutInThisValue { _ = link.session.giveUp() }
    let ended = ByteDecodingSession(ByteDecoding.placeholder)
    ended.live = false
    return ByteDecoder(
      session: ended, parent: nil, step: .root, at: ByteDecoding.placeholder.cursor, depth: 0)
  }

  func settleContainers() -> Int { kept.settle() }

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
  ///
  /// (The reference reads string-keyed dictionaries by rules of its own, which keep their keys
  /// whatever the key style; with `.exact` keys, the only style here, `Dictionary`'s own
  /// `init(from:)` reads the same.)
  func decodeSelf<T: Decodable>(_: T.Type, codable: Bool = false) throws -> T {
    if !codable, TypeFacts.of(T.self).contains(.decodable) {
      return try readValue { try session.readMapped(T.self, &$0) }
    }
    return try T(from: self)
  }

  /// A decoder for `{}`, which the document does not hold.
  func emptyObject(_ step: ByteStep) -> ByteDecoder {
    let decoder = child(step, at: originCursor, depth: originDepth)
    decoder.isEmptyObject = true
    return decoder
  }

  /// Where this value ends: what was not read is scanned (and checked) now.
  func complete() throws -> UnsafePointer<UInt8> {
    if let end { return end }
    if isEmptyObject {
      end = originCursor  // it has no bytes
      return originCursor
    }
    if let virtualCase {
      // Only the enum entry makes these, and sets their end itself.
      _ = try virtualCase.payload.complete()
      throw session.giveUp()
    }
    switch state {
    case .first, .open:
      while try scanNext() {}
    case .none, .closed:
      try readValue { try $0.skipValue() }
    }
    guard let end else { throw session.giveUp() }
    return end
  }

  // MARK: The object scan

  /// Opens the object (once; a second container shares the scan).
  func openObject() throws {
    guard state == .none else { return }
    if isEmptyObject {
      state = .closed
      end = originCursor
      return
    }
    let reader = session.reader(at: originCursor, depth: originDepth)
    guard try reader.pointee.openContainer(UInt8(ascii: "{"), expected: "an object") else {
      state = .closed
      end = reader.pointee.cursor
      return
    }
    innerDepth = reader.pointee.depth
    scanCursor = reader.pointee.cursor
    state = .first
    members.reserveCapacity(8)
    // Linked by moving the list's head (no retain of it); `nextOpen` is `nil` until now.
    swap(&nextOpen, &session.open)
    session.open = self
  }

  /// Moves to the next member, leaving the scan at its value; `false` at the object's end.
  func scanNext() throws -> Bool {
    switch state {
    case .none, .closed: return false
    case .first:
      state = .open
      return try scanMember()
    case .open:
      if pending {
        // Step over the pending member's value (or past what its decoder read).
        if let child = pendingChild {
          scanCursor = try child.complete()
          pendingChild = nil
        } else {
          let reader = session.reader(at: scanCursor, depth: innerDepth)
          try reader.pointee.skipValue()
          scanCursor = reader.pointee.cursor
        }
        pending = false
      }
      let reader = session.reader(at: scanCursor, depth: innerDepth)
      guard try reader.pointee.nextMember() else {
        state = .closed
        end = reader.pointee.cursor
        return false
      }
      scanCursor = reader.pointee.cursor
    }
    return try scanMember()
  }

  /// Reads a member's key and colon, leaving the scan at its value.
  private func scanMember() throws -> Bool {
    let reader = session.reader(at: scanCursor, depth: innerDepth)
    reader.pointee.skipWhitespace()
    let key = try reader.pointee.scanKeyString()
    if key.hasEscapes { throw session.giveUp() }  // rare: the reference unescapes
    try reader.pointee.validateUTF8(key)
    try reader.pointee.expect(UInt8(ascii: ":"), "':' after object key")
    for member in members
    where member.keyCount == key.count && sameBytes(member.key, key.start, key.count) {
      throw session.giveUp()  // a repeated key: the last one wins, as the reference decides
    }
    reader.pointee.skipWhitespace()
    scanCursor = reader.pointee.cursor
    members.append(Member(key: key.start, keyCount: key.count, value: scanCursor))
    pending = true
    return true
  }

  @inline(__always)
  private func matches(_ member: Member, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
    guard key.count == member.keyCount else { return false }
    guard let base = key.baseAddress else { return true }
    return sameBytes(base, member.key, key.count)
  }

  /// Whether `key` is the one left out of the object's view: the same bytes, as the reference
  /// removes it (`==` would also take a canonically equivalent key for it).
  @inline(__always)
  private func isHidden(_ key: String) -> Bool {
    guard let hiddenKey else { return false }
    return JSON.sameKey(hiddenKey, key)
  }

  /// The member `key` names, or `nil` when the object has none.
  func lookup(_ key: String) throws -> Int? {
    if isHidden(key) { return nil }
    var key = key
    return try key.withUTF8 { key in
      for position in members.indices where matches(members[position], key) {
        return position
      }
      while try scanNext() {
        if matches(members[members.count - 1], key) { return members.count - 1 }
      }
      return nil
    }
  }

  /// The member `key` names; a missing key fails the session.
  func member(_ key: String) throws -> Int {
    guard let position = try lookup(key) else { throw session.missingKey(key) }
    return position
  }

  /// Reads member `position`'s value with `read`: in place when the scan is at it.
  @inline(__always)
  func read<R>(_ position: Int, _ read: (inout JSONReader) throws -> R) throws -> R {
    let reader = session.reader(at: members[position].value, depth: innerDepth)
    let value = try read(&reader.pointee)
    if pending && pendingChild == nil && position == members.count - 1 {
      scanCursor = reader.pointee.cursor  // read in place: the scan goes on after it
      pending = false
    }
    return value
  }

  /// A decoder for member `position`'s value (nested containers, `Codable` values).
  func memberDecoder(_ position: Int, _ step: ByteStep) -> ByteDecoder {
    let decoder = child(step, at: members[position].value, depth: innerDepth)
    if pending && pendingChild == nil && position == members.count - 1 {
      pendingChild = decoder  // its end moves the scan on
    }
    return decoder
  }

  /// The key of member `position` (its bytes hold no escapes: the scan gives up on those).
  func key(_ position: Int) -> String {
    let member = members[position]
    return String(
      decoding: UnsafeBufferPointer(start: member.key, count: member.keyCount), as: UTF8.self)
  }

  /// Every key the object has, in document order (the hidden one left out), as `Key`s: those
  /// `Key` does not know are left out, as the reference leaves them.
  func allKeys<Key: CodingKey>(_: Key.Type) throws -> [Key] {
    while try scanNext() {}
    var keys: [Key] = []
    keys.reserveCapacity(members.count)
    for position in members.indices {
      let name = key(position)
      if !isHidden(name), let key = Key(stringValue: name) { keys.append(key) }
    }
    return keys
  }
}

/// Entry points of the byte `Decoder`.
enum ByteDecoding {
  /// Whether the byte decoder may run: it knows only `.exact` keys, and recorded
  /// substitutions need the reference's paths.
  @inline(__always)
  static func applies(_ style: JSON.KeyStyle) -> Bool {
    style == .exact && !Substitutions.isRecording
  }

  /// Decodes the `Codable` value at the reader into `destination`, moving the reader past it;
  /// `false` (the reader where it was, `destination` untouched) when the reference must decide.
  /// `step`: where the value's coding path starts (`.index(2)`: the third element of an array
  /// whose elements are read one by one).
  static func decode<T: Decodable>(
    _: T.Type, _ reader: inout JSONReader, style: JSON.KeyStyle,
    into destination: UnsafeMutableRawPointer, at step: ByteStep = .root
  ) -> Bool {
    guard applies(style) else { return false }
    return run(T.self, &reader, into: destination) { session, root, end in
      root.step = step
      let value = try root.decodeSelf(T.self)
      end = try root.complete()
      return value
    }
  }

  /// Runs one session: `body` returns the value and sets where it ends. The value is stored
  /// only when the session succeeded. (Written into place rather than returned as an
  /// optional: unspecialized code pays a metadata lookup for each `T?` it makes.)
  ///
  /// The caller's reader is moved into the session for the value, and moved back after (where
  /// it was when the value fails). The root decoder is one of the reader's spare ones when it
  /// has one: a root that no decoder or container outlived (each holds its parent, up to the
  /// root) is kept in the reader, with its session and its members' storage, for the next
  /// `Codable` value (an array of them makes one root, not one per element; nested values,
  /// one per level).
  static func run<T>(
    _: T.Type, _ reader: inout JSONReader, into destination: UnsafeMutableRawPointer,
    _ body: (ByteDecodingSession, ByteDecoder, inout UnsafePointer<UInt8>) throws -> T
  ) -> Bool {
    let (cursor, depth) = (reader.cursor, reader.depth)
    let root = self.root(from: &reader.spareRoot, at: cursor, depth: depth)
    let session = root.session
    swap(&reader, &session.reader.pointee)
    let end = session.decode(T.self, root: root, into: destination, body)
    swap(&reader, &session.reader.pointee)
    reader.cursor = end ?? cursor
    reader.depth = depth
    // Whatever holds the session holds the root (every decoder holds its parent), or is a
    // container the root's settling cuts off (``KeptContainers``).
    reader.spareRoot.keepSpare(consume root)
    return end != nil
  }

  /// A root decoder at `cursor`, with its session: a spare from `spares` made ready for a new
  /// value, or a new one (its session's reader the ``placeholder``).
  static func root(
    from spares: inout ByteDecoder?, at cursor: UnsafePointer<UInt8>, depth: Int
  ) -> ByteDecoder {
    if let spare = spares.takeSpare() {
      spare.session.begin()
      spare.reset(at: cursor, depth: depth)
      return spare
    }
    return ByteDecoder(
      session: ByteDecodingSession(placeholder), parent: nil, step: .root, at: cursor,
      depth: depth)
  }

  /// What a session's reader holds while the caller's is elsewhere (never read).
  nonisolated(unsafe) static let placeholder = JSONReader(
    start: UnsafePointer(UnsafeMutablePointer<UInt8>.allocate(capacity: 1)), count: 0)

  /// Decodes an enum with payloads through its synthesized `init(from:)`, the layout
  /// presented to it as the external tag it speaks; `nil` when the reference must decide.
  static func decodeEnum<T: Decodable>(
    _: T.Type, _ reader: inout JSONReader, layout: JSON.CaseLayout, style: JSON.KeyStyle,
    into destination: UnsafeMutableRawPointer
  ) -> Bool {
    guard applies(style) else { return false }
    return run(T.self, &reader, into: destination) { session, root, end in
      let (cursor, depth) = (root.originCursor, root.originDepth)
      let probe = session.reader(at: cursor, depth: depth)
      let isString = probe.pointee.peekByte() == UInt8(ascii: "\"")
      switch layout {
      case .externalTag where isString:
        let name = try probe.pointee.readString()
        end = probe.pointee.cursor
        let payload = root.emptyObject(.name(name))
        root.virtualCase = (name, payload)
        return try T(from: root)
      case .externalTag:
        // The root scans the object itself. Its first member is shown as the one case key
        // synthesized code asks for, so the payload is read once, in place; a second member,
        // found when the object is completed, gives up (the reference refuses it).
        try root.openObject()
        guard try root.scanNext() else { throw session.giveUp() }
        let name = session.caseName(root.members[0].key, count: root.members[0].keyCount)
        let payload = root.memberDecoder(0, .name(name))
        root.virtualCase = (name, payload)
        let value = try T(from: root)
        _ = try payload.complete()
        root.virtualCase = nil  // the object is the root's own again, to be completed
        end = try root.complete()
        guard root.members.count == 1 else { throw session.giveUp() }
        return value
      case .untagged:
        let value = try root.decodeSelf(T.self, codable: true)
        end = try root.complete()
        return value
      case .internalTag(let tag):
        // The payload is the object itself, its tag hidden.
        let payload = root.child(.root, at: cursor, depth: depth)
        try payload.openObject()
        let name = try payload.read(try payload.member(tag)) { try session.readCaseName(&$0) }
        payload.step = .name(name)
        payload.hiddenKey = tag
        root.virtualCase = (name, payload)
        let value = try T(from: root)
        end = try payload.complete()
        root.virtualCase = nil  // the payload is no longer held: it may be kept as a spare
        return value
      case .adjacentTag(let tag, let content):
        // The root scans the object itself, as for the external tag.
        try root.openObject()
        let name = try root.read(try root.member(tag)) { try session.readCaseName(&$0) }
        let payload =
          try root.lookup(content).map { root.memberDecoder($0, .name(name)) }
          ?? root.emptyObject(.name(name))
        root.virtualCase = (name, payload)
        let value = try T(from: root)
        _ = try payload.complete()
        root.virtualCase = nil
        end = try root.complete()
        return value
      }
    }
  }
}
