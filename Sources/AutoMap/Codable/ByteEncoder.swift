/// AutoMap's `Encoder` straight to the writer: what `Codable` properties and enums with
/// payloads are written by on the byte path, with no `JSON` tree in between.
///
/// ``JSONValueEncoder`` stays the reference. This encoder writes as it is told for the
/// well-nested use synthesized code makes: a container, values in order, a nested container
/// finished before its parent goes on (`super.encode(to:)` and asking the same encoder for a
/// keyed container again continue the same object). Anything else (a key written twice, a
/// write into a container after its parent went on, a single value after a keyed container,
/// `superEncoder`, an error thrown to the `Codable` code, `.sortedKeys`, a key style other
/// than `.exact`) fails the session: what it wrote is taken back and the value is written
/// again through the reference (``ByteEncoding/encode(_:style:_:)`` returns `false`).
///
/// Properties are `@exclusivity(unchecked)`, as ``ByteDecodingSession``'s are, for the same
/// reason: one encode on one thread, no overlapping access (1.6K instructions of 35.3K per
/// benchmark `Invoice`).
final class ByteEncodingSession: CodingSession, SingleValueBounded {
  /// The caller's writer, moved in for the session (no copy of its bytes); behind a pointer,
  /// so that each write is not an exclusive access to a class property.
  let writer: UnsafeMutablePointer<JSONWriter>
  @exclusivity(unchecked) var live = true
  /// Set while a codec writes: the writer is lent to it, and a write from elsewhere (a
  /// container kept by other code) fails the session.
  @exclusivity(unchecked) var lent = false
  @exclusivity(unchecked) var failed = false
  /// See ``SingleValueBounded``.
  @exclusivity(unchecked) var wrapping = 0
  /// The innermost encoder whose container is open; each links to the one it is inside.
  @exclusivity(unchecked) var top: ByteEncoder?
  /// The keys the open objects have written, outermost first: containers nest, so each
  /// object's keys are the end of the stack while it writes (from its `firstKey`), and are
  /// dropped when it closes. One array for the session rather than one per object.
  @exclusivity(unchecked) var keys: [String] = []
  /// Child encoders whose container closed and that nothing else holds, for the next
  /// containers: an enum's payload or a `Codable` property makes no encoder per value. A
  /// spare holds no parent; it holds its session, which holds it: the root, whose session
  /// this is, empties the list when it goes (`deinit`).
  @exclusivity(unchecked) var spareChild: ByteEncoder?

  @inline(__always)
  func push(_ encoder: ByteEncoder) {
    swap(&encoder.below, &top)  // moved, not retained: `below` is `nil` until now
    encoder.firstKey = keys.count
    top = encoder
  }

  init() {
    writer = .allocate(capacity: 1)
    writer.initialize(to: ByteEncoding.placeholder)
  }

  deinit { writer.deinitialize(count: 1).deallocate() }

  /// How many values the session began before this one (``CodingSession``).
  @exclusivity(unchecked) private(set) var generation: UInt = 0

  /// Makes a finished session, which no encoder but its root outlived, ready for another value
  /// (the keys' storage is kept).

  func begin() {
    (live, lent, failed, top) = (true, false, false, nil)
    generation &+= 1
    if !keys.isEmpty { keys.removeAll(keepingCapacity: true) }  // left by a failed value only
  }

  func giveUp(_ value: Any = ()) -> EncodingError {
    failed = true
    return EncodingError.invalidValue(
      value,
      EncodingError.Context(
        codingPath: [], debugDescription: "encoded again through JSON values (internal)"))
  }

  /// Runs `body`, failing the session on any error (the error is passed on).
  @inline(__always)
  func guarded<R>(_ body: () throws -> R) throws -> R {
    guard live, !failed, !lent else { throw giveUp() }
    do { return try body() } catch {
      failed = true
      throw error
    }
  }

  /// Makes `encoder` the innermost open container, closing the ones opened inside it.
  @inline(__always)
  func enter(_ encoder: ByteEncoder) throws {
    guard encoder.isOpen else { throw giveUp() }
    while let open = top, open !== encoder {
      open.close()
      keepChild(consume open)
    }
  }

  /// Keeps a child encoder that finished, unless something else holds it (``spareChild``).
  @inline(__always)
  func keepChild(_ child: consuming ByteEncoder) {
    spareChild.keepChild(consume child)  // not a root, nor an orphan of an ended session
  }
}

