import Foundation

/// The values of a top-level JSON array, or of JSON Lines, decoded one at a time as the bytes
/// arrive: from a file, from `Data`, or from any `AsyncSequence` of bytes or of chunks.
///
/// Memory stays bounded by the largest element, not the document: the bytes are read a chunk
/// at a time (``JSON/StreamOptions/chunkSize``, 1 MiB) into a buffer that grows only while
/// one element is larger than it, and each element is decoded by the same code as
/// `T(jsonData:)`, so an element means exactly what it would mean there. (An array's elements
/// that follow in the buffer are decoded ahead, at most 64 of them, and handed out one by
/// one: see <doc:Streams>.)
///
/// ```swift
/// for try await user in JSONStream(of: User.self, contentsOf: usersURL) {   // [ {…}, {…} ]
///   try await store.insert(user)
/// }
///
/// let events = JSONStream(of: Event.self, contentsOf: logURL, format: .lines)
/// for try await event in events { print(event.kind) }
///
/// let (bytes, _) = try await URLSession.shared.bytes(from: feedURL)   // where available
/// for try await event in JSONStream(of: Event.self, bytes: bytes, format: .lines) { … }
/// ```
///
/// ## Errors
///
/// The stream ends by throwing ``JSON/Error`` at the first element that fails: its
/// ``JSON/Error/path`` starts with the element's index (`[3].user.id`), positions in
/// malformed text count from the start of the stream, and for JSON Lines ``JSON/Error/line``
/// is the element's line. The elements before it have been delivered. With
/// ``JSON/StreamOptions/skipsBadElements`` bad elements are skipped and counted instead
/// (``AsyncIterator/skippedCount``). Truncated input, garbage between elements, a missing
/// comma and nesting deeper than ``JSON/maximumDepth`` are errors, never a trap or a hang.
///
/// ## Cancellation
///
/// Each call to `next()` checks for cancellation, before each element and before each read,
/// and throws `CancellationError`: a cancelled consumer stops reading at once.
///
/// For a synchronous loop over a file or `Data`, use ``SyncJSONStream``.
public struct JSONStream<Element: JSONDecodable>: AsyncSequence {
  /// Errors are ``JSON/Error``, `CancellationError`, or what the byte sequence threw.
  public typealias Failure = any Error

  private let format: JSON.StreamFormat
  private let options: JSON.StreamOptions
  private let makeSource: () -> any AsyncStreamSource

  private init(
    _ format: JSON.StreamFormat, _ options: JSON.StreamOptions,
    _ makeSource: @escaping () -> any AsyncStreamSource
  ) {
    self.format = format
    self.options = options
    self.makeSource = makeSource
  }

  /// The values in a file.
  ///
  /// ```swift
  /// for try await user in JSONStream(of: User.self, contentsOf: url) { … }
  /// ```
  ///
  /// - Parameters:
  ///   - type: The element type, when it cannot be inferred.
  ///   - url: A file URL. It is opened by each iterator; an error opening or reading it is
  ///     thrown by `next()`.
  ///   - format: `.array` (the default) for `[ … ]`, `.lines` for JSON Lines.
  ///   - options: Buffer sizes, skipping, key style.
  public init(
    of type: Element.Type = Element.self, contentsOf url: URL,
    format: JSON.StreamFormat = .array, options: JSON.StreamOptions = .init()
  ) {
    self.init(format, options) { FileSource(url: url) }
  }

  /// The values in the file at `path`.
  ///
  /// ```swift
  /// let events = JSONStream(of: Event.self, contentsOfFile: "/var/log/app.jsonl", format: .lines)
  /// ```
  public init(
    of type: Element.Type = Element.self, contentsOfFile path: String,
    format: JSON.StreamFormat = .array, options: JSON.StreamOptions = .init()
  ) {
    self.init(format, options) { FileSource(path: path) }
  }

  /// The values in `data`, decoded one at a time (the data itself is already in memory;
  /// the decoded values need not be).
  ///
  /// ```swift
  /// for try await row in JSONStream(of: Row.self, data: body, format: .lines) { … }
  /// ```
  public init(
    of type: Element.Type = Element.self, data: Data, format: JSON.StreamFormat = .array,
    options: JSON.StreamOptions = .init()
  ) {
    self.init(format, options) { DataSource(data) }
  }

  /// The values in an asynchronous sequence of bytes, handed on as soon as each is complete.
  ///
  /// ```swift
  /// let (bytes, _) = try await URLSession.shared.bytes(from: url)
  /// for try await event in JSONStream(of: Event.self, bytes: bytes, format: .lines) { … }
  /// ```
  ///
  /// A byte at a time costs a call per byte; when the bytes come in chunks, prefer
  /// ``init(of:chunks:format:options:)``.
  public init<Bytes: AsyncSequence>(
    of type: Element.Type = Element.self, bytes: Bytes, format: JSON.StreamFormat = .array,
    options: JSON.StreamOptions = .init()
  ) where Bytes.Element == UInt8 {
    self.init(format, options) { AsyncBytesSource(bytes) }
  }

  /// The values in an asynchronous sequence of chunks of bytes (`Data`, `[UInt8]`), which
  /// may split an element anywhere.
  ///
  /// ```swift
  /// let chunks: AsyncStream<Data> = socket.messages
  /// for try await event in JSONStream(of: Event.self, chunks: chunks, format: .lines) { … }
  /// ```
  public init<Chunks: AsyncSequence>(
    of type: Element.Type = Element.self, chunks: Chunks, format: JSON.StreamFormat = .array,
    options: JSON.StreamOptions = .init()
  ) where Chunks.Element: Sequence, Chunks.Element.Element == UInt8 {
    self.init(format, options) { AsyncChunksSource(chunks) }
  }

  /// An iterator with its own source and buffer.
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(decoder: StreamDecoder(format: format, options: options), source: makeSource())
  }

  /// Reads and decodes the elements one at a time.
  ///
  /// ```swift
  /// var iterator = JSONStream(of: Event.self, contentsOf: log, format: .lines, options: skipping)
  ///   .makeAsyncIterator()
  /// while let event = try await iterator.next() { … }
  /// print("\(iterator.skippedCount) bad lines skipped")
  /// ```
  public struct AsyncIterator: AsyncIteratorProtocol {
    private let decoder: StreamDecoder<Element>
    private let source: any AsyncStreamSource

    fileprivate init(decoder: StreamDecoder<Element>, source: any AsyncStreamSource) {
      self.decoder = decoder
      self.source = source
    }

    /// The elements skipped so far (with ``JSON/StreamOptions/skipsBadElements``).
    ///
    /// ```swift
    /// while let row = try await iterator.next() { … }
    /// if iterator.skippedCount > 0 { log("\(iterator.skippedCount) bad lines") }
    /// ```
    public var skippedCount: Int { decoder.skippedCount }

    /// The next element, or `nil` at the end.
    ///
    /// ```swift
    /// let first = try await iterator.next()
    /// ```
    public mutating func next() async throws -> Element? {
      try await next(isolation: nil)
    }

    /// The next element, or `nil` at the end, read in the caller's isolation.
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error)
      -> Element?
    {
      while true {
        if Task.isCancelled, !decoder.hasEnded {
          decoder.finish()
          throw CancellationError()
        }
        if let slot = decoder.acceptAhead() { return slot.move() }
        switch try decoder.step() {
        case .element: return decoder.takeElement()
        case .finished: return nil
        case .needsInput(let buffer):
          let count: Int
          do {
            count = try await source.read(into: buffer, isolation: actor)
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
