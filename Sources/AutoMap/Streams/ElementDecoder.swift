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
/// Invariant: `slot` holds a value after a call that succeeded, until ``take()`` or
/// ``discard()``; otherwise it is uninitialized (a codec's `readBytes` leaves its destination
/// uninitialized when it throws). Results are left in `slot` rather than returned: this code
/// is not specialized for `T`, and returning a `T` in a tuple or an optional would look up
/// that type's metadata at every element.
final class ElementDecoder<T: JSONDecodable> {
  private let codec = CodecCache.decoder(for: T.self)
  private let slot = UnsafeMutablePointer<T>.allocate(capacity: 1)
  /// The reader of ``decodePrefix(_:depth:)``, pointed at each element in turn: what it
  /// keeps between values (spare `Decoder` roots, scratch) is kept between elements too. In
  /// memory of its own, so that reading through it needs no exclusivity check. Its parser
  /// stacks serve ``decode(_:)`` too: reused while reads succeed, replaced after a failure,
  /// which may leave values on them.
  private let prefixReader = UnsafeMutablePointer<JSONReader>.allocate(capacity: 1)

  init() { prefixReader.initialize(to: ByteDecoding.placeholder) }

  deinit {
    slot.deallocate()
    prefixReader.deinitialize(count: 1)
    prefixReader.deallocate()
  }

  /// Whether the byte path may run: not before reflection has been seen for a model (a first
  /// use goes through `JSON` and a possibly hand-written `init(decode:)`).
  /// Nor while substitutions are recorded (they are recorded on the `JSON` path).
  private var isFast: Bool { (codec.model?.isReflected ?? true) && !Substitutions.isRecording }

  /// The value ``decode(_:)`` or ``decodePrefix(_:depth:)`` left in the slot.
  func take() -> T { slot.move() }

  /// Drops the value left in the slot.
  func discard() { slot.deinitialize(count: 1) }

  /// What `T(jsonData: bytes)` returns or throws; the value is left in the slot.
  func decode(_ bytes: UnsafeRawBufferPointer) throws {
    guard isFast else {
      return slot.initialize(to: try ModelDecoding.decode(T.self, fromBytes: bytes))
    }
    do {
      try JSONReader.withReader(bytes, stacks: prefixReader.pointee.stacks) { reader in
        let raw = UnsafeMutableRawPointer(slot)
        guard try reader.descend([][...], into: raw, codec) else {
          throw JSON.Error(.missingValue, "no value")
        }
        do { try reader.expectEnd() } catch {
          discard()
          throw error
        }
      }
    } catch {
      prefixReader.pointee.stacks = ParseStacks()
      slot.initialize(to: try ModelDecoding.decodeReference(T.self, fromBytes: bytes, at: []))
    }
  }

  /// How many bytes the value at the start of `bytes` took, when the fast path reads one
  /// there (the value is left in the slot); `nil` when it does not (the element is cut short by the buffer's end, does
  /// not map, is malformed, or the type's first use is still to come). `depth` is the
  /// nesting the value sits at: 1 in an array.
  func decodePrefix(_ bytes: UnsafeRawBufferPointer, depth: Int) -> Int? {
    guard isFast, let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
    prefixReader.pointee.rebase(base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
    prefixReader.pointee.depth = depth
    let raw = UnsafeMutableRawPointer(slot)
    do {
      try codec.readBytes(&prefixReader.pointee, raw)
    } catch {
      prefixReader.pointee.stacks = ParseStacks()
      return nil
    }
    return prefixReader.pointee.cursor - prefixReader.pointee.start
  }
}