/// The `Encoder` of one value (see ``ByteEncodingSession``).
final class ByteEncoder: Encoder, SpareChild, ContainerNode {
  enum State { case fresh, keyed, unkeyed, single, closed, virtualCase }
  /// How an enum's external-tag case key is laid out (internal and adjacent tags): made once
  /// per enum type (``init(_:)``), so that a value copies one reference, and writes its keys'
  /// bytes as they are.
  ///
  /// (One case with a payload: its reference is stored as it is. With a case for each tag,
  /// the case would be kept in the reference's spare bits, where LeakSanitizer, which looks
  /// for references as they are, does not see it, and reports every layout a plan holds.)
  enum Layout {
    case plain, tagged(TagKeys)

    /// The layout of `layout`; `nil` for untagged enums, which go their own way.
    init?(_ layout: JSON.CaseLayout) {
      switch layout {
      case .externalTag: self = .plain
      case .internalTag(let tag): self = .tagged(TagKeys(tag: tag, content: nil))
      case .adjacentTag(let tag, let content):
        self = .tagged(TagKeys(tag: tag, content: content))
      case .untagged: return nil
      }
    }

    /// Whether the case's payload goes under a content key of its own (adjacent tag).
    var isAdjacent: Bool {
      if case .tagged(let keys) = self { keys.quotedContent != nil } else { false }
    }
  }

  /// The tag's key, as a string for the session's check of repeated keys and quoted as it is
  /// written, and the content's, quoted (`nil`: the internal tag).
  final class TagKeys: Sendable {
    let tag: String
    let quotedTag: [UInt8]
    let quotedContent: [UInt8]?

    init(tag: String, content: String?) {
      self.tag = tag
      quotedTag = JSONWriter.quotedKey(tag)
      quotedContent = content.map(JSONWriter.quotedKey)
    }
  }

  let session: ByteEncodingSession
  /// Set when the encoder is made or taken from its session's spares (``child(_:)``).
  @exclusivity(unchecked) var parent: ByteEncoder?
  @exclusivity(unchecked) var step: ByteStep
  @exclusivity(unchecked) var state = State.fresh
  /// Set once for a child; a root kept as a spare takes the next value's.
  @exclusivity(unchecked) var layout: Layout
  /// Where this object's keys begin in the session's `keys` (a second write of one fails
  /// the session), once its container is open.
  @exclusivity(unchecked) var firstKey = 0
  @exclusivity(unchecked) var count = 0
  /// For an adjacent tag's content: where it started, taken back when the payload is empty.
  @exclusivity(unchecked) var dropIfEmpty: JSONWriter.Mark?
  /// While its container is open: the open container it is inside.
  @exclusivity(unchecked) var below: ByteEncoder?
  /// The next root in a writer's list of spare ones (``JSONWriter/spareRoot``).
  @exclusivity(unchecked) var nextSpare: ByteEncoder?
  /// The keyed containers this encoder handed out, for its next values.
  @exclusivity(unchecked) var kept = KeptContainers<ByteEncoder>()

  init(session: ByteEncodingSession, parent: ByteEncoder?, step: ByteStep, layout: Layout = .plain)
  {
    self.session = session
    self.parent = parent
    self.step = step
    self.layout = layout
  }

  deinit {
    // A session and its spare children hold each other: the session's root, when it goes,
    // lets the spares go. (Spares and orphans have no parent either: a spare goes only once
    // its list is let go, and an orphan's session keeps no spares.)
    if parent == nil, session.spareChild != nil { session.spareChild = nil }
    kept.cutAll()
  }

  /// Makes a spare root, whose session finished, ready for another value.
  func reuse(layout: Layout) {
    session.begin()
    clear()
    self.layout = layout
  }

  /// Makes this encoder's container state that of a new one (a spare root's or child's).
  private func clear() {
    (state, firstKey, count, dropIfEmpty, below) = (.fresh, 0, 0, nil, nil)
  }

  var isOpen: Bool { state == .keyed || state == .unkeyed || state == .virtualCase }

  var codingPath: [any CodingKey] { ByteStep.path(self) }

  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func child(_ step: ByteStep) -> ByteEncoder {
    if session.live && !session.failed {
      if let spare = session.spareChild.takeSpare() {
        (spare.parent, spare.step) = (self, step)
        spare.clear()
        return spare
      }
      return ByteEncoder(session: session, parent: self, step: step)
    }
    // Once the session failed or ended nothing bounds nesting (the writer's depth count no
    // longer runs): an orphan, so that containers nested in a loop make no chain of parents,
    // whose release would recurse once per link. It writes into a session of its own, which
    // has ended: every write fails, as it would in this one, and whatever holds this session
    // holds its root, which is then never kept as a spare.
    return Self.orphan(step)
  }

