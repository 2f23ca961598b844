import Synchronization

extension JSON {
  /// The members of a JSON object, in document order.
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
  /// ```
  ///
  /// - Complexity: lookups are O(1) on average; small objects (up to 16 members) are
  ///   searched linearly, which is faster than hashing at that size.
  public struct Object: Sendable {
    /// Objects up to this size are searched linearly; larger ones build a hash table on
    /// their first lookup.
    static let linearLimit = 16

    public private(set) var keys: [String]
    public private(set) var values: [JSON]
    /// Present when `count > linearLimit`, filled on first use.
    private var table: KeyTable?

    /// An empty object.
    public init() {
      keys = []
      values = []
    }

    /// An object from members whose keys are known to be unique (the parser's).
    init(uniqueKeys keys: [String], values: [JSON]) {
      self.keys = keys
      self.values = values
      table = keys.count > Self.linearLimit ? KeyTable() : nil
    }

    /// An object with these members; a repeated key keeps its last value.
    public init<S: Sequence>(_ members: S) where S.Element == (String, JSON) {
      self.init()
      for (key, value) in members { self[key] = value }
    }

    /// The number of members.
    public var count: Int { keys.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { keys.isEmpty }

    /// The position of `key`, or `nil`.
    public func index(forKey key: String) -> Int? {
      if let table { return table.index(of: key, in: keys) }
      return keys.firstIndex(of: key)
    }

    /// The value for `key`, or `nil` when the key is absent. Setting `nil` removes the key.
    public subscript(key: String) -> JSON? {
      get { index(forKey: key).map { values[$0] } }
      set {
        if let newValue {
          if let position = index(forKey: key) {
            values[position] = newValue
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
      keys.remove(at: position)
      let value = values.remove(at: position)
      rebuildTable()
      return value
    }

    /// Appends a member whose key is known to be new.
    mutating func append(_ key: String, _ value: JSON) {
      keys.append(key)
      values.append(value)
      if keys.count <= Self.linearLimit { return }
      if var existing = table {
        table = nil
        if isKnownUniquelyReferenced(&existing) {
          existing.insert(key, at: keys.count - 1)
        } else {
          existing = KeyTable()
        }
        table = existing
      } else {
        table = KeyTable()
      }
    }

    /// Sets the value at a known position.
    mutating func setValue(_ value: JSON, at position: Int) {
      values[position] = value
    }

    private mutating func rebuildTable() {
      table = keys.count > Self.linearLimit ? KeyTable() : nil
    }

    /// Reserves room for `capacity` members.
    mutating func reserveCapacity(_ capacity: Int) {
      keys.reserveCapacity(capacity)
      values.reserveCapacity(capacity)
    }
  }
}

extension JSON.Object: Sequence {
  /// Iterates over the members as `(key, value)` pairs in document order.
  public func makeIterator() -> Zip2Sequence<[String], [JSON]>.Iterator {
    zip(keys, values).makeIterator()
  }

  public var underestimatedCount: Int { count }
}

extension JSON.Object: Equatable {
  /// Objects are equal when they have the same keys with equal values, in any order.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    guard lhs.count == rhs.count else { return false }
    if lhs.keys == rhs.keys { return lhs.values == rhs.values }
    for (key, value) in lhs {
      guard let other = rhs[key], other == value else { return false }
    }
    return true
  }
}

extension JSON.Object: Hashable {
  public func hash(into hasher: inout Hasher) {
    // Order-independent: combine the members' hashes commutatively.
    var sum = 0
    for (key, value) in self {
      var member = Hasher()
      member.combine(key)
      member.combine(value)
      sum &+= member.finalize()
    }
    hasher.combine(count)
    hasher.combine(sum)
  }
}

extension JSON.Object: ExpressibleByDictionaryLiteral {
  public init(dictionaryLiteral elements: (String, JSON)...) {
    self.init(elements)
  }
}

/// The hash table of a large object's keys, built on the first lookup. Objects share it
/// between copies, so it is built under a lock; a mutation that finds it shared replaces it.
final class KeyTable: Sendable {
  private let positions = Mutex<[String: Int]?>(nil)

  func index(of key: String, in keys: [String]) -> Int? {
    positions.withLock { table in
      if table == nil {
        var built = [String: Int](minimumCapacity: keys.count)
        for (position, key) in keys.enumerated() { built[key] = position }
        table = built
      }
      return table?[key]
    }
  }

  /// Records a new key, when the table has been built.
  func insert(_ key: String, at position: Int) {
    positions.withLock { table in table?[key] = position }
  }
}
