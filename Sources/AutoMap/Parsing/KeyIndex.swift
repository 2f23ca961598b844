/// The positions of a large object's keys, to find a key in constant time: an
/// open-addressing hash table over the keys' UTF-8 bytes, used while an object is parsed (for
/// repeated keys) and by `JSON.Object` lookups. Keys are the same when their bytes are.
///
/// Swift's `Dictionary<String, Int>` spends most of its time seeding and finalizing a
/// SipHash per key; this table hashes eight bytes at a time with a multiply-mix, seeded once
/// per process at random so that crafted keys cannot be made to collide on purpose.
///
/// Invariants: `slots.count` is a power of two and at least twice `count`; a slot holds 0
/// (empty) or `tag << 32 | (position + 1)`, where `tag`, the upper half of the key's hash,
/// is also where probing for the key starts.
struct KeyIndex {
  /// The seed of every key hash in the process (also ``CaseKeys``'s).
  static let processSeed = UInt64.random(in: .min ... .max)

  private var slots: [UInt64]
  private var mask: Int
  private var count = 0
  /// Whether a key was offered again for insertion: then the object it indexes may hold the
  /// key twice (an object built by code that trusted its keys to be new), and only the first
  /// position is stored.
  private var sawRepeat = false
  /// The process's seed, copied so that hashing a key does not check a global's lazy
  /// initialization.
  private let seed = Self.processSeed

  init(capacity: Int) {
    var size = 16
    while size < capacity * 2 { size <<= 1 }
    slots = Array(repeating: 0, count: size)
    mask = size - 1
  }

  /// The position stored for `key`, whose members are checked with `keyAt`; or `nil`, after
  /// which `insert` records `position` for it.
  @inline(__always)
  mutating func position(
    of key: String, orInsert position: Int, keyAt: (Int) -> String
  ) -> Int? {
    insert(key, tag: tag(of: key), orInsert: position, keyAt: keyAt)
  }

  /// As ``position(of:orInsert:keyAt:)``, for a key whose UTF-8 bytes the caller has at hand
  /// (the parser's input): hashing them directly spares a small string spilling its bytes.
  @inline(__always)
  mutating func position(
    of key: String, utf8: UnsafeBufferPointer<UInt8>, orInsert position: Int,
    keyAt: (Int) -> String
  ) -> Int? {
    insert(key, tag: hash(utf8) >> 32, orInsert: position, keyAt: keyAt)
  }

  /// The insertion both `position(of:orInsert:keyAt:)` share, for a key whose tag is known.
  @inline(__always)
  private mutating func insert(
    _ key: String, tag: UInt64, orInsert position: Int, keyAt: (Int) -> String
  ) -> Int? {
    let probe = find(key, tag: tag, keyAt: keyAt)
    if let stored = probe.stored {
      sawRepeat = true
      return stored
    }
    slots[probe.slot] = tag << 32 | UInt64(position + 1)
    count += 1
    if count * 2 > slots.count { grow() }
    return nil
  }

  /// The position stored for `key`, whose members are checked with `keyAt`; `nil` when it
  /// is not there.
  func position(of key: String, keyAt: (Int) -> String) -> Int? {
    find(key, tag: tag(of: key), keyAt: keyAt).stored
  }

  /// The upper half of a key's hash, from the string's UTF-8.
  @inline(__always)
  private func tag(of key: String) -> UInt64 {
    var key = key
    return key.withUTF8 { hash($0) } >> 32
  }

  /// Probes for `key`, whose hash's upper half is `tag` (also where probing starts, so that
  /// growing needs no key): its stored position, or the empty slot where it belongs.
  @inline(__always)
  private func find(_ key: String, tag: UInt64, keyAt: (Int) -> String) -> (
    stored: Int?, slot: Int
  ) {
    var slot = Int(truncatingIfNeeded: tag) & mask
    while true {
      let entry = slots[slot]
      if entry == 0 { return (nil, slot) }
      if entry >> 32 == tag {
        let stored = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1
        if JSON.sameKey(keyAt(stored), key) { return (stored, slot) }
      }
      slot = (slot + 1) & mask
    }
  }

  /// Forgets `key`, stored at `position`, and moves every later position down by one: for
  /// an object whose member at `position` was removed. One pass over the slots, no key hashed
  /// but this one (rebuilding the table would hash every key). `false`, changing nothing,
  /// when the table cannot say where the key's other members are (it saw a key twice) or
  /// does not hold the key at `position`: the caller builds the table again.
  mutating func remove(_ key: String, at position: Int) -> Bool {
    guard !sawRepeat else { return false }
    let tag = tag(of: key)
    let entry = tag << 32 | UInt64(position + 1)
    var hole = Int(truncatingIfNeeded: tag) & mask
    while slots[hole] != entry {
      guard slots[hole] != 0 else { return false }
      hole = (hole + 1) & mask
    }
    // Backward-shift deletion: each entry after the hole, up to an empty slot, moves into it
    // when the hole lies between the entry's home slot and the entry, so that probing from
    // its home still reaches it.
    var next = (hole + 1) & mask
    while slots[next] != 0 {
      let home = Int(truncatingIfNeeded: slots[next] >> 32) & mask
      if (next &- home) & mask >= (next &- hole) & mask {
        slots[hole] = slots[next]
        hole = next
      }
      next = (next + 1) & mask
    }
    slots[hole] = 0
    count -= 1
    let removed = UInt64(position + 1)
    slots.withUnsafeMutableBufferPointer { slots in
      for index in slots.indices {  // without a branch, so that the loop vectorizes
        let slot = slots[index]
        slots[index] = slot &- (slot & 0xFFFF_FFFF > removed ? 1 : 0)
      }
    }
    return true
  }

  private mutating func grow() {
    let old = slots
    slots = Array(repeating: 0, count: old.count * 2)
    mask = slots.count - 1
    for entry in old where entry != 0 {
      var slot = Int(truncatingIfNeeded: entry >> 32) & mask
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = entry
    }
  }

  /// The hash of a key's UTF-8 bytes.
  @inline(__always)
  private func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 { Self.hash(bytes, seed: seed) }

  /// The hash of a key's UTF-8 bytes from `seed`, eight bytes at a time.
  @inline(__always)
  static func hash(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64) -> UInt64 {
    var hash = seed ^ (UInt64(truncatingIfNeeded: bytes.count) &* 0x9E37_79B9_7F4A_7C15)
    guard let base = bytes.baseAddress else { return Self.mix(hash) }
    var offset = 0
    while offset + 8 <= bytes.count {
      let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
      hash = Self.mix(hash ^ word)
      offset += 8
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    while offset < bytes.count {
      tail |= UInt64(base[offset]) << shift
      shift += 8
      offset += 1
    }
    return Self.mix(hash ^ tail)
  }

  @inline(__always)
  private static func mix(_ value: UInt64) -> UInt64 {
    var value = value &* 0xBF58_476D_1CE4_E5B9
    value ^= value >> 31
    value &*= 0x94D0_49BB_1331_11EB
    value ^= value >> 29
    return value
  }
}
