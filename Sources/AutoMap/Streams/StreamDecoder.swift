/// What the synchronous and the asynchronous stream share: the scanner, the decoding of each
/// element through `T(jsonData:)`'s code, and skipping and counting bad elements. The forms
/// differ only in how they wait for input.
/// What a stream's next step gives. Not generic: this code is not specialized for the
/// element type (it is called from the stream types, generic in the caller's module), and a
/// generic enum, tuple or optional here would cost a metadata lookup per element.
enum StreamStep {
  /// An element is ready: take it with ``StreamDecoder/takeElement()``.
  case element
  /// Fill the buffer from the source, then call ``StreamDecoder/didRead(_:)``.
  case needsInput(UnsafeMutableRawBufferPointer)
  case finished
}

@usableFromInline
final class StreamDecoder<Element: JSONDecodable> {

  private let scanner: ElementScanner
  private let decoder = ElementDecoder<Element>()
  private let options: JSON.StreamOptions
  private(set) var skippedCount = 0
  /// After the end, an error or a cancellation: every later step is `.finished`.
  private var isDone = false
  /// Whether elements that follow in the buffer are still decoded ahead (with
  /// ``JSON/StreamOptions/decodesAhead``): until the caller's context changes between calls.
  private var decodesAhead = true
  /// The caller's context when the elements still held were decoded ahead.
  private var aheadContext = Context.current

  /// What decoding takes from the caller's context, besides the stream's own options.
  private struct Context {
    let keyStyle: JSON.KeyStyle?
    /// Compared by identity: kept, so that no later binding can take its address.
    let configuration: ConfigurationContext.Binding?

    /// Two flag loads while no call in the process has bound either.
    @inline(__always)
    static var current: Context {
      Context(keyStyle: KeyStyleContext.override, configuration: ConfigurationContext.binding)
    }

    /// Whether the current context is this one.
    @inline(__always)
    var isCurrent: Bool {
      guard keyStyle != nil || configuration != nil else {
        // The usual case, without comparing styles.
        return KeyStyleContext.override == nil && ConfigurationContext.binding == nil
      }
      let current = Context.current
      return keyStyle == current.keyStyle && configuration === current.configuration
    }
  }

  init(format: JSON.StreamFormat, options: JSON.StreamOptions) {
    scanner = ElementScanner(format: format, options: options, reading: options.effectiveReading)
    self.options = options
  }

  /// The next element, or what the stream needs before it can have it.
  ///
  /// - Throws: ``JSON/Error`` for an element that does not decode (unless it is skipped), or
  ///   broken structure between elements; the stream ends with it.
  func step() throws(JSON.Error) -> StreamStep {
    guard !isDone else { return .finished }
    if acceptsFollowing() { return .element }
    if decoder.nextAheadEnd != nil {
      // Decoded ahead in another context than the caller's. Calls that change their context
      // would have each run decode ahead in vain.
      decoder.discardAhead()
      decodesAhead = false
    }
    do throws(JSON.Error) {
      while true {
        switch try scanner.next() {
        case .finished:
          isDone = true
          return .finished
        case .needsInput:
          do throws(JSON.Error) {
            return .needsInput(try scanner.spaceForInput())
          } catch {
            guard options.skipsBadElements, scanner.format == .lines else { throw error }
            skip(error.onLine(scanner.line, format: .lines))
            scanner.discardLine()
          }
        case .candidate(let bytes):
          guard options.decodesAhead else {
            // One element at a time: its extent first, so that it is decoded once, never
            // begun on bytes the buffer cuts short (its nested values' own code would run
            // twice).
            scanner.scanCandidate()
            continue
          }
          // Most elements are read straight from the buffer, which finds their end too, and
          // those after it in the buffer are decoded ahead, in the same loop.
          let context = Context.current
          let accepted = options.apply { () -> Bool in
            guard let length = decoder.decodePrefix(bytes, depth: 1) else { return false }
            guard scanner.accept(length) != nil else {
              decoder.discard()
              return false
            }
            if decodesAhead { decoder.decodeFollowing(sourceEnded: scanner.sourceEnded) }
            return true
          }
          if accepted {
            aheadContext = context
            return .element
          }
          scanner.scanCandidate()
        case .element(let element):
          do throws(JSON.Error) {
            try decode(element)
            return .element
          } catch {
            // An element too deep for this thread's stack is not a bad one: never skipped.
            guard options.skipsBadElements, !error.exhaustsStack else { throw error }
            skip(error)
          }
        }
      }
    } catch {
      isDone = true
      throw error.onLine(scanner.line, format: scanner.format)
    }
  }

  /// The element the last step made ready.
  func takeElement() -> Element { decoder.take() }

  /// The next element, when it was decoded ahead in the caller's current context (most
  /// elements of a stream of small values are): its slot, which the caller moves the value
  /// out of at once, with no ``step()``.
  ///
  /// A slot rather than the value: the caller is inlined in its module, where moving an
  /// `Element` is specialized, and this code is not (see ``StreamStep``).
  @usableFromInline
  func acceptAhead() -> UnsafeMutablePointer<Element>? {
    guard !isDone, acceptsFollowing() else { return nil }
    return decoder.takeSlot()
  }

  /// Consumes the next element decoded ahead when there is one and the caller's context is
  /// still the one it was decoded in (each element takes the key style and configuration
  /// current when it is asked for).
  @inline(__always)
  private func acceptsFollowing() -> Bool {
    guard let end = decoder.nextAheadEnd, aheadContext.isCurrent else { return false }
    scanner.acceptFollowing(endingAt: end)
    return true
  }

  /// `count` bytes were read into the buffer of the last `.needsInput`; `0` at the end.
  func didRead(_ count: Int) { scanner.didRead(count) }

  /// Ends the stream (the source failed, or the task was cancelled).
  func finish() { isDone = true }

  /// Whether the stream has ended: later steps are `.finished`.
  var hasEnded: Bool { isDone }

  /// The element's bytes through the very code `T(jsonData:)` runs, ready to take.
  private func decode(_ element: ElementScanner.Element) throws(JSON.Error) {
    do {
      if scanner.format == .array, element.bytes.first == 0xEF {
        // A byte order mark may open a document, not an element.
        throw JSON.Error(
          .malformed(offset: 0, line: 1, column: 1),
          "malformed JSON at byte 0 (line 1, column 1): expected a JSON value, found byte 0xEF")
      }
      let reading = scanner.reading
      guard !reading.isEmpty else { return try options.apply { try decoder.decode(element.bytes) } }
      try LenientText.reading(element.bytes, reading) { text in
        try text.withUnsafeBytes { bytes in try options.apply { try decoder.decode(bytes) } }
      }
    } catch {
      throw JSON.Error.wrapping(error).located(in: element, format: scanner.format)
    }
  }

  private func skip(_ error: JSON.Error) {
    skippedCount += 1
    options.onSkip?(error)
  }
}

extension JSON.Error {
  /// What a synchronous stream reports when its task is cancelled.
  static var cancelled: JSON.Error {
    JSON.Error(.custom, "the stream was cancelled", underlying: CancellationError())
  }
}
