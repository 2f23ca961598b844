/// The one layer through which the engine puts values into raw memory and takes them out.
///
/// Codecs and plans handle values of types known only at run time, so they pass
/// `UnsafeMutableRawPointer`s around. Every initialization, move, replacement and
/// destruction of a value behind such a pointer goes through here, so the rules can be
/// read, and audited, in one place:
///
/// 1. An address is always sized and aligned for the type it is used as: it is a field of a
///    model at the offset the runtime reported for it (``RuntimeReflection``), an element of
///    a typed buffer, or a temporary allocated here for exactly that type. Debug builds
///    check the alignment on every call.
/// 2. `initialize` is only called on uninitialized memory, `replace` and `move` and
///    `destroy` only on initialized memory. Whoever owns an address tracks which state it
///    is in (``DecodeProgress`` for a model's fields, the codec's own locals elsewhere).
/// 3. A throwing producer leaves its destination uninitialized: nothing is half-written.
/// 4. Weak and unowned storage is never passed here (plans leave such fields out), and
///    neither is a `let` the optimizer may have folded (plans refuse it).
/// 5. `Optional` is a single-payload enum: its `.some` payload is stored unchanged at the
///    optional's own address (the tag lives in the payload's unused bit patterns or in a byte
///    after it). ``payload(ofSome:)`` is the one place that relies on it.
enum RawValue {
  @inline(__always)
  private static func checkAlignment<T>(_ address: UnsafeRawPointer, _: T.Type) {
    assert(
      Int(bitPattern: address) % MemoryLayout<T>.alignment == 0,
      "misaligned address for \(T.self)")
  }

  /// Initializes uninitialized memory at `address` with `value`.
  @inline(__always)
  static func initialize<T>(_ address: UnsafeMutableRawPointer, to value: consuming T) {
    checkAlignment(address, T.self)
    address.initializeMemory(as: T.self, to: value)
  }

  /// Replaces the initialized value at `address`, destroying the old one.
  @inline(__always)
  static func replace<T>(_ address: UnsafeMutableRawPointer, with value: consuming T) {
    checkAlignment(address, T.self)
    address.assumingMemoryBound(to: T.self).pointee = value
  }

  /// Initializes the memory at `address` (`initialize`) or replaces the value it holds.
  @inline(__always)
  static func put<T>(_ value: consuming T, at address: UnsafeMutableRawPointer, initialize: Bool) {
    if initialize {
      Self.initialize(address, to: value)
    } else {
      replace(address, with: value)
    }
  }

  /// Moves the value out, leaving the memory uninitialized.
  @inline(__always)
  static func move<T>(_ address: UnsafeMutableRawPointer, as _: T.Type) -> T {
    checkAlignment(address, T.self)
    return address.assumingMemoryBound(to: T.self).move()
  }

  /// A copy of the initialized value at `address`.
  @inline(__always)
  static func load<T>(_ address: UnsafeRawPointer, as _: T.Type) -> T {
    checkAlignment(address, T.self)
    return address.assumingMemoryBound(to: T.self).pointee
  }

  /// Runs `body` on the initialized value at `address`, read in place: not copied, so that
  /// an array's storage, say, is not retained and released around each write. (Passed as
  /// `inout`, the one way to hand on memory behind a pointer without a copy; `body` must not
  /// change it.)
  @inline(__always)
  static func withBorrowed<T, R>(
    _ address: UnsafeRawPointer, as _: T.Type, _ body: (inout T) throws -> R
  ) rethrows -> R {
    try withMutable(UnsafeMutableRawPointer(mutating: address), as: T.self, body)
  }

  /// Runs `body` on the initialized value at `address`, in place.
  @inline(__always)
  static func withMutable<T, R>(
    _ address: UnsafeMutableRawPointer, as _: T.Type, _ body: (inout T) throws -> R
  ) rethrows -> R {
    checkAlignment(address, T.self)
    return try body(&address.assumingMemoryBound(to: T.self).pointee)
  }

  /// Destroys the initialized value at `address`, leaving the memory uninitialized.
  @inline(__always)
  static func destroy<T>(_ address: UnsafeMutableRawPointer, as _: T.Type) {
    checkAlignment(address, T.self)
    address.assumingMemoryBound(to: T.self).deinitialize(count: 1)
  }

