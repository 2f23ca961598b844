import Synchronization

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A value that threads share, read and changed only under a lock.
///
/// It is the standard library's `Mutex` where the system has it (macOS 15, iOS 18, tvOS 18,
/// watchOS 11, visionOS 2, and every Linux), and on older Apple systems an `os_unfair_lock`
/// (what `Mutex` itself uses there) beside the value; on other systems without `Mutex`, a
/// `pthread_mutex_t`. Building with `-Xswiftc -DAUTOMAP_FALLBACKS` takes the fallback
/// everywhere, so that it is tested on Linux too (`.ci/run` does).
///
/// ```swift
/// private static let cache = Locked<[ObjectIdentifier: Codec]>([:])
/// let codec = cache.withLock { $0[key] }
/// ```
///
/// The choice is made once, when the value is created, and checked again (one comparison the
/// system caches; none on Linux, where `Mutex` always exists) at each use.
struct Locked<State: Sendable>: Sendable {
  /// A `MutexBox<State>` or a `FallbackLockBox<State>`: a stored property's type cannot
  /// depend on the system version, an object's can.
  private let box: any AnyObject & Sendable

  init(_ initial: State) {
    #if !AUTOMAP_FALLBACKS
      if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
        box = MutexBox(initial)
        return
      }
    #endif
    box = FallbackLockBox(initial)
  }

  /// Which lock this is: `"Mutex"`, or the fallback's name.
  var implementation: String {
    box is FallbackLockBox<State> ? FallbackLockBox<State>.name : "Mutex"
  }

  /// Runs `body` with the value, under the lock, and returns what it returns.
  @inline(__always)
  func withLock<R, E: Error>(_ body: (inout State) throws(E) -> R) throws(E) -> R {
    #if !AUTOMAP_FALLBACKS
      if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
        return try unsafeDowncast(box, to: MutexBox<State>.self).withLock(body)
      }
    #endif
    return try unsafeDowncast(box, to: FallbackLockBox<State>.self).withLock(body)
  }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
private final class MutexBox<State: Sendable>: Sendable {
  let mutex: Mutex<State>

  init(_ initial: State) { mutex = Mutex(initial) }

  @inline(__always)
  func withLock<R, E: Error>(_ body: (inout State) throws(E) -> R) throws(E) -> R {
    // The value never leaves the lock but through `body`, as with the fallback.
    nonisolated(unsafe) var result: R?
    try mutex.withLock { (state: inout sending State) throws(E) -> Void in
      result = try body(&state)
    }
    return result.unsafelyUnwrapped
  }
}

/// The lock of the systems without `Mutex`, beside the value it guards. The lock lives in its
/// own allocation: a lock must not move, and a Swift property has no fixed address.
private final class FallbackLockBox<State: Sendable>: @unchecked Sendable {
  #if canImport(Darwin)
    static var name: String { "os_unfair_lock" }
  #else
    static var name: String { "pthread_mutex" }
  #endif
  private let lock = UnsafeMutablePointer<PlatformLock>.allocate(capacity: 1)
  private var state: State

  init(_ initial: State) {
    state = initial
    lock.initializeLock()
  }

  deinit {
    lock.destroyLock()
    lock.deallocate()
  }

  @inline(__always)
  func withLock<R, E: Error>(_ body: (inout State) throws(E) -> R) throws(E) -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body(&state)
  }
}

#if canImport(Darwin)
  typealias PlatformLock = os_unfair_lock

  extension UnsafeMutablePointer where Pointee == os_unfair_lock {
    func initializeLock() { initialize(to: os_unfair_lock()) }
    func destroyLock() { deinitialize(count: 1) }
    func lock() { os_unfair_lock_lock(self) }
    func unlock() { os_unfair_lock_unlock(self) }
  }
#else
  typealias PlatformLock = pthread_mutex_t

  extension UnsafeMutablePointer where Pointee == pthread_mutex_t {
    // The default attributes: a plain mutex, like `Mutex`. These calls fail only for a lock
    // used wrongly (never initialized, destroyed while held), which this file never does.
    func initializeLock() { pthread_mutex_init(self, nil) }
    func destroyLock() { pthread_mutex_destroy(self) }
    func lock() { pthread_mutex_lock(self) }
    func unlock() { pthread_mutex_unlock(self) }
  }
#endif
