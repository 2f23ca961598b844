/// The `String`s of the object keys one parse has already made, so that a key seen again is
/// a table lookup instead of a new string.
///
/// Documents repeat their keys: twitter.json has 13 345 keys but only 94 distinct ones, and
/// a third of them are longer than a small string holds, so each would otherwise cost a
/// UTF-8 validation, an allocation and a copy. Here a repeated key costs loading its bytes
/// as four words and comparing them with one table slot; a hit hands out the stored string
/// (a retain, or nothing for a small string).
///
/// Design: an open-addressed table of ``slots`` entries, each the key's bytes as four
/// zero-padded words, its length and its string; a lookup tries ``probes`` slots and an
/// entry, once made, stays for the parse. A key is cached only when it
/// has no escapes and at most ``maximumLength`` bytes, and when 32 bytes can be read from
/// its start without leaving the input (so the words load without a bounds check per
/// byte); a key spelled with escapes is always made afresh. Equal words and length mean
/// equal bytes, so a hit is exactly the key the text spells: bytes that the cache holds
/// were validated as UTF-8 when the entry was made.
///
/// The table is allocated only once a parse has made ``warmUp`` keys, so parsing a small
/// document costs nothing extra.
final class KeyCache {
  static let slots = 256
  static let maximumLength = 32
  static let warmUp = 32
  /// How many slots a lookup tries, from the one the key hashes to.
  static let probes = 4
  private static let empty = UInt64.max
  /// How many keys may find no room before the table is dropped.
  static let giveUp = 1024
  /// Words per slot in `bytes`: the key's four words, then its length (all ones when empty).
  private static let stride = 5

  /// Each slot's key bytes and length, `stride` words per slot; `nil` until warmed up.
  private var bytes: UnsafeMutablePointer<UInt64>? = nil
  /// Each slot's string.
  private var strings: UnsafeMutablePointer<String>? = nil
  private var made = 0
  private var unplaced = 0

  deinit { release() }

  /// The key `span` spells: from the table when it holds those bytes, else made by `make`
  /// and remembered. `end` is the end of the input.
  @inline(__always)
  func key(
    for span: StringSpan, inputEnd end: UnsafePointer<UInt8>,
    make: (StringSpan) throws -> String
  ) rethrows -> String {
    let length = span.count
    guard let bytes, let strings, !span.hasEscapes, length <= Self.maximumLength,
      end - span.start >= Self.maximumLength
    else { return try makeKey(span, make) }
    let raw = UnsafeRawPointer(span.start)
    let word0 = raw.loadUnaligned(as: UInt64.self) & Self.mask(length, word: 0)
    let word1 = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self) & Self.mask(length, word: 1)
    let word2 = raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self) & Self.mask(length, word: 2)
    let word3 = raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self) & Self.mask(length, word: 3)
    var hash = word0 ^ (word1 &* 0x9E37_79B9_7F4A_7C15)
    hash ^= (word2 &* 0xC2B2_AE3D_27D4_EB4F) ^ (word3 &* 0x1656_67B1_9E37_79F9)
    hash = (hash &+ UInt64(truncatingIfNeeded: length)) &* 0xFF51_AFD7_ED55_8CCD
    // Linear probing over a short window; keys are never evicted, so a document with more
    // distinct keys than the table holds caches the first ones and makes the rest.
    var slot = Int(truncatingIfNeeded: hash >> 56)
    let tag = UInt64(truncatingIfNeeded: length)
    for _ in 0..<Self.probes {
      let entry = bytes + slot &* Self.stride
      if entry[4] == tag, entry[0] == word0, entry[1] == word1, entry[2] == word2,
        entry[3] == word3
      {
        return strings[slot]
      }
      if entry[4] == Self.empty {
        let key = try make(span)
        entry[0] = word0
        entry[1] = word1
        entry[2] = word2
        entry[3] = word3
        entry[4] = tag
        strings[slot] = key
        return key
      }
      slot = (slot + 1) & (Self.slots - 1)
    }
    return try makeUncached(span, make)
  }

  /// Makes a key the full table has no room for; after ``giveUp`` of them the table is
  /// dropped, so that a document of ever new keys pays for its lookups only so long.
  @inline(never)
  private func makeUncached(_ span: StringSpan, _ make: (StringSpan) throws -> String) rethrows
    -> String
  {
    unplaced += 1
    if unplaced == Self.giveUp { release() }
    return try make(span)
  }

  private func release() {
    if let bytes, let strings {
      strings.deinitialize(count: Self.slots)
      strings.deallocate()
      bytes.deallocate()
    }
    bytes = nil
    strings = nil
  }

  /// Makes a key without the table, and allocates the table once enough keys were made.
  @inline(never)
  private func makeKey(_ span: StringSpan, _ make: (StringSpan) throws -> String) rethrows
    -> String
  {
    made += 1
    if made == Self.warmUp, bytes == nil {
      let table = UnsafeMutablePointer<UInt64>.allocate(capacity: Self.slots * Self.stride)
      table.initialize(repeating: Self.empty, count: Self.slots * Self.stride)
      let keys = UnsafeMutablePointer<String>.allocate(capacity: Self.slots)
      keys.initialize(repeating: "", count: Self.slots)
      bytes = table
      strings = keys
    }
    return try make(span)
  }

  /// The mask that keeps the bytes of word `word` (0 to 3) that belong to a key of `length`
  /// bytes: all of them, some low ones, or none.
  @inline(__always)
  static func mask(_ length: Int, word: Int) -> UInt64 {
    let bytes = min(max(length - 8 * word, 0), 8)
    return UInt64.max >> (64 - 8 * bytes)  // a shift by 64 gives 0
  }
}
