import Foundation

/// The values of a top-level JSON array, or of JSON Lines, in a file or in `Data`, decoded
/// one at a time in a synchronous loop: the synchronous form of ``JSONStream``, with the same
/// formats, options, bounded memory and errors.
///
/// A `Sequence` cannot throw, so it yields `Result`s, and ends after the first failure:
///
/// ```swift
/// for result in SyncJSONStream(of: User.self, contentsOf: url) {
///   let user = try result.get()
///   index.add(user)
/// }
///
/// var lines = SyncJSONStream(of: Event.self, contentsOf: log, format: .lines).makeIterator()
/// while let event = try lines.nextElement() { … }      // or, throwing directly
/// ```
///
/// When it runs inside a task, a cancelled task ends the stream with a ``JSON/Error`` whose
/// `underlying` error is a `CancellationError`.
public struct SyncJSONStream<Element: JSONDecodable>: Sequence {
  private let format: JSON.StreamFormat
  private let options: JSON.StreamOptions
  private let makeSource: () -> any StreamSource

  private init(
    _ format: JSON.StreamFormat, _ options: JSON.StreamOptions,
    _ makeSource: @escaping () -> any StreamSource
  ) {
    self.format = format
    self.options = options
    self.makeSource = makeSource
  }

  /// The values in a file; each iterator opens it, and an error opening or reading it is
  /// the iterator's failure.
  ///
  /// ```swift
  /// for result in SyncJSONStream(of: User.self, contentsOf: url) { try store(result.get()) }
  /// ```
  public init(
    of type: Element.Type = Element.self, contentsOf url: URL,
    format: JSON.StreamFormat = .array, options: JSON.StreamOptions = .init()
  ) {
    self.init(format, options) { FileSource(url: url) }
  }

  /// The values in the file at `path`.
  ///
  /// ```swift
  /// let rows = SyncJSONStream(of: Row.self, contentsOfFile: "rows.jsonl", format: .lines)
  /// ```
  public init(
    of type: Element.Type = Element.self, contentsOfFile path: String,
    format: JSON.StreamFormat = .array, options: JSON.StreamOptions = .init()
  ) {
    self.init(format, options) { FileSource(path: path) }
  }

  /// The values in `data`.
  ///
  /// ```swift
  /// let users = try SyncJSONStream(of: User.self, data: body).map { try $0.get() }
  /// ```
  public init(
    of type: Element.Type = Element.self, data: Data, format: JSON.StreamFormat = .array,
    options: JSON.StreamOptions = .init()
  ) {
    self.init(format, options) { DataSource(data) }
  }

  /// An iterator with its own source and buffer.
  public func makeIterator() -> Iterator {
    Iterator(decoder: StreamDecoder(format: format, options: options), source: makeSource())
  }

  /// Reads and decodes the elements one at a time.
  ///
  /// ```swift
  /// var iterator = SyncJSONStream(of: Event.self, data: log, format: .lines).makeIterator()
  /// while let event = try iterator.nextElement() { … }
  /// ```
  public struct Iterator: IteratorProtocol {
    @usableFromInline let decoder: StreamDecoder<Element>
    private let source: any StreamSource

    fileprivate init(decoder: StreamDecoder<Element>, source: any StreamSource) {
      self.decoder = decoder
      self.source = source
    }

    /// The elements skipped so far (with ``JSON/StreamOptions/skipsBadElements``).
    ///
    /// ```swift
    /// while let row = try iterator.nextElement() { … }
    /// print("\(iterator.skippedCount) bad lines skipped")
    /// ```
    public var skippedCount: Int { decoder.skippedCount }

    /// The next element or the error that ends the stream; `nil` after the end or an error.
    ///
    /// ```swift
    /// if case .failure(let error)? = iterator.next() { print(error.line ?? 0, error.path) }
    /// ```
    public mutating func next() -> Result<Element, JSON.Error>? {
      do {
        return try nextElement().map { .success($0) }
      } catch {
        return .failure(error)
      }
    }

    /// The next element, or `nil` at the end.
    ///
    /// ```swift
    /// while let user = try iterator.nextElement() { index.add(user) }
    /// ```
    ///
    /// - Throws: ``JSON/Error``, as ``JSONStream`` does; the stream ends with it.
    @inlinable
    public mutating func nextElement() throws(JSON.Error) -> Element? {
      // Most elements of a stream of small values were decoded ahead: handed out here,
      // inlined in the caller and specialized for `Element` there, so that moving one out
      // costs no generic value-witness calls.
      if !Task.isCancelled, let slot = decoder.acceptAhead() { return slot.move() }
      return try nextStep()
    }

    /// ``nextElement()`` when the next element was not decoded ahead.
    @usableFromInline
    mutating func nextStep() throws(JSON.Error) -> Element? {
      while true {
        if Task.isCancelled, !decoder.hasEnded {
          decoder.finish()
          throw JSON.Error.cancelled
        }
        switch try decoder.step() {
        case .element: return decoder.takeElement()
        case .finished: return nil
        case .needsInput(let buffer):
          let count: Int
          do {
            count = try source.read(into: buffer)
          } catch {
            decoder.finish()
            throw error
          }
          decoder.didRead(count)
        }
      }
    }
  }
}
