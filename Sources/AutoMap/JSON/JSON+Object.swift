import Foundation

extension JSON {
  /// The members of a JSON object, in document order.
  ///
  /// Keys are compared by their UTF-8 bytes, as JSON defines them (RFC 8259 §8.3), not by
  /// Swift's canonical equivalence: `"é"` (U+00E9) and `"e\u{301}"` are two keys, on every
  /// path that reads or builds an object.
  ///
  /// Keys are unique: setting a key that is already there replaces its value in place, and a
  /// document that repeats a key keeps the last value (at the first key's position). Two
  /// objects are equal when they hold the same members, whatever their order.
  ///
  /// ```swift
  /// var object: JSON.Object = ["b": 1, "a": 2]
  /// object["c"] = true
  /// object.keys          // ["b", "a", "c"]
  /// object["a"]          // Optional(2)
  /// for (key, value) in object { print(key, value) }
  /// ```
  ///
  /// - Complexity: lookups are O(1) on average; small objects (up to 16 members) are
  ///   searched linearly, which is faster than hashing at that size.
  public struct Object: Sendable {
    /// A key and its value. (A struct rather than a tuple: arrays of tuples are destroyed
    /// through the runtime's generic tuple witnesses, arrays of structs through specialised
    /// code.)
    public struct Member: Sendable, Hashable {
      /// The member's key.
      public var key: String
      /// The member's value.
      public var value: JSON

      /// A member with this key and value.
      public init(key: String, value: JSON) {
        self.key = key
        self.value = value
      }

      /// Members are equal when their keys have the same UTF-8 bytes and their values are
      /// equal.
      public static func == (lhs: Self, rhs: Self) -> Bool {
        JSON.sameKey(lhs.key, rhs.key) && lhs.value == rhs.value
      }
    }

    /// Objects up to this size are searched linearly; larger ones build a hash table on
    /// their first lookup.
    static let linearLimit = 16

    /// The members in order. One array (not one per keys and values) keeps an object to one
    /// allocation and `JSON` to 24 bytes.
    public private(set) var members: [Member]
    /// Present when `count > linearLimit`, filled on first use. Safe to share between
    /// threads (see ``KeyTable``), which a `ManagedBuffer` cannot declare.
    nonisolated(unsafe) private var table: KeyTable?

    /// An empty object.
    public init() { members = [] }

    /// An object from members whose keys are known to be unique (the parser's).
    init(uniqueMembers members: [Member]) {
      self.members = members
      table = members.count > Self.linearLimit ? KeyTable.make() : nil
    }

    /// An object with these members; a repeated key keeps its last value.
    public init<S: Sequence>(_ members: S) where S.Element == (String, JSON) {
      self.init()
      for (key, value) in members { self[key] = value }
    }

    /// The keys, in order.
    public var keys: [String] { members.map(\.key) }

    /// The values, in order.
    public var values: [JSON] { members.map(\.value) }

    /// The number of members.
    public var count: Int { members.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { members.isEmpty }

    /// The position of `key`, or `nil`.
    public func index(forKey key: String) -> Int? {
      if let table { return table.index(of: key, in: members) }
      return members.firstIndex { JSON.sameKey($0.key, key) }
    }

    /// The position of `key`, looking at `hint` first and then onwards: mapping reads the
    /// keys of a model in declaration order, which is usually the members' order too.
    @inline(__always)
    func index(forKey key: String, near hint: Int) -> Int? {
      let count = members.count
      // A scan from the hint beats building a hash table unless the object is large.
      if count > 64, let table { return table.index(of: key, in: members) }
      guard count > 0 else { return nil }
      var position = hint < count ? hint : 0
      for _ in 0..<count {
        if JSON.sameKey(members[position].key, key) { return position }
        position += 1
        if position == count { position = 0 }
      }
      return nil
    }

    /// The value for `key`, or `nil` when the key is absent. Setting `nil` removes the key.
    public subscript(key: String) -> JSON? {
      get { index(forKey: key).map { members[$0].value } }
      set {
        if let newValue {
          if let position = index(forKey: key) {
            members[position].value = newValue
          } else {
            append(key, newValue)
          }
        } else {
          removeValue(forKey: key)
        }
      }
    }

    /// Removes `key` and returns its value, or `nil` when it was absent.
    /// - Complexity: O(*n*): later members move up to keep the order.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSON? {
      guard let position = index(forKey: key) else { return nil }
      return removeMember(at: position).value
    }

