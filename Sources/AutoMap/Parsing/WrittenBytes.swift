/// The bytes a ``JSONWriter`` wrote, in an array longer than the text: the room past ``count``
/// is written in place.
///
/// `Array.append(contentsOf:)` costs about 90 instructions a call, and encoding made several a
/// member (a key with its comma and colon, a number's digits from a stack buffer, a short
/// string): in callgrind, a tenth of an enum value's encode. Here a write of a few bytes checks
/// the room once and stores them where they go.
struct WrittenBytes {
  /// The text, then room: bytes past `count` are not part of it. The room is zeros, made as
  /// needed (at least doubling) within the capacity reserved, so that a short text costs no
  /// zeroing of the whole capacity.
  private var storage: [UInt8] = []
  /// How many bytes were written.
  private(set) var count = 0

  init(capacity: Int) {
    storage.reserveCapacity(capacity)
  }

  /// Writes at most `limit` bytes in place with `body`, which returns how many it wrote.
  @inline(__always)
  mutating func write(
    atMost limit: Int, _ body: (UnsafeMutablePointer<UInt8>) throws -> Int
  ) rethrows {
    if storage.count &- count < limit { grow(limit) }
    let start = count
    let written = try storage.withUnsafeMutableBufferPointer {
      try body($0.baseAddress.unsafelyUnwrapped + start)
    }
    count = start &+ written
  }

  /// Makes room for `extra` more bytes, at least doubling the bytes stored.
  @inline(never)
  private mutating func grow(_ extra: Int) {
    storage.append(contentsOf: repeatElement(0, count: Swift.max(storage.count, extra, 64)))
  }

  @inline(__always)
  mutating func append(_ byte: UInt8) {
    write(atMost: 1) {
      $0.pointee = byte
      return 1
    }
  }

  @inline(__always)
  mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress else { return }
    let count = bytes.count
    write(atMost: count) {
      UnsafeMutableRawPointer($0).copyMemory(from: source, byteCount: count)
      return count
    }
  }

  @inline(__always)
  mutating func append(contentsOf bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { append(contentsOf: $0) }
  }

  /// The byte at `position`, which was written (`position < count`).
  subscript(position: Int) -> UInt8 {
    precondition(position < count, "a byte not written")
    return storage[position]
  }

  /// Takes back every byte from `newCount` on.
  mutating func truncate(to newCount: Int) {
    precondition(newCount <= count, "more bytes than were written")
    count = newCount
  }

  /// The bytes written, as an array (its room left as capacity); the writer is left empty.
  mutating func take() -> [UInt8] {
    var taken: [UInt8] = []
    swap(&taken, &storage)
    taken.removeSubrange(count...)
    count = 0
    return taken
  }
}
