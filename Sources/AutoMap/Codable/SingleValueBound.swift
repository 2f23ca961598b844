/// A byte coder's session, whose values nested in one another's single-value containers (a
/// `Codable` wrapper of a wrapper, or a cycle through them) are no levels of the document, so
/// the reader's or writer's depth does not bound them: they are bounded here.
protocol SingleValueBounded: AnyObject {
  /// How many values are inside one another's single-value containers along the current chain.
  var wrapping: Int { get set }
}

extension SingleValueBounded {
  /// Runs `body` one single value deeper. Past the bound, or with the thread's stack running
  /// low (each single value is a few frames of `init(from:)` or `encode(to:)` and the
  /// container's), it throws `giveUp`, which leaves the value to the reference: it counts
  /// single values at each place, and checks the stack at every value.
  @inline(__always)
  func insideSingleValue<R>(
    orGiveUp giveUp: @autoclosure () -> any Error, _ body: () throws -> R
  ) throws -> R {
    guard wrapping < JSON.maximumDepth, !Nesting.stackIsLow else { throw giveUp() }
    wrapping += 1
    defer { wrapping -= 1 }
    return try body()
  }
}
