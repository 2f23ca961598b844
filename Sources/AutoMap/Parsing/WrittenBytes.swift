/// The bytes a ``JSONWriter`` wrote: the text so far, its last bytes gathered in a small
/// buffer of their own and moved to the text together.
///
/// `Array.append(contentsOf:)` costs about 90 instructions a call, and encoding made several a
/// member (a key with its comma and colon, a number's digits, a short string), each through a
/// stack buffer: in callgrind, a tenth of an enum value's encode. Short writes go straight into
/// the buffer here, and reach the text in one append per buffer's worth.
///
/// (Not room kept past the text in the array itself: that room must be zeroed before it is
/// written, and zeroing twitter's 500 KB of output made its encode 11% slower in time while
/// callgrind counted fewer instructions.)
struct WrittenBytes {
  /// What was moved out of ``pending``.
  private var text: [UInt8] = []
  /// The bytes written since the last move to ``text``: its first ``pendingCount``.
  private var pending: [UInt8]
  private var pendingCount = 0

  /// The most a short write may ask for.
  static var pendingCapacity: Int { 256 }

  init(capacity: Int) {
    text.reserveCapacity(capacity)
    pending = Array(repeating: 0, count: Self.pendingCapacity)
  }

  /// How many bytes were written.
  var count: Int { text.count &+ pendingCount }

  /// Writes at most `limit` bytes (at most ``pendingCapacity``) in place with `body`, which
  /// returns how many it wrote.
  @inline(__always)
  mutating func write(
    atMost limit: Int, _ body: (UnsafeMutablePointer<UInt8>) throws -> Int
  ) rethrows {
    precondition(limit <= Self.pendingCapacity, "a short write asked for more room than there is")
    if Self.pendingCapacity &- pendingCount < limit { movePending() }
    let start = pendingCount
    let written = try pending.withUnsafeMutableBufferPointer {
      try body($0.baseAddress.unsafelyUnwrapped + start)
    }
    pendingCount = start &+ written
  }

  /// Moves the pending bytes to the text.
  @inline(never)
  private mutating func movePending() {
    let count = pendingCount
    pending.withUnsafeBufferPointer {
      text.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<count]))
    }
    pendingCount = 0
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
    guard count <= Self.pendingCapacity / 4 else {
      movePending()
      text.append(contentsOf: bytes)
      return
    }
    write(atMost: count) {
      UnsafeMutableRawPointer($0).copyMemory(from: source, byteCount: count)
      return count
    }
  }

  /// The byte at `position`, which was written (`position < count`).
  subscript(position: Int) -> UInt8 {
    position < text.count ? text[position] : pending[position - text.count]
  }

  /// Takes back every byte from `newCount` on.
  mutating func truncate(to newCount: Int) {
    if newCount >= text.count {
      pendingCount = newCount - text.count
    } else {
      text.removeSubrange(newCount...)
      pendingCount = 0
    }
  }

  /// The bytes written, as an array; the writer is left empty.
  mutating func take() -> [UInt8] {
    movePending()
    var taken: [UInt8] = []
    swap(&taken, &text)
    return taken
  }
}
