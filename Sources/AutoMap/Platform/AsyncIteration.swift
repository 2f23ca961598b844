extension AsyncIteratorProtocol {
  /// The next element, read on the caller's actor.
  ///
  /// `next(isolation:)` where the system has it (macOS 15, iOS 18, and every Linux); on older
  /// systems (or built with `-DAUTOMAP_FALLBACKS`), `next()`, which leaves the caller's actor
  /// for the read. A stream reads its source from one task at a time, so the iterator is
  /// never used from two places at once.
  mutating func nextElement(isolation actor: isolated (any Actor)?) async throws -> Element? {
    #if !AUTOMAP_FALLBACKS
      if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
        return try await next(isolation: actor)
      }
    #endif
    // `next()` runs off the caller's actor: the iterator crosses over and back, which the
    // compiler cannot prove safe, and which is, with one reader at a time.
    nonisolated(unsafe) var iterator = self
    defer { self = iterator }
    return try await iterator.next()
  }
}

/// What `nextElement(isolation:)` calls on this system and build (for tests).
var nextElementImplementation: String {
  #if !AUTOMAP_FALLBACKS
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
      return "next(isolation:)"
    }
  #endif
  return "next()"
}
