/// The `allKeys` of a container that shows one case key: `[Key(stringValue: name)]`, or `[]`
/// when `Key` does not know the name.
///
/// Synthesized `init(from:)` of an enum asks every value's container for its keys. Building
/// the one-key array for a generic `Key` asks the runtime for the metadata of `Key?` and of
/// the array's storage, two lookups in its generic metadata cache, then runs the key's
/// `init(stringValue:)`: about 1 400 instructions per enum value, a tenth of decoding a
/// `[Stroke]` element. So the arrays are built once per key type and name and then shared:
/// the same keys, in the same array, that building them again gives.
///
/// ```swift
/// var allKeys: [Key] { CaseKeys.keys(Key.self, named: name) }
/// ```
///
/// A fixed table of slots, each published once (``AtomicObject``) and then read by every
/// thread with one acquiring load, holds the arrays; a name or key type whose slot another
/// took is built each time. Arrays of class-typed keys are not shared: such a key may have
/// state of its own, which threads must not share.
enum CaseKeys {
  /// `[Key(stringValue: name)]`, or `[]`; from the table when it holds them.
  @inline(__always)
  static func keys<Key: CodingKey>(_: Key.Type, named name: String) -> [Key] {
    keys(Key.self, named: name, home: table.home(ObjectIdentifier(Key.self), name))
  }

  /// The keys, looked for in the slots from `home` on (tests choose `home`, so that names
  /// meet in one slot).
  @inline(__always)
  static func keys<Key: CodingKey>(_: Key.Type, named name: String, home: Int) -> [Key] {
    let type = ObjectIdentifier(Key.self)
    for probe in 0..<Table.probes {
      let slot = table.words + ((home + probe) & (Table.count - 1))
      guard let entry = AtomicObject<Entry>.unmanaged(slot) else {
        return made(Key.self, name, in: slot)  // a free slot: the name is not in the table
      }
      let keys = entry._withUnsafeGuaranteedRef { entry -> [Key]? in
        guard entry.type == type, JSON.sameKey(entry.name, name) else { return nil }
        // The entry was made for this `Key` (its type checked above): no runtime cast.
        return unsafeDowncast(entry, to: TypedEntry<Key>.self).keys
      }
      if let keys { return keys }
    }
    return built(Key.self, name)  // the slots it could use hold other names
  }

  /// Empties the table, for tests. The entries are kept, never freed (a thread may be reading
  /// one it loaded), as addresses in ``Table/retired``.
  static func forgetAll() {
    table.retired.withLock { retired in
      for slot in table.words..<(table.words + Table.count) {
        if let entry = AtomicObject<Entry>.take(slot) {
          retired.append(UInt(bitPattern: entry.toOpaque()))
        }
      }
    }
  }

  /// The keys, built; published in `slot` unless `Key` is a class, `Key` does not know the
  /// name, the name is long, or another thread took the slot first.
  ///
  /// Names come from documents, and a published one is kept for the life of the process:
  /// only a name some key knows (a case), of at most ``longestName`` bytes, is, so that a
  /// document of made-up names pins at most the table's slots, each with a short name.
  @inline(never)
  private static func made<Key: CodingKey>(
    _: Key.Type, _ name: String, in slot: UnsafeMutablePointer<UInt>
  ) -> [Key] {
    let keys = built(Key.self, name)
    if !keys.isEmpty, name.utf8.count <= longestName, !(Key.self is AnyObject.Type) {
      _ = AtomicObject<Entry>.storeIfNil(TypedEntry(name, keys), in: slot)
    }
    return keys
  }

  /// The longest name the table keeps, in UTF-8 bytes.
  static let longestName = 64

  /// `[Key(stringValue: name)]`, or `[]`, built: the one place the rule is written.
  static func built<Key: CodingKey>(_: Key.Type, _ name: String) -> [Key] {
    guard let key = Key(stringValue: name) else { return [] }
    return [key]
  }

  /// A key type and name, and (in ``TypedEntry``) their keys.
  private class Entry: @unchecked Sendable {  // never changed once published
    let type: ObjectIdentifier
    let name: String

    init(type: ObjectIdentifier, name: String) {
      self.type = type
      self.name = name
    }
  }

  private final class TypedEntry<Key: CodingKey>: Entry, @unchecked Sendable {
    let keys: [Key]

    init(_ name: String, _ keys: [Key]) {
      self.keys = keys
      super.init(type: ObjectIdentifier(Key.self), name: name)
    }
  }

  /// The slots, for the life of the process (entries are read without a reference count, so
  /// none is ever freed).
  private final class Table: @unchecked Sendable {  // its words are only used atomically
    static let count = 1_024
    /// How many slots from its home a name may take.
    static let probes = 4
    let words: UnsafeMutablePointer<UInt>
    /// The process's key-hash seed (``KeyIndex/processSeed``), so that names cannot be made
    /// to meet on purpose.
    let seed = KeyIndex.processSeed
    /// The entries ``CaseKeys/forgetAll()`` took out, each with the reference the table held.
    let retired = Locked<[UInt]>([])

    init() {
      words = .allocate(capacity: Self.count)
      words.initialize(repeating: 0, count: Self.count)
    }

    /// Where a key type's name is looked for first: the hash of the name's bytes that large
    /// objects' key indexes use (``KeyIndex/hash(_:seed:)``), seeded with the type's address.
    @inline(__always)
    func home(_ type: ObjectIdentifier, _ name: String) -> Int {
      var name = name
      let hash = name.withUTF8 {
        KeyIndex.hash($0, seed: seed ^ UInt64(UInt(bitPattern: type)))
      }
      return Int(truncatingIfNeeded: hash >> 54)  // 0..<1 024
    }
  }

  private static let table = Table()
}
