import CAutoMapShims

// Untagged enums read straight from the bytes (``UntaggedEnum/decodeBytes(_:into:)``): each
// trial presents the document to the enum's synthesized `init(from:)` as `{"<case>": payload}`
// through ``ByteDecoder``, with no `JSON` tree, and checks the shape the value writes back with
// ``UntaggedProbe``. The `JSON` path (``UntaggedEnum/decode(_:)``) stays the reference: the
// byte path gives up whenever it is unsure, and the outermost untagged value is then decoded
// again through `JSON`, so values and errors are the reference's.

extension ByteDecodingSession {
  /// A key the object does not have: the reference misses it too, so an untagged trial takes
  /// it as the case's failure. The error is the reference decoder's kind (`keyNotFound`), so
  /// that `Codable` code that catches it does on bytes what it does there. (Its text is
  /// never shown: a failed session's errors are the reference's.)
  func missingKey(_ key: String) -> DecodingError {
    failed = true
    return DecodingError.keyNotFound(
      AnyCodingKey(stringValue: key),
      DecodingError.Context(
        codingPath: [], debugDescription: Self.missing.message, underlyingError: Self.missing))
  }

  private static let missing = JSON.Error(.missingValue, "missing key (internal)")
}

/// How an untagged trial ended on the bytes.
enum UntaggedByteOutcome {
  /// The case mapped and writes back the shape it was read from (a nested value, kept).
  case value(Any, end: UnsafePointer<UInt8>)
  /// The case does not map, and the reference agrees (no key in the value could make it
  /// decide otherwise).
  case failed
  /// The reference must decide.
  case unsure
}

/// What a trial on bytes reports; a value found is already in the destination (no box, no
/// generic type of the enum: each would cost a metadata lookup or an allocation per value).
enum UntaggedTrialResult {
  case found(end: UnsafePointer<UInt8>)
  case failed
  case unsure
}

/// What one outermost untagged value read from bytes remembers, as ``UntaggedSession`` does
/// for `JSON`: the outcome of each (enum, position) pair, so that a recursive enum costs each
/// pair one trial, and the trials under way, so that a case holding the enum at the same
/// position again fails at once. Positions are offsets in the one document.
final class UntaggedByteMemo {
  struct Key: Hashable {
    let layout: ObjectIdentifier
    let offset: Int
  }

  private(set) var start: UnsafePointer<UInt8>
  private(set) var end: UnsafePointer<UInt8>
  /// Where the outermost value starts, and the reader's depth there.
  private(set) var origin: UnsafePointer<UInt8>
  private(set) var originDepth: Int
  // Unchecked exclusivity, as the byte decoder's: a memo is used by one thread, by one value
  // and the values nested in it, and no access overlaps another.
  @exclusivity(unchecked) var outcomes: [Key: UntaggedByteOutcome] = [:]
  @exclusivity(unchecked) var underWay: [(key: Key, sawCut: Bool)] = []
  /// Whether the outermost value's keys are all plain (ASCII, no escapes) and distinct in
  /// each object, so that a failure on the bytes is a failure on the reference; `nil` until
  /// a failure asks.
  @exclusivity(unchecked) var clean: Bool?
  /// Set when any trial was unsure: every value of the document is decoded again.
  @exclusivity(unchecked) var unsure = false

  private init(_ reader: JSONReader, origin: UnsafePointer<UInt8>) {
    start = reader.start
    end = reader.end
    self.origin = origin
    originDepth = reader.depth
  }

  /// A memo for the outermost value at the reader: the one a value before gave back, when no
  /// other thread took it, or a new one. (A memo and its two collections were three
  /// allocations per value.)
  static func take(_ reader: JSONReader) -> UntaggedByteMemo {
    guard let memo = spare.take() else {
      return UntaggedByteMemo(reader, origin: reader.cursor)
    }
    (memo.start, memo.end, memo.origin) = (reader.start, reader.end, reader.cursor)
    (memo.originDepth, memo.clean, memo.unsure) = (reader.depth, nil, false)
    return memo
  }

