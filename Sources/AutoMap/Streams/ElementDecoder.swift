/// `T(jsonData:)` for the elements of a stream: the steps of
/// `ModelDecoding.decode(_:fromBytes:at:)`, with what that looks up on every call (the
/// type's codec, a slot for the value, the parser's stacks) made once per stream.
///
/// ``decode(_:)`` gives what `T(jsonData:)` gives for the same bytes, value or error: the
/// byte fast path, and when it fails for any reason the reference path through `JSON`.
/// ``decodePrefix(_:depth:)`` is that fast path alone on the bytes from an element's start to
/// the end of the buffer, which also tells where the element ends, so a stream need not scan
/// it first; on success its value is the one the fast path gives on the element's own bytes,
/// and anything else sends the stream back to scanning and ``decode(_:)``.
///
/// Elements that follow in the buffer may be decoded ahead (``decodeFollowing(sourceEnded:)``)
/// and handed out one by one, so that a stream of small elements runs as tight a loop as
/// `[T](jsonData:)` does.
///
/// Invariant: `slots[next..<stored]` hold values, the rest is uninitialized: a call that
/// succeeded leaves its value at `slots[next]` until ``take()`` or ``discard()``, and
/// elements decoded ahead follow it. (A codec's `readBytes` leaves its destination
/// uninitialized when it throws.) Results are left in slots rather than returned: this code
/// is not specialized for `T`, and returning a `T` in a tuple or an optional would look up
/// that type's metadata at every element.
final class ElementDecoder<T: JSONDecodable> {
  private let codec = CodecCache.decoder(for: T.self)
  /// How many elements one buffer's read may decode: the one asked for and those after it
  /// (Streams.md names the number).
  static var capacity: Int { 64 }
  private let slots = UnsafeMutablePointer<T>.allocate(capacity: capacity)
  /// Where each element decoded ahead ends, in the buffer.
  private let ends = UnsafeMutablePointer<UnsafePointer<UInt8>>.allocate(capacity: capacity)
  private var next = 0
  private var stored = 0
  /// The reader of ``decodePrefix(_:depth:)``, pointed at each element in turn: what it
  /// keeps between values (spare `Decoder` roots, scratch) is kept between elements too. In
  /// memory of its own, so that reading through it needs no exclusivity check. Its parser
  /// stacks serve ``decode(_:)`` too: reused while reads succeed, replaced after a failure,
  /// which may leave values on them.
  private let prefixReader = UnsafeMutablePointer<JSONReader>.allocate(capacity: 1)

  init() { prefixReader.initialize(to: ByteDecoding.placeholder) }

  deinit {
    discardAhead()
    slots.deallocate()
    ends.deallocate()
    prefixReader.deinitialize(count: 1)
    prefixReader.deallocate()
  }

  /// Whether the byte path may run: not before reflection has been seen for a model (a first
  /// use goes through `JSON` and a possibly hand-written `init(decode:)`).
  /// Nor while substitutions are recorded (they are recorded on the `JSON` path).
  private var isFast: Bool { (codec.model?.isReflected ?? true) && !Substitutions.isRecording }

  /// The next value: the one ``decode(_:)`` or ``decodePrefix(_:depth:)`` left, then each
  /// one decoded ahead.
  func take() -> T { takeSlot().move() }

  /// The slot of the next value, which the caller moves out at once (as ``take()`` does).
  @inline(__always)
  func takeSlot() -> UnsafeMutablePointer<T> {
    defer { next += 1 }
    return slots + next
  }

  /// Drops the value ``decodePrefix(_:depth:)`` left (before any was decoded ahead).
  func discard() {
    (slots + next).deinitialize(count: 1)
    stored = next
  }

  /// Where the next element decoded ahead ends, in the buffer; `nil` when there is none.
  @inline(__always)
  var nextAheadEnd: UnsafePointer<UInt8>? { next < stored ? ends[next] : nil }