  /// An encoder of a session of its own that has ended: every write into it fails, and goes
  /// nowhere.
  static func orphan(_ step: ByteStep) -> ByteEncoder {
    let ended = ByteEncodingSession()
    ended.live = false
    return ByteEncoder(session: ended, parent: nil, step: step)
  }

  /// Opens this value's object or array, or checks it continues the one it has.
  private func begin(_ kind: State) {
    do {
      try session.guarded {
        if state == kind, kind != .virtualCase {
          try session.enter(self)  // `super.encode(to:)` and then the same container again
          return
        }
        guard state == .fresh else { throw session.giveUp() }
        state = kind
        switch kind {
        case .keyed: try session.writer.pointee.beginObject()
        case .unkeyed: try session.writer.pointee.beginArray()
        default: break
        }
        session.push(self)
      }
    } catch {}  // the session failed: every write into the container fails it again
  }

  func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
    if case .plain = layout {
      begin(.keyed)
      return keyed(Key.self)
    }
    begin(.virtualCase)
    return kept.container(
      Key.self, name: Self.caseView, node: self, observable: Self.keepsContainers
    ) {
      KeyedEncodingContainer(ByteVirtualCaseEncodingContainer<Key>(link: $0))
    }
  }

  /// The keyed container of this encoder's object (opened by the caller).
  @inline(__always)
  func keyed<Key: CodingKey>(_: Key.Type) -> KeyedEncodingContainer<Key> {
    kept.container(Key.self, node: self, observable: Self.keepsContainers) {
      KeyedEncodingContainer(ByteKeyedEncodingContainer<Key>(link: $0))
    }
  }

  /// What tells the internal- or adjacent-tag view of an enum's keys from their plain
  /// container among the kept ones (a spare root may take either layout).
  private static let caseView = "(case view)"

  /// Whether this system's `KeyedEncodingContainer` can be kept (``KeptContainers``).
  static let keepsContainers = KeptContainers<ByteEncoder>.boxesAreObservable {
    JSONValueEncoder(box: EncodingBox(depth: 0), path: .root, style: .exact)
      .container(keyedBy: AnyCodingKey.self)
  }

  /// The encoder of a container whose link was cut (``ContainerLink``): `Codable` code kept
  /// the container past its value. What it writes goes nowhere.
  static func cut(_ link: ContainerLink<ByteEncoder>) -> ByteEncoder {
    if link.wasCutInThisValue { link.session.failed = true }
    return orphan(.root)
  }

  func settleContainers() -> Int { kept.settle() }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .plain = layout { begin(.unkeyed) } else { session.failed = true }
    return ByteUnkeyedEncodingContainer(encoder: self)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    if case .plain = layout {} else { session.failed = true }
    return ByteSingleValueEncodingContainer(encoder: self)
  }

  /// Closes this container (the innermost open one).
  func close() {
    swap(&session.top, &below)  // the one below becomes the top; this one drops itself
    below = nil
    let wroteKeys = session.keys.count > firstKey
    session.keys.truncate(to: firstKey)
    switch state {
    case .keyed:
      if let dropIfEmpty, !wroteKeys {
        session.writer.pointee.rollBack(to: dropIfEmpty)
      } else {
        session.writer.pointee.endObject()
      }
    case .unkeyed: session.writer.pointee.endArray()
    case .virtualCase:
      if layout.isAdjacent, count == 1 { session.writer.pointee.endObject() }
    default: break
    }
    state = .closed
  }

  /// Ends this value once its `encode(to:)` returned: an encoder that wrote nothing is `{}`.
  func finish() throws {
    switch state {
    case .fresh:
      guard case .plain = layout else { throw session.giveUp() }
      try session.writer.pointee.beginObject()
      session.writer.pointee.endObject()
      state = .closed
    case .keyed, .unkeyed, .virtualCase:
      if state == .virtualCase, count != 1 { throw session.giveUp() }  // one case key, always
      try session.enter(self)
      close()
    case .single, .closed: break
    }
  }

  // MARK: Values

  /// Writes `value` for this encoder: `JSONEncodable` types by AutoMap's codec (JSONCodable
  /// wins), others by their `encode(to:)` (`codable`: even when `JSONEncodable`, as an enum's
  /// own mapping is).
  func encodeSelf<T: Encodable>(_ value: T, codable: Bool = false) throws {
    if !codable, let mapped = try mapped(value) {
      guard state == .fresh else { throw session.giveUp() }
      try writeMapped(mapped)
      state = .single
      return
    }
    try value.encode(to: self)
    try finish()
  }

  /// `value` when AutoMap maps it (JSONCodable wins), as the reference decides first; a
  /// non-finite number is left to the reference (the call's configuration says how to write
  /// it). `nil` for a value that is only `Encodable`.
  ///
  /// (The reference writes string-keyed dictionaries by rules of its own, which keep their
  /// keys whatever the key style; with `.exact` keys, the only style here, `Dictionary`'s own
  /// `encode(to:)` writes the same.)
  @inline(__always)
  func mapped<T: Encodable>(_ value: T) throws -> (any JSONEncodable)? {
    guard let mapped = ByteEncoding.mapped(value) else { return nil }
    if ByteEncoding.isNonFinite(mapped) { throw session.giveUp() }
    return mapped
  }

  /// A `JSONEncodable` value through its codec, as the model byte path writes it (the
  /// writer lent to it, out of the session, since a codec may run other code).
  func writeMapped(_ value: any JSONEncodable) throws {
    func write<M: JSONEncodable>(_ value: M) throws {
      let codec = CodecCache.encoder(for: M.self)
      var writer = ByteEncoding.placeholder
      swap(&writer, &session.writer.pointee)
      session.lent = true
      defer {
        swap(&writer, &session.writer.pointee)
        session.lent = false
      }
      try withUnsafePointer(to: value) { try codec.writeBytes(UnsafeRawPointer($0), &writer) }
    }
    try write(value)
  }
}