  /// Gives a memo whose value ended back for the next value, emptied (its collections keep
  /// their storage), unless something else holds it or a deep value grew its collections.
  static func giveBack(_ memo: consuming UntaggedByteMemo) {
    var memo = memo
    guard isKnownUniquelyReferenced(&memo), memo.outcomes.capacity <= keptCapacity,
      memo.underWay.capacity <= keptCapacity
    else { return }
    if !memo.outcomes.isEmpty { memo.outcomes.removeAll(keepingCapacity: true) }
    memo.underWay.truncate(to: 0)
    spare.give(memo)
  }

  /// The most entries a spare memo keeps room for in each of its collections.
  private static let keptCapacity = 64

  /// The memo given back, for any thread to take.
  private static let spare = SpareSlot<UntaggedByteMemo>()

  /// The memo of the untagged value being read from `reader`'s document on this thread.
  static func current(for reader: JSONReader) -> UntaggedByteMemo? {
    guard let memo = installed, memo.start == reader.start, memo.end == reader.end else {
      return nil
    }
    return memo
  }

  /// The memo of the untagged value being read from bytes on this thread, whatever the
  /// document.
  static var installed: UntaggedByteMemo? {
    guard let raw = automap_untagged_memo_get() else { return nil }
    return Unmanaged<UntaggedByteMemo>.fromOpaque(raw).takeUnretainedValue()
  }

  /// Runs `body` with no memo current on this thread: for another document read in the
  /// middle of a trial (JSON held in a string), whose values cannot be where the trials under
  /// way are.
  static func outside<R>(_ body: () throws -> R) rethrows -> R {
    let previous = automap_untagged_memo_get()
    automap_untagged_memo_set(nil)
    defer { automap_untagged_memo_set(previous) }
    return try body()
  }

  /// Runs `body` with this memo as the thread's current one.
  func installed<R>(_ body: () throws -> R) rethrows -> R {
    let previous = automap_untagged_memo_get()
    automap_untagged_memo_set(Unmanaged.passUnretained(self).toOpaque())
    defer { automap_untagged_memo_set(previous) }
    return try withExtendedLifetime(self) { try body() }
  }

  /// Whether a failure seen on the bytes is the reference's too (see `clean`).
  func failuresAreFinal(_ reader: JSONReader) -> Bool {
    if let clean { return clean }
    var probe = reader.detached()
    probe.cursor = origin
    probe.depth = originDepth
    let result = (try? probe.skipCheckingKeys()) ?? false
    clean = result
    return result
  }
}

extension JSONReader {
  /// Skips one value as ``skipValue()`` does; `false` when an object in it has a key with an
  /// escape or a non-ASCII byte, or two keys equal when ASCII case, `_` and `-` are ignored
  /// (spellings that key styles, case-insensitive models or the last-one-wins rule could
  /// read as one key).
  mutating func skipCheckingKeys() throws -> Bool {
    guard let byte = peekByte() else { throw syntaxError(expected: "a JSON value") }
    switch byte {
    case UInt8(ascii: "{"):
      let hasMembers = try openContainer(byte, expected: "an object")
      defer { leaveContainer() }
      guard hasMembers else { return true }
      var seen = KeyHashes()
      var clean = true
      repeat {
        skipWhitespace()
        let key = try scanKeyString()
        try expect(UInt8(ascii: ":"), "':' after object key")
        if clean {
          if key.hasEscapes { clean = false }
          var hash: UInt64 = 0xcbf2_9ce4_8422_2325
          for offset in 0..<key.count {
            var byte = key.start[offset]
            if byte >= 0x80 { clean = false }
            if byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") { continue }
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte += 32 }
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
          }
          if !seen.insert(hash) { clean = false }
        }
        if try !skipCheckingKeys() { clean = false }
      } while try nextMember()
      return clean
    case UInt8(ascii: "["):
      let hasElements = try openContainer(byte, expected: "an array")
      defer { leaveContainer() }
      guard hasElements else { return true }
      var clean = true
      repeat {
        if try !skipCheckingKeys() { clean = false }
      } while try nextElement()
      return clean
    default:
      try skipValue()
      return true
    }
  }
}

/// The key hashes of one object for ``JSONReader/skipCheckingKeys()``: the first eight in
/// place, so that a small object allocates nothing.
private struct KeyHashes {
  private var inline: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
    (0, 0, 0, 0, 0, 0, 0, 0)
  private var count = 0
  private var more: [UInt64] = []

