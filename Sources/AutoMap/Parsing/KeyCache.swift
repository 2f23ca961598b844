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
/// words (see ``words(_:_:)``), its length and its string. A lookup tries ``probes`` slots,
/// and an entry, once made, stays for the parse. A key is cached only when it has no escapes
/// and at most ``maximumLength`` bytes, and when 32 bytes can be read from its start without
/// leaving the input (so the words load without a bounds check); a key spelled with escapes
/// is always made afresh. Equal words and length mean equal bytes, so a hit is exactly the
/// key the text spells, and its bytes were validated as UTF-8 when the entry was made.
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
    let (word0, word1, word2, word3) = Self.words(UnsafeRawPointer(span.start), length)
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

  /// A key of `length` bytes (at most 32) at `start` as four words that together hold every
  /// byte of it and nothing else, so that equal words (and length) mean equal keys.
  ///
  /// From 8 bytes on, the words are loaded from within the key: its first 8 bytes, its last
  /// 8, and two words between that cover the rest (overlapping where the key is short). A
  /// shorter key is one word, its bytes past the key masked off (32 bytes are readable).
  @inline(__always)
  static func words(_ start: UnsafeRawPointer, _ length: Int) -> (UInt64, UInt64, UInt64, UInt64) {
    let first = start.loadUnaligned(as: UInt64.self)
    guard length >= 8 else {
      return (first & (UInt64.max >> (64 - 8 * length)), 0, 0, 0)  // a shift by 64 gives 0
    }
    return (
      first,
      start.loadUnaligned(fromByteOffset: min(8, length - 8), as: UInt64.self),
      start.loadUnaligned(fromByteOffset: max(length - 16, 0), as: UInt64.self),
      start.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
    )
  }
}
