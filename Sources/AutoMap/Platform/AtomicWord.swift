import CAutoMapShims

/// A word that threads share without a lock: loaded and stored atomically (``AtomicObject``
/// publishes an object in one with a compare-and-exchange).
///
/// The standard library's `Atomic` needs macOS 15 or iOS 18; these few operations are the
/// compiler's atomic builtins (in `CAutoMapShims`), the same instructions on every system
/// version, so there is nothing to choose at run time and no check on the paths that load a
/// model's plan. The word lives in its own allocation, which never moves.
///
/// ```swift
/// let word = AtomicWord()
/// word.storeReleasing(1)
/// if word.loadAcquiring() == 1 { … }
/// ```
struct AtomicWord: ~Copyable, @unchecked Sendable {
  /// Where the word is, for ``AtomicObject``.
  let word: UnsafeMutablePointer<UInt>

  init(_ value: UInt = 0) {
    word = .allocate(capacity: 1)
    word.initialize(to: value)
  }

  deinit { word.deallocate() }

  /// The value, and everything the thread that stored it with `storeReleasing` wrote before.
  @inline(__always)
  func loadAcquiring() -> UInt { automap_atomic_load_acquire(word) }

  /// The value, with no ordering of other memory.
  @inline(__always)
  func loadRelaxed() -> UInt { automap_atomic_load_relaxed(word) }

  @inline(__always)
  func storeReleasing(_ value: UInt) { automap_atomic_store_release(word, value) }

  @inline(__always)
  func storeRelaxed(_ value: UInt) { automap_atomic_store_relaxed(word, value) }
}

/// A feature some call in the process has used: a flag that starts clear and is set once,
/// read with no ordering (a hint checked before the slower, exact test). The flags share a
/// C global word, so a read is one load, with no once-token to check first: they are read
/// for every model and stream element.
///
/// ```swift
/// if !ProcessFlag.keyStyle.isSet { ProcessFlag.keyStyle.set() }
/// ```
enum ProcessFlag: UInt {
  /// Some call has bound a key style (``KeyStyleContext``).
  case keyStyle = 1
  /// Some call has bound a configuration (``ConfigurationContext``).
  case configuration = 2
  /// Some configuration has asked for a report (``Reporting``).
  case reporting = 4

  @inline(__always)
  var isSet: Bool { automap_process_flag_is_set(rawValue) }

  @inline(__always)
  func set() { automap_process_flag_set(rawValue) }
}

/// An object published once in a word, for every thread to read without a lock: the word is
/// 0 until an object is stored, then holds a retained reference to it, which ``release(_:)``
/// gives back when the word's owner goes away.
enum AtomicObject<Object: AnyObject> {
  /// The published object, if any: one acquiring load.
  @inline(__always)
  static func load(_ word: UnsafeMutablePointer<UInt>) -> Object? {
    unmanaged(word)?.takeUnretainedValue()
  }

  /// The object in `word`, if any, unmanaged (one acquiring load): to be read with no
  /// reference counting while what owns the word keeps it. Also for words that hold their
  /// object unretained.
  @inline(__always)
  static func unmanaged(_ word: UnsafeMutablePointer<UInt>) -> Unmanaged<Object>? {
    UnsafeRawPointer(bitPattern: automap_atomic_load_acquire(word)).map {
      Unmanaged<Object>.fromOpaque($0)
    }
  }

  /// Publishes `object` unless another thread published first; returns the one that won.
  static func storeIfNil(_ object: Object, in word: UnsafeMutablePointer<UInt>) -> Object {
    let retained = Unmanaged.passRetained(object)
    var original: UInt = 0
    if automap_atomic_compare_exchange(word, &original, UInt(bitPattern: retained.toOpaque())) {
      return object  // the word keeps the retain
    }
    retained.release()
    // The exchange fails only on a non-zero word: the object another thread published.
    guard let winner = UnsafeRawPointer(bitPattern: original) else { return object }
    return Unmanaged<Object>.fromOpaque(winner).takeUnretainedValue()
  }

  /// Takes the object out of `word`, leaving 0: the caller now has the word's reference
  /// (`nil` when the word holds none). Whatever the word holds is the word's, even an object
  /// at an address taken and given back meanwhile: the exchange hands over exactly that
  /// reference.
  static func take(_ word: UnsafeMutablePointer<UInt>) -> Unmanaged<Object>? {
    var current = automap_atomic_load_acquire(word)
    while let raw = UnsafeRawPointer(bitPattern: current) {
      if automap_atomic_compare_exchange(word, &current, 0) {
        return Unmanaged<Object>.fromOpaque(raw)
      }
    }
    return nil
  }

  /// Gives back the word's reference, when it holds one (its owner is going away).
  static func release(_ word: UnsafeMutablePointer<UInt>) {
    unmanaged(word)?.release()
  }
}

/// An object made by the first thread that asks for it, then read by every thread with one
/// acquiring load (racing first callers may each make one; the first stored is kept).
final class OnceSlot<Object: AnyObject>: Sendable {
  private let word = AtomicWord(0)

  init() {}

  @inline(__always)
  func get(_ make: () throws -> Object) rethrows -> Object {
    if let object = AtomicObject<Object>.load(word.word) { return object }
    return AtomicObject.storeIfNil(try make(), in: word.word)
  }

  /// Runs `body` with the object (made first if need be), with no reference counting once it
  /// is published: the slot keeps it until the slot goes away.
  @inline(__always)
  func with<R>(_ make: () throws -> Object, _ body: (Object) throws -> R) rethrows -> R {
    if let published = AtomicObject<Object>.unmanaged(word.word) {
      return try published._withUnsafeGuaranteedRef(body)
    }
    return try body(AtomicObject.storeIfNil(try make(), in: word.word))
  }

  deinit { AtomicObject<Object>.release(word.word) }
}

/// One spare object for any thread to take and give back: a thread that finds the slot empty
/// (another has the spare) makes its own, and an object given back to a full slot is let go.
///
/// ```swift
/// let memo = spares.take() ?? Memo()
/// …
/// spares.give(memo)
/// ```
final class SpareSlot<Object: AnyObject>: Sendable {
  private let word = AtomicWord(0)

  init() {}

  /// The spare, now the caller's alone; `nil` when the slot is empty.
  func take() -> Object? {
    AtomicObject<Object>.take(word.word)?.takeRetainedValue()
  }

  /// Keeps `object` as the spare, unless the slot has one.
  func give(_ object: Object) {
    _ = AtomicObject.storeIfNil(object, in: word.word)
  }

  deinit { AtomicObject<Object>.release(word.word) }
}