  /// Adds `hash`; `false` when it was there already.
  mutating func insert(_ hash: UInt64) -> Bool {
    let inlineCount = Swift.min(count, 8)
    let seen = withUnsafeBytes(of: &inline) { raw in
      (0..<inlineCount).contains { raw.load(fromByteOffset: $0 * 8, as: UInt64.self) == hash }
    }
    if seen || more.contains(hash) { return false }
    if count < 8 {
      withUnsafeMutableBytes(of: &inline) { raw in
        raw.storeBytes(of: hash, toByteOffset: count * 8, as: UInt64.self)
      }
    } else {
      more.append(hash)
    }
    count += 1
    return true
  }
}

/// The values an untagged trial reads as `_0`, `_1`, …: the document itself (one value), or
/// the elements of the array; read by children of the trials' root decoder.
final class UntaggedPositions {
  let root: ByteDecoder
  let starts: [UnsafePointer<UInt8>]
  let depth: Int
  /// The decoder made for each position, once asked.
  @exclusivity(unchecked) var decoders: [ByteDecoder?]

  init(_ starts: [UnsafePointer<UInt8>], depth: Int, root: ByteDecoder) {
    self.root = root
    self.starts = starts
    self.depth = depth
    decoders = Array(repeating: nil, count: starts.count)
  }

  /// The position a key such as `_3` names.
  func index(_ key: String) -> Int? {
    guard let index = UntaggedCaseNeeds.position(key), index < starts.count else { return nil }
    return index
  }

  func decoder(_ index: Int, key: any CodingKey) -> ByteDecoder {
    if let decoder = decoders[index] { return decoder }
    let decoder = root.child(.key(key), at: starts[index], depth: depth)
    decoders[index] = decoder
    return decoder
  }
}

/// The `Decoder` of one untagged trial: the external-tag view, one key (the case) whose value
/// is the payload.
///
/// A value, not an object: passed to `init(from:)` as `any Decoder`, its three words fit the
/// existential's own storage, so a trial allocates no decoder.
struct UntaggedTrialDecoder: Decoder {
  enum Payload {
    /// `{}` (a case read from its name) or the object itself.
    case object(ByteDecoder)
    /// `_0`… as positions.
    case positions(UntaggedPositions)
  }

  let caseKey: String
  let payload: Payload

  var session: ByteDecodingSession {
    switch payload {
    case .object(let decoder): decoder.session
    case .positions(let positions): positions.root.session
    }
  }
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy _: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard session.live, !session.busy else { throw session.giveUp() }
    return KeyedDecodingContainer(UntaggedCaseContainer<Key>(trial: self))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw session.giveUp() }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    throw session.giveUp()
  }
}

/// `{"<case>": payload}`: what synthesized `init(from:)` of an enum reads.
struct UntaggedCaseContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let trial: UntaggedTrialDecoder

  var codingPath: [any CodingKey] { [] }
  var allKeys: [Key] { CaseKeys.keys(Key.self, named: trial.caseKey) }
  func contains(_ key: Key) -> Bool { JSON.sameKey(key.stringValue, trial.caseKey) }

  /// Synthesized code reads a case's payload through a nested container only.
  func decodeNil(forKey _: Key) throws -> Bool { throw trial.session.giveUp() }
  func decode<T: Decodable>(_: T.Type, forKey _: Key) throws -> T { throw trial.session.giveUp() }

  func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type, forKey key: Key) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    let session = trial.session
    guard session.live, !session.busy, JSON.sameKey(key.stringValue, trial.caseKey) else {
      throw session.giveUp()
    }
    switch trial.payload {
    case .object(let decoder): return try decoder.container(keyedBy: NestedKey.self)
    case .positions(let positions):
      return KeyedDecodingContainer(UntaggedPositionsContainer<NestedKey>(positions: positions))
    }
  }

  func nestedUnkeyedContainer(forKey _: Key) throws -> any UnkeyedDecodingContainer {
    throw trial.session.giveUp()
  }
  func superDecoder() throws -> any Decoder { throw trial.session.giveUp() }
  func superDecoder(forKey _: Key) throws -> any Decoder { throw trial.session.giveUp() }
}

