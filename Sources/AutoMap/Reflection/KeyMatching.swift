/// How `.caseInsensitive` compares keys, on every path: byte by byte over UTF-8, with ASCII
/// letters folded to lowercase and every other byte compared exactly (`"Straße"` matches
/// `"STRAßE"` but not `"STRASSE"`; `"É"` does not match `"é"`). When several members match,
/// the last one wins, as with repeated keys.
enum KeyMatching {
  @inline(__always)
  static func foldASCII(_ byte: UInt8) -> UInt8 {
    byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
  }

  static func equalFoldingASCII<A: Sequence<UInt8>, B: Sequence<UInt8>>(_ a: A, _ b: B) -> Bool {
    a.elementsEqual(b) { foldASCII($0) == foldASCII($1) }
  }

  /// The key with its ASCII letters folded, for telling whether two keys can collide.
  static func folded(_ key: [UInt8]) -> [UInt8] { key.map(foldASCII) }
}