    /// Removes the member at `position`. A large object's key table forgets its key in place
    /// when no other object shares the table.
    @discardableResult
    private mutating func removeMember(at position: Int) -> Member {
      if members.count - 1 > Self.linearLimit, var existing = table {
        table = nil
        if !isKnownUniquelyReferenced(&existing)
          || !existing.remove(members[position].key, at: position)
        {
          existing = KeyTable.make()
        }
        table = existing
      } else {
        table = members.count - 1 > Self.linearLimit ? KeyTable.make() : nil
      }
      return members.remove(at: position)
    }

    /// Removes the members `keys` name in one pass over the members (one at a time, each
    /// removal moves the later members), keeping the others in order. Absent keys are ignored,
    /// unless `requiringEach`: then a key that names no member, or the member another key
    /// names, leaves the object unchanged and returns `false`.
    @discardableResult
    mutating func removeValues(forKeys keys: [String], requiringEach: Bool = false) -> Bool {
      var removed = [Bool](repeating: false, count: members.count)
      var (removedCount, last) = (0, 0)
      for key in keys {
        guard let position = index(forKey: key), !removed[position] else {
          if requiringEach { return false }
          continue
        }
        removed[position] = true
        (removedCount, last) = (removedCount + 1, position)
      }
      switch removedCount {
      case 0: break
      case 1: removeMember(at: last)
      default:
        members.removeAll(marked: removed, count: removedCount)
        table = members.count > Self.linearLimit ? KeyTable.make() : nil
      }
      return true
    }

    /// Appends a member whose key is known to be new.
    mutating func append(_ key: String, _ value: JSON) {
      members.append(Member(key: key, value: value))
      if members.count <= Self.linearLimit { return }
      if var existing = table {
        table = nil
        if isKnownUniquelyReferenced(&existing) {
          existing.insert(key, at: members.count - 1, in: members)
        } else {
          existing = KeyTable.make()
        }
        table = existing
      } else {
        table = KeyTable.make()
      }
    }

    /// Reserves room for `capacity` members.
    mutating func reserveCapacity(_ capacity: Int) {
      members.reserveCapacity(capacity)
    }
  }
}

extension Array {
  /// Removes the `count` elements whose positions `removed` marks, keeping the others in
  /// order: one pass, where removing them one at a time moves the later elements each time.
  mutating func removeAll(marked removed: [Bool], count removedCount: Int) {
    var kept: [Element] = []
    kept.reserveCapacity(count - removedCount)
    for position in indices where !removed[position] { kept.append(self[position]) }
    self = kept
  }
}

extension JSON.Object: Sequence {
  /// Iterates over the members as `(key, value)` pairs in document order.
  public func makeIterator() -> Iterator { Iterator(members: members.makeIterator()) }

  /// Yields each member as a `(key:, value:)` pair.
  public struct Iterator: IteratorProtocol {
    var members: IndexingIterator<[Member]>
    /// The next member, or `nil` after the last.
    public mutating func next() -> (key: String, value: JSON)? {
      members.next().map { (key: $0.key, value: $0.value) }
    }
  }

  /// The number of members.
  public var underestimatedCount: Int { count }
}

extension JSON.Object: Equatable {
  /// Objects are equal when they have the same keys with equal values, in any order.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    JSON.object(lhs) == JSON.object(rhs)
  }
}

extension JSON.Object: Hashable {
  /// Hashes the members whatever their order, consistently with `==`.
  public func hash(into hasher: inout Hasher) { JSON.object(self).hash(into: &hasher) }
}

extension JSON.Object: ExpressibleByDictionaryLiteral {
  /// An object literal; a repeated key keeps its last value.
  public init(dictionaryLiteral elements: (String, JSON)...) {
    self.init(elements)
  }
}