/// A payload read as `_0`, `_1`, …: each key is the value at its position.
struct UntaggedPositionsContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let positions: UntaggedPositions

  var session: ByteDecodingSession { positions.root.session }
  var codingPath: [any CodingKey] { [] }
  var allKeys: [Key] { positions.starts.indices.compactMap { Key(stringValue: "_\($0)") } }
  func contains(_ key: Key) -> Bool { positions.index(key.stringValue) != nil }

  private func decoder(_ key: Key) throws -> ByteDecoder {
    guard session.live, !session.busy else { throw session.giveUp() }
    guard let index = positions.index(key.stringValue) else {
      throw session.missingKey(key.stringValue)
    }
    return positions.decoder(index, key: key)
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    let decoder = try decoder(key)
    return try session.guarded {
      let probe = session.reader(at: decoder.originCursor, depth: decoder.originDepth)
      return try probe.pointee.consumeNull()
    }
  }

  func decode<T: Decodable>(_: T.Type, forKey key: Key) throws -> T {
    let decoder = try decoder(key)
    return try session.guarded { try decoder.decodeSelf(T.self) }
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type, forKey key: Key) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    try decoder(key).container(keyedBy: NestedKey.self)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try decoder(key).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder { throw session.giveUp() }
  func superDecoder(forKey _: Key) throws -> any Decoder { throw session.giveUp() }
}

extension UntaggedEnum {
  /// Thrown by a nested untagged value whose trials were unsure: not recoverable, so nothing
  /// on the way out swallows it, and the outermost untagged value is decoded through `JSON`.
  static var unsureError: JSON.Error {
    JSON.Error(.invalidModel, "an untagged value is decoded through JSON values (internal)")
  }

  /// A nested value no case maps (never shown: the outermost value's error is the reference's).
  private static var noCase: JSON.Error { JSON.Error(.typeMismatch, "no case matches (internal)") }

  /// Decodes the value at the reader from the bytes into `destination` (uninitialized memory
  /// for an `E`), moving the reader past it; `false` (the reader where it was, nothing in
  /// `destination`) when the reference must decide. A value nested in another untagged value
  /// of the same document throws instead: a plain failure when no case maps,
  /// ``unsureError`` when the reference must decide the outermost value.
  func decodeBytes(_ reader: inout JSONReader, into destination: UnsafeMutableRawPointer) throws
    -> Bool
  {
    try Nesting.checkStack()
    let outer = UntaggedByteMemo.current(for: reader)
    guard ByteDecoding.applies(style) else {
      guard let outer else { return false }
      outer.unsure = true
      throw Self.unsureError
    }
    reader.skipWhitespace()
    let view = reader.detached()  // the trials read their own copies
    guard let outer else {
      let memo = UntaggedByteMemo.take(reader)
      let outcome = memo.installed { remember(memo, view, destination, &reader.spareRoot) }
      var found = false
      if case .found(let end) = outcome {
        if memo.unsure {
          // (A trial checks this before it keeps a value; should one not, nothing is leaked.)
          RawValue.destroy(destination, as: E.self)
        } else {
          reader.cursor = end
          found = true
        }
      }
      UntaggedByteMemo.giveBack(consume memo)
      return found
    }
    switch remember(outer, view, destination, &reader.spareRoot) {
    case .found(let end):
      reader.cursor = end
      return true
    case .failed:
      throw Self.noCase
    case .unsure:
      outer.unsure = true
      throw Self.unsureError
    }
  }

  /// The outcome at the reader's position, remembered in `memo`; a value found is put in
  /// `destination`.
  private func remember(
    _ memo: UntaggedByteMemo, _ reader: JSONReader, _ destination: UnsafeMutableRawPointer,
    _ spares: inout ByteDecoder?
  ) -> UntaggedTrialResult {
    let key = UntaggedByteMemo.Key(
      layout: ObjectIdentifier(self), offset: reader.start.distance(to: reader.cursor))
    if let known = memo.outcomes[key] { return recalled(known, destination) }
    if let loop = memo.underWay.lastIndex(where: { $0.key == key }) {
      // The enum again at the same value: the shortest way to read a value never passes
      // through itself. What was tried in between saw the loop cut: not remembered.
      for position in memo.underWay.indices where position > loop {
        memo.underWay[position].sawCut = true
      }
      return memo.failuresAreFinal(reader) ? .failed : .unsure
    }
    memo.underWay.append((key, false))
    let outcome = trials(memo, reader, destination, &spares)
    let sawCut = memo.underWay.removeLast().sawCut
    // The outermost value is asked for once: only nested ones are remembered.
    let remembers = !sawCut && reader.cursor != memo.origin
    switch outcome {
    case .unsure: memo.unsure = true
    case .found(let end) where remembers:
      memo.outcomes[key] = .value(RawValue.load(destination, as: E.self), end: end)
    case .failed where remembers: memo.outcomes[key] = .failed
    case .found, .failed: break
    }
    return outcome
  }

