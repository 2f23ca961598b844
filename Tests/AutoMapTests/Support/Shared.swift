import Foundation

/// A value that test tasks share, read and changed under an `NSLock`: the standard library's
/// `Mutex` and `Atomic` need macOS 15 and iOS 18, above the package's minimums.
final class Shared<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }

  /// The value now.
  var current: Value { withLock { $0 } }
}

/// A list that threads and tasks append to.
final class LockedList<Element: Sendable>: Sendable {
  private let items = Shared<[Element]>([])

  func append(_ item: Element) { items.withLock { $0.append(item) } }

  var elements: [Element] { items.current }
}
