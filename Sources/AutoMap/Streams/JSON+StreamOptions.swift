extension JSON {
  /// How the values of a stream are laid out: one top-level array, or JSON Lines.
  ///
  /// ```swift
  /// for try await user in JSONStream(of: User.self, contentsOf: url, format: .array) { … }
  /// for try await event in JSONStream(of: Event.self, contentsOf: log, format: .lines) { … }
  /// ```
  public enum StreamFormat: Sendable, Hashable {
    /// One JSON array, `[ … , … ]`, read element by element (whitespace and line breaks
    /// anywhere between tokens, as in any JSON text).
    case array
    /// JSON Lines (NDJSON): one value per line, lines ending in `\n` or `\r\n`; blank lines
    /// are skipped, and the last line needs no line break.
    case lines
  }

  /// How a stream reads: buffer sizes, a bound on one element, what to do with bad
  /// elements, and the key style.
  ///
  /// ```swift
  /// var options = JSON.StreamOptions()
  /// options.skipsBadElements = true                 // count bad lines, don't stop
  /// options.keyStyle = .snakeCase
  /// let events = JSONStream(of: Event.self, contentsOf: log, format: .lines, options: options)
  /// ```
  public struct StreamOptions: Sendable {
    /// Bytes read from the source at a time, and the buffer's starting size: 1 MiB. The
    /// buffer grows (doubling) only while one element is larger than it.
    public var chunkSize = 1 << 20

    /// The largest element (for JSON Lines, line) the buffer may grow to hold: 256 MiB. A
    /// larger one is an error (``JSON/Error/Kind-swift.enum/custom``), or for JSON Lines
    /// with ``skipsBadElements`` a skipped line; it also bounds what an unterminated string
    /// can make the stream hold.
    public var maximumElementSize = 256 << 20

    /// Skip elements that fail instead of ending the stream, and count them (the
    /// iterators' `skippedCount`, and ``onSkip``). For JSON Lines any line that is not valid
    /// JSON or does not map is skipped; for an array, an element that does not map or is
    /// malformed inside its brackets. Broken structure between array elements (a missing
    /// comma, an unterminated string, the end of input inside the array) still ends the
    /// stream, since where the next element starts is then unknown. Default: `false`.
    public var skipsBadElements = false

    /// Decode the elements of an array that follow in the buffer ahead, up to 64 in one loop,
    /// and hand them out one by one: a stream then reads at the speed of `[T](jsonData:)`.
    /// Default: `true`.
    ///
    /// Each element is still what the call that takes it would read: one decoded ahead under
    /// another key style or configuration than that call's is decoded again (and a stream
    /// whose calls keep changing them stops decoding ahead). But a model's own code, its
    /// `didDecode()`, a `Codable` property's `init(from:)`, a transform, runs when the
    /// element is decoded, ahead of the call that takes it, and for elements never taken
    /// when iteration stops early. Turn this off when that code has effects that must come
    /// one element at a time, each element's code run when it is asked for, as
    /// `T(jsonData:)` of its bytes runs it (array elements are then found by a scan first,
    /// then read):
    ///
    /// ```swift
    /// var options = JSON.StreamOptions()
    /// options.decodesAhead = false   // Order.didDecode() registers each order it reads
    /// for try await order in JSONStream(of: Order.self, contentsOf: url, options: options) { … }
    /// ```
    public var decodesAhead = true

    /// Called with the error of each skipped element (with ``skipsBadElements``).
    public var onSkip: (@Sendable (JSON.Error) -> Void)?

    /// The key style for every element, overriding the models' own, as in
    /// `T(jsonData:keyStyle:)`. Default: `nil`, each model's own.
    public var keyStyle: JSON.KeyStyle?

    /// Settings for every element (dates, data, non-finite numbers, key style), as the
    /// `configuration:` argument of `T(jsonData:configuration:)` gives them to one call;
    /// ``keyStyle``, when set, wins over the configuration's. Default: `nil`, the
    /// configuration of the enclosing ``JSON/withConfiguration(_:_:)``, if any.
    ///
    /// ```swift
    /// var options = JSON.StreamOptions()
    /// options.configuration = JSON.Configuration(dateTransform: .millisecondsSince1970)
    /// for try await event in JSONStream(of: Event.self, contentsOf: log, format: .lines,
    ///   options: options) { … }
    /// ```
    public var configuration: JSON.Configuration?

    /// Which extensions to strict JSON the stream's text may use (see
    /// ``JSON/ReadingOptions``): each element is read as `T(jsonData:reading:)` reads it, and
    /// with ``JSON/ReadingOptions/comments`` comments (and with
    /// ``JSON/ReadingOptions/json5Whitespace`` JSON5's whitespace) may stand between elements,
    /// with ``JSON/ReadingOptions/trailingCommas`` a comma may follow an array's last element.
    /// In JSON Lines a line holding only a comment is skipped like a blank one (a comment
    /// cannot span lines there: each line is a value). Default: `nil`, the configuration's
    /// ``JSON/Configuration/reading`` (``configuration``'s, else that of the enclosing
    /// ``JSON/withConfiguration(_:_:)`` when the iterator is made), else strict JSON.
    ///
    /// ```swift
    /// var options = JSON.StreamOptions()
    /// options.reading = [.comments, .trailingCommas]
    /// for result in SyncJSONStream(of: Rule.self, contentsOf: rulesFile, options: options) { … }
    /// ```
    ///
    /// A strict stream pays nothing for it; a lenient one scans the text between and inside
    /// elements for comments and quotes, and turns each element into strict JSON before
    /// reading it.
    public var reading: JSON.ReadingOptions?

    /// The reading options in effect for a stream made now (see ``reading``).
    var effectiveReading: JSON.ReadingOptions {
      reading ?? configuration?.reading ?? ConfigurationContext.current?.reading ?? []
    }

    /// Runs `body` (the decoding of one element) with these options' configuration and key
    /// style.
    @inline(__always)
    func apply<R>(_ body: () throws -> R) rethrows -> R {
      guard let configuration else { return try KeyStyleContext.with(keyStyle, body) }
      return try ConfigurationContext.with(configuration) {
        try KeyStyleContext.with(keyStyle, body)
      }
    }

    /// The defaults: 1 MiB chunks, elements up to 256 MiB, stop at the first bad element.
    public init() {}
  }
}