/// The hash table of a large object's keys, built on the first lookup. Objects share it
/// between copies: the first lookup builds the table and publishes it in the word this
/// buffer holds (racing first lookups may each build one; the first published is kept), and
/// later lookups read it with one load, no lock. A mutation that finds the table shared
/// replaces it. One allocation, and no generic type to look up when an object is made.
final class KeyTable: ManagedBuffer<Void, UInt> {
  /// A table with nothing built yet.
  static func make() -> KeyTable {
    let table = unsafeDowncast(create(minimumCapacity: 1) { _ in }, to: KeyTable.self)
    table.withUnsafeMutablePointerToElements { $0.initialize(to: 0) }
    return table
  }

  deinit { withUnsafeMutablePointerToElements { AtomicObject<BuiltKeys>.release($0) } }

  func index(of key: String, in members: [JSON.Object.Member]) -> Int? {
    built(members).index.position(of: key) { members[$0].key }
  }

  /// Forgets `key`, at `position`, and moves later positions down, when the table has been
  /// built; `false` when it cannot (``KeyIndex/remove(_:at:)``), and the table must be built
  /// again. Only for a table no other object shares, as ``insert(_:at:in:)``.
  func remove(_ key: String, at position: Int) -> Bool {
    let built = withUnsafeMutablePointerToElements { AtomicObject<BuiltKeys>.load($0) }
    return built?.index.remove(key, at: position) ?? true
  }

  /// Records a new key, when the table has been built. Only for a table no other object
  /// shares (``JSON/Object`` checks), so no lookup runs beside it.
  func insert(_ key: String, at position: Int, in members: [JSON.Object.Member]) {
    let built = withUnsafeMutablePointerToElements { AtomicObject<BuiltKeys>.load($0) }
    _ = built?.index.position(of: key, orInsert: position) { members[$0].key }
  }

  private func built(_ members: [JSON.Object.Member]) -> BuiltKeys {
    withUnsafeMutablePointerToElements { word in
      if let built = AtomicObject<BuiltKeys>.load(word) { return built }
      var index = KeyIndex(capacity: members.count)
      for position in members.indices {
        _ = index.position(of: members[position].key, orInsert: position) { members[$0].key }
      }
      return AtomicObject.storeIfNil(BuiltKeys(index), in: word)
    }
  }
}

/// A built ``KeyIndex``, published by a ``KeyTable``.
final class BuiltKeys: @unchecked Sendable {  // changed only by its table's sole owner
  var index: KeyIndex
  init(_ index: KeyIndex) { self.index = index }
}

extension JSON {
  /// Whether two keys are the same key: the same UTF-8 bytes (JSON's rule), which is
  /// stricter than `==` on `String` (canonical equivalence).
  @inline(__always)
  static func sameKey(_ a: String, _ b: String) -> Bool {
    // The same representation is the same bytes: a small string's bits are its bytes, a
    // large one's point to shared storage (keys made by one parse share theirs). Only where
    // a `String` is two words: on 32-bit systems (watchOS on arm64_32) it is not, and the
    // cast would trap.
    if MemoryLayout<String>.size == MemoryLayout<(UInt64, UInt64)>.size,
      unsafeBitCast(a, to: (UInt64, UInt64).self) == unsafeBitCast(b, to: (UInt64, UInt64).self)
    {
      return true
    }
    // Keys of different lengths, the usual case of two keys, without a call (a small
    // string's count is in its bits, a native one's in its header).
    guard a.utf8.count == b.utf8.count else { return false }
    return sameBytes(a, b)
  }

  /// ``sameKey(_:_:)`` for two representations: their UTF-8 bytes compared.
  @inline(never)
  private static func sameBytes(_ a: String, _ b: String) -> Bool {
    let a = a.utf8
    let b = b.utf8
    guard a.count == b.count else { return false }
    let compared = a.withContiguousStorageIfAvailable { left in
      b.withContiguousStorageIfAvailable { right in
        guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else {
          return true  // both empty
        }
        return memcmp(leftBase, rightBase, left.count) == 0
      }
    }
    if let compared, let compared { return compared }
    return a.elementsEqual(b)
  }
}