  /// A remembered outcome; a value found is put in `destination`. Apart from ``remember``,
  /// which then asks the runtime for the metadata of `E?` (a generic metadata lookup, 460
  /// instructions) on every call, not only on those that recall a value.
  @inline(never)
  private func recalled(_ known: UntaggedByteOutcome, _ destination: UnsafeMutableRawPointer)
    -> UntaggedTrialResult
  {
    switch known {
    case .value(let value, let end):
      guard let value = value as? E else { return .unsure }
      RawValue.initialize(destination, to: value)
      return .found(end: end)
    case .failed: return .failed
    case .unsure: return .unsure
    }
  }

  /// Tries each case in order, each shape in order, as ``decode(_:)`` does, reading with a
  /// detached copy of the caller's reader, on a root decoder taken from the caller's spares
  /// (`spares`) and given back to them.
  private func trials(
    _ memo: UntaggedByteMemo, _ reader: JSONReader, _ destination: UnsafeMutableRawPointer,
    _ spares: inout ByteDecoder?
  ) -> UntaggedTrialResult {
    let root = ByteDecoding.root(from: &spares, at: reader.cursor, depth: reader.depth)
    root.session.reader.pointee = reader.detached()
    let outcome = trials(memo, reader, destination, root)
    root.session.live = false
    root.session.breakCycles(root)
    // Kept, with its session, for the next value, as ``ByteDecoding/run(_:_:into:_:)`` keeps
    // the roots it used: unless a decoder or container that `Codable` code kept holds it.
    spares.keepSpare(consume root)
    return outcome
  }

  /// The trials on `root`, whose session reads a copy of `reader`.
  private func trials(
    _ memo: UntaggedByteMemo, _ reader: JSONReader, _ destination: UnsafeMutableRawPointer,
    _ root: ByteDecoder
  ) -> UntaggedTrialResult {
    let (cursor, depth) = (reader.cursor, reader.depth)
    var text: String?
    var textEnd = cursor
    var elements: UntaggedPositions?
    var arrayEnd = cursor
    var probe = reader
    let first = probe.peekByte()
    if first == UInt8(ascii: "\"") {
      guard let string = try? probe.readString() else { return .unsure }
      text = string
      textEnd = probe.cursor
    } else if first == UInt8(ascii: "[") {
      guard let (starts, end) = try? Self.elements(&probe) else { return .unsure }
      if starts.count >= 2 {
        elements = UntaggedPositions(starts, depth: depth + 1, root: root)
      }
      arrayEnd = end
    }
    let isObject = first == UInt8(ascii: "{")
    var whole: UntaggedPositions?  // made when a case reads the document as one value
    // The object's keys, scanned once for every case's needs (lookups remember what they
    // saw); the first trial that reads the object reads it through this scan.
    var keyScan: ByteDecoder?
    var keyScanRead = false
    defer {
      // Unlinked from the scans begun by the trial that read it: kept here, if nothing holds it.
      if let scan = keyScan {
        keyScan = nil
        root.session.keepChild(scan)
      }
    }
    for (index, key) in keys.enumerated() {
      let needs = needs[index]
      for shape in 0..<4 {
        // The shapes the document cannot take: a name only as a string, positions only as an
        // array, labels only as an object (one value: any document).
        switch shape {
        case 0: guard text == key else { continue }
        case 2: guard elements != nil else { continue }
        case 3: guard isObject else { continue }
        default: break
        }
        // A payload that fails the case having read nothing: the reference fails it too,
        // whatever the document's keys. The payload's keys are the reference's: none (the
        // name), `_0`, `_0`… (positions), or the object's own, which the reference looks up
        // by their bytes as `lookup` does (an escaped or repeated key throws here: the
        // reference reads those). No key of a nested value is read.
        if let needs {
          let fails: Bool
          switch shape {
          case 0: fails = true  // `{}` holds no key
          case 1: fails = needs.failsAsOneValue
          case 2:
            fails =
              elements.map { elements in needs.fail { elements.index($0) != nil } } ?? false
          default:
            if keyScan == nil {
              let scan = root.child(.root, at: cursor, depth: depth)
              guard (try? scan.openObject()) != nil else { return .unsure }
              keyScan = scan
            }
            guard let scan = keyScan, let missing = try? needs.fail({ try scan.lookup($0) != nil })
            else { return .unsure }
            fails = missing
          }
          if fails { continue }
        }
        let payload: UntaggedTrialDecoder.Payload
        switch shape {
        case 0:
          payload = .object(root.emptyObject(.name(key)))
        case 1:
          let one = whole ?? UntaggedPositions([cursor], depth: depth, root: root)
          whole = one
          payload = .positions(one)
          one.decoders[0] = nil
        case 2:
          guard let elements else { continue }
          payload = .positions(elements)
          elements.decoders = Array(repeating: nil, count: elements.starts.count)
        default:
          if let keyScan, !keyScanRead {
            keyScan.step = .name(key)
            keyScanRead = true
            payload = .object(keyScan)
          } else {
            payload = .object(root.child(.name(key), at: cursor, depth: depth))
          }
        }
        let outcome = attempt(
          UntaggedTrialDecoder(caseKey: key, payload: payload), shape: shape,
          end: shape == 0 ? textEnd : arrayEnd,
          checksShape: !(shape == 3 && needs?.requiresLabel == true), memo, reader, destination)
        // Once the trial decoder is gone: its payload's decoder may then be kept as a spare.
        root.session.breakCycles(root)
        switch outcome {
        case .found, .unsure: return outcome
        case .failed: continue
        }
      }
    }
    return .failed
  }