/// Entry points of the byte `Encoder`.
enum ByteEncoding {
  /// What a session's writer holds while the caller's is elsewhere.
  static let placeholder = JSONWriter(options: [], capacity: 0)

  /// `value` when AutoMap maps it (JSONCodable wins), as the reference decides first; `nil`
  /// for a value that is only `Encodable`. The table answers for the instance's own type (a
  /// subclass may conform where its declared class does not) before anything is cast.
  @inline(__always)
  static func mapped<T: Encodable>(_ value: T) -> (any JSONEncodable)? {
    guard TypeFacts.of(Swift.type(of: value)).contains(.encodable) else { return nil }
    return value as? any JSONEncodable
  }

  /// Whether a mapped value is a non-finite number: the call's configuration says how to
  /// write it, so the reference does.
  static func isNonFinite(_ mapped: any JSONEncodable) -> Bool {
    guard let float = mapped as? any BinaryFloatingPoint else { return false }
    return !float.isFinite
  }

  /// Writes `value` (a `Codable` value) straight to `writer`; `false`, with nothing written,
  /// when the reference must write it.
  static func encode<T: Encodable>(_ value: T, style: JSON.KeyStyle, _ writer: inout JSONWriter)
    -> Bool
  {
    run(style, .plain, &writer) { try $0.encodeSelf(value) }
  }

  /// Writes an enum with payloads through its synthesized `encode(to:)`, its external-tag case
  /// key laid out as `layout` says; `false` when the reference must write it.
  static func encodeEnum<T: Encodable>(
    _ value: T, layout: ByteEncoder.Layout, style: JSON.KeyStyle, _ writer: inout JSONWriter
  ) -> Bool {
    run(style, layout, &writer) { try $0.encodeSelf(value, codable: true) }
  }

  private static func run(
    _ style: JSON.KeyStyle, _ layout: ByteEncoder.Layout, _ writer: inout JSONWriter,
    _ body: (ByteEncoder) throws -> Void
  ) -> Bool {
    guard style == .exact, !writer.sorted else { return false }
    let mark = writer.mark
    let root: ByteEncoder
    if let spare = writer.spareRoot.takeSpare() {
      spare.reuse(layout: layout)
      root = spare
    } else {
      root = ByteEncoder(session: ByteEncodingSession(), parent: nil, step: .root, layout: layout)
    }
    let session = root.session
    swap(&session.writer.pointee, &writer)
    do { try body(root) } catch { session.failed = true }
    session.live = false
    swap(&session.writer.pointee, &writer)
    let complete = !session.failed && session.top == nil
    // The open containers point back at the session: unlinked, they are freed with it.
    while let open = session.top {
      session.top = open.below
      open.below = nil
    }
    // A root that no encoder outlived (`Codable` code may keep one) is kept, with its session,
    // for the writer's next `Codable` value: an array of them makes one, not one per element.
    // Whatever holds the session holds the root (every encoder but an orphan of an ended one,
    // ``ByteEncoder/child(_:)``, holds its parent), or is a container the root's settling cuts
    // off (``KeptContainers``).
    writer.spareRoot.keepSpare(consume root)
    guard !complete else { return true }
    writer.rollBack(to: mark)
    return false
  }
}