  /// Drops the elements decoded ahead that were not taken.
  func discardAhead() {
    (slots + next).deinitialize(count: stored - next)
    (next, stored) = (0, 0)
  }

  /// The slot for a new value (any value still held is dropped).
  private func freshSlot() -> UnsafeMutableRawPointer {
    discardAhead()
    return UnsafeMutableRawPointer(slots)
  }

  /// What `T(jsonData: bytes)` returns or throws; the value is left in the slot.
  func decode(_ bytes: UnsafeRawBufferPointer) throws {
    let raw = freshSlot()
    guard isFast else {
      raw.initializeMemory(as: T.self, to: try ModelDecoding.decode(T.self, fromBytes: bytes))
      stored = 1
      return
    }
    do {
      try JSONReader.withReader(bytes, stacks: prefixReader.pointee.stacks) { reader in
        guard try reader.descend([][...], into: raw, codec) else {
          throw JSON.Error(.missingValue, "no value")
        }
        do { try reader.expectEnd() } catch {
          raw.assumingMemoryBound(to: T.self).deinitialize(count: 1)
          throw error
        }
      }
    } catch {
      prefixReader.pointee.stacks = ParseStacks()
      raw.initializeMemory(
        as: T.self, to: try ModelDecoding.decodeReference(T.self, fromBytes: bytes, at: []))
    }
    stored = 1
  }

  /// How many bytes the value at the start of `bytes` took, when the fast path reads one
  /// there (the value is left in the slot); `nil` when it does not (the element is cut short by the buffer's end, does
  /// not map, is malformed, or the type's first use is still to come). `depth` is the
  /// nesting the value sits at: 1 in an array.
  func decodePrefix(_ bytes: UnsafeRawBufferPointer, depth: Int) -> Int? {
    guard isFast, let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
    prefixReader.pointee.rebase(base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
    prefixReader.pointee.depth = depth
    let raw = freshSlot()
    do {
      try codec.readBytes(&prefixReader.pointee, raw)
    } catch {
      prefixReader.pointee.stacks = ParseStacks()
      return nil
    }
    stored = 1
    return prefixReader.pointee.cursor - prefixReader.pointee.start
  }

  /// After ``decodePrefix(_:depth:)`` read an array element (depth 1): decodes the elements that follow
  /// it in the buffer, each through that same fast path (the reader goes on from where the
  /// last one ended), up to ``capacity`` in all. Stops at the array's end, at the buffer's,
  /// at anything unusual (whitespace, then `,`, then whitespace, must come between), and at
  /// an element the fast path does not read; a number or literal that reaches the end of
  /// the buffer is dropped too (it may go on in the next read, `sourceEnded` unless). What
  /// was not decoded ahead is left to the stream, which reads it as before.
  func decodeFollowing(sourceEnded: Bool) {
    let reader = prefixReader
    // Loaded once: calling the codec's closure from the class would retain its context for
    // every element, an atomic operation that costs more than the rest of this loop.
    let read = codec.readBytes
    while stored < Self.capacity {
      guard reader.pointee.peekByte() == UInt8(ascii: ",") else { return }
      reader.pointee.cursor += 1
      guard let first = reader.pointee.peekByte(), first != UInt8(ascii: "]") else { return }
      reader.pointee.depth = 1
      let raw = UnsafeMutableRawPointer(slots + stored)
      do {
        try read(&reader.pointee, raw)
      } catch {
        reader.pointee.stacks = ParseStacks()
        return
      }
      let end = reader.pointee.cursor
      let isScalar =
        first != UInt8(ascii: "{") && first != UInt8(ascii: "[") && first != UInt8(ascii: "\"")
      if isScalar, end == reader.pointee.end, !sourceEnded {
        raw.assumingMemoryBound(to: T.self).deinitialize(count: 1)
        return
      }
      ends[stored] = end
      stored += 1
    }
  }
}