  /// Where each element of the array at the reader starts, and where the array ends.
  private static func elements(_ reader: inout JSONReader) throws -> (
    [UnsafePointer<UInt8>], UnsafePointer<UInt8>
  ) {
    var starts: [UnsafePointer<UInt8>] = []
    let hasElements = try reader.openContainer(UInt8(ascii: "["), expected: "an array")
    defer { reader.leaveContainer() }
    if hasElements {
      repeat {
        reader.skipWhitespace()
        starts.append(reader.cursor)
        try reader.skipValue()
      } while try reader.nextElement()
    }
    return (starts, reader.cursor)
  }

  /// One case read as one shape (0: the name, 1: one value, 2: an array, 3: the object).
  private func attempt(
    _ trial: UntaggedTrialDecoder, shape: Int, end knownEnd: UnsafePointer<UInt8>,
    checksShape: Bool, _ memo: UntaggedByteMemo, _ reader: JSONReader,
    _ destination: UnsafeMutableRawPointer
  ) -> UntaggedTrialResult {
    let session = trial.session
    session.failed = false
    session.unsure = false
    do {
      let value = try E(from: trial)
      let end: UnsafePointer<UInt8>
      switch trial.payload {
      case .object(let decoder) where shape == 3: end = try decoder.complete()
      case .positions(let positions) where shape == 1:
        let decoder = positions.decoder(0, key: AnyCodingKey(stringValue: "_0"))
        end = try decoder.complete()
      default: end = knownEnd
      }
      try session.finishAll()
      guard !session.failed, !memo.unsure else { return .unsure }
      guard checksShape else {
        RawValue.initialize(destination, to: value)
        return .found(end: end)
      }
      // The value must be written back in the shape it was read from.
      guard let written = UntaggedProbe.shape(of: value) else { return .unsure }
      let expected: UntaggedProbe.Shape
      switch (shape, trial.payload) {
      case (0, _): expected = .name
      case (1, _): expected = .single
      case (2, .positions(let positions)): expected = .array(positions.starts.count)
      default: expected = .object
      }
      guard written.key == trial.caseKey, written.shape == expected else {
        return memo.failuresAreFinal(reader) ? .failed : .unsure
      }
      RawValue.initialize(destination, to: value)
      return .found(end: end)
    } catch {
      if session.unsure || memo.unsure { return .unsure }
      // Classified as the reference classifies what `init(from:)` threw.
      let kind = CodableErrors.jsonError(error, style: style).kind
      guard kind == .typeMismatch || kind == .missingValue else { return .unsure }
      return memo.failuresAreFinal(reader) ? .failed : .unsure
    }
  }
}
