import Synchronization

/// The mistake the audit exists for: a `Mutex` (macOS 15, iOS 18) in a package whose
/// minimum is macOS 13. On Linux this builds; on a Mac it would not.
final class Counter: Sendable {
  private let count = Mutex(0)  // audit: flagged

  func increment() -> Int {
    count.withLock {  // audit: flagged
      $0 += 1
      return $0
    }
  }
}

/// `#available` that names too old a version guards nothing.
func tooLow() -> Int {
  if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *) {
    return Mutex(1).withLock { $0 }  // audit: flagged
  }
  return 1
}