  /// Runs `body` with uninitialized memory for one `T`; `body` must leave it uninitialized
  /// (it moves out what it put in) or throw having put nothing in.
  @inline(__always)
  static func withTemporary<T, R>(
    _: T.Type, _ body: (UnsafeMutableRawPointer) throws -> R
  ) rethrows -> R {
    let temporary = UnsafeMutablePointer<T>.allocate(capacity: 1)
    defer { temporary.deallocate() }
    return try body(UnsafeMutableRawPointer(temporary))
  }

  /// Fills `T` in uninitialized memory through `fill` and returns it.
  @inline(__always)
  static func produce<T>(_: T.Type, _ fill: (UnsafeMutableRawPointer) throws -> Void) rethrows
    -> T
  {
    try withTemporary(T.self) { temporary in
      try fill(temporary)
      return move(temporary, as: T.self)
    }
  }

  /// The address of the wrapped value of an optional at `address` that holds `.some`: the
  /// same address (rule 5), read-only.
  @inline(__always)
  static func payload(ofSome address: UnsafeRawPointer) -> UnsafeRawPointer {
    address
  }

  /// Where a class instance's stored properties start: the object a reference at `address`
  /// points to (field offsets of classes count from the object's start).
  @inline(__always)
  static func objectBase(_ address: UnsafeRawPointer) -> UnsafeMutableRawPointer {
    address.load(as: UnsafeMutableRawPointer.self)
  }

  /// The dynamic class of the object a reference at `address` points to.
  @inline(__always)
  static func dynamicClass(_ address: UnsafeRawPointer) -> AnyClass {
    type(of: address.load(as: AnyObject.self))
  }

  /// Memory for one value of a type known by size and alignment only: a field's staging
  /// area. Free it with ``UnsafeMutableRawPointer/deallocate()`` once its value was moved
  /// out or destroyed.
  static func allocate(size: Int, alignment: Int) -> UnsafeMutableRawPointer {
    UnsafeMutableRawPointer.allocate(byteCount: max(size, 1), alignment: alignment)
  }

  /// Moves `size` bytes of an initialized value from `source` to uninitialized `target`,
  /// bitwise: Swift values are bitwise movable, and `source` is left uninitialized.
  static func moveBitwise(
    from source: UnsafeMutableRawPointer, to target: UnsafeMutableRawPointer, size: Int
  ) {
    target.copyMemory(from: source, byteCount: size)
  }

  /// Initializes uninitialized `target` with a copy of the optional at `source`, which
  /// holds `nil`, bitwise: `nil` has no payload, so its bytes are all of it (rule 5).
  static func copyNone(
    from source: UnsafeRawPointer, to target: UnsafeMutableRawPointer, size: Int
  ) {
    target.copyMemory(from: source, byteCount: size)
  }

  /// Swaps two initialized values of the same type, bitwise (for staged updates that may
  /// be rolled back).
  static func swapBitwise(_ a: UnsafeMutableRawPointer, _ b: UnsafeMutableRawPointer, size: Int) {
    withUnsafeTemporaryAllocation(byteCount: max(size, 1), alignment: 16) { scratch in
      guard let scratch = scratch.baseAddress else { return }
      scratch.copyMemory(from: a, byteCount: size)
      a.copyMemory(from: b, byteCount: size)
      b.copyMemory(from: scratch, byteCount: size)
    }
  }
}

/// Optionals of any wrapped type can be set to `nil` in raw memory: what `lazy` storage and
/// left-out optional properties of memberwise structs start as.
protocol NilInitializable {
  /// `nil`'s bytes, made once: a codec stores them with no lookup of the optional type's
  /// metadata, which unspecialized code naming `Wrapped?` pays on every call.
  static func noneBytes() -> NoneBytes
  /// Whether the optional at the address is `nil`.
  static func isNil(at address: UnsafeRawPointer) -> Bool
}

extension Optional: NilInitializable {
  static func noneBytes() -> NoneBytes { NoneBytes(Wrapped.self) }

  static func isNil(at address: UnsafeRawPointer) -> Bool {
    RawValue.load(address, as: Wrapped?.self) == nil
  }
}
