import Synchronization

/// Guarded by the declaration's own `@available`.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class NewCounter: Sendable {
  private let count = Mutex(0)

  func increment() -> Int {
    count.withLock {
      $0 += 1; return $0
    }
  }
}

/// Guarded by an extension's `@available`.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension Int128 {
  var halved: Int128 { self / 2 }
}

/// Guarded by `if #available` and by `guard #available`.
func guardedUses() -> Int {
  if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
    let total = NewCounter().increment()
    return total + Mutex(1).withLock { $0 }
  }
  return viaGuard()
}

func viaGuard() -> Int {
  guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else {
    return 0
  }
  return Mutex(2).withLock { $0 } + Int(Int128(4).halved)
}

/// Older APIs need nothing: `&*` has been a protocol requirement only since macOS 15, but its
/// default implementation is older, and that is what older systems call.
func always(_ value: UInt64) -> UInt64 { value &* 3 }
