import Foundation

extension JSON {
  /// Settings for one call: how dates, data and non-finite numbers are read and written, and
  /// how keys are styled, for every model in that call.
  ///
  /// ```swift
  /// var api = JSON.Configuration()
  /// api.dateTransform = .millisecondsSince1970
  /// api.keyStyle = .snakeCase
  /// api.dataEncoding = .base64URL
  /// api.nonFiniteNumbers = .strings()            // "NaN", "Infinity", "-Infinity"
  ///
  /// let order = try Order(jsonData: data, configuration: api)
  /// let text = try order.jsonString(configuration: api)
  /// ```
  ///
  /// A configuration is a value: two calls with different ones may run at the same time, on
  /// any threads or tasks, and never see each other's settings (it is carried by a task-local
  /// value, not by global state). ``DateTransform/default`` stays the fallback for calls that
  /// set no date transform.
  ///
  /// ## What wins
  ///
  /// A property's own option always wins over the call: `.transform(…)` on a `Date`
  /// property, `.index` or a property's `.keyStyle`. The call wins over the model
  /// (`static var keyStyle`) and over the global defaults. A setting left `nil` keeps what an
  /// enclosing call or ``JSON/withConfiguration(_:_:)`` set, else the default, so a
  /// hand-written `init(decode:)` that calls `T(decode:configuration:)` adds to the call's
  /// settings instead of erasing them.
  public struct Configuration: Sendable {
    /// How property names become keys, for every model in the call (see
    /// ``JSON/KeyStyle``); `nil`: each model's own.
    public var keyStyle: JSON.KeyStyle?
    /// How `Date` properties without a `.transform` read and write; `nil`:
    /// ``DateTransform/default``.
    public var dateTransform: DateTransform?
    /// How `Data` properties read and write; `nil`: ``DataEncoding/base64``.
    public var dataEncoding: DataEncoding?
    /// Whether NaN and ±infinity are read from and written as strings; `nil`:
    /// ``NonFiniteNumbers/error``.
    public var nonFiniteNumbers: NonFiniteNumbers?
    /// Whether a failed decode goes on to find every problem of the document and throws them
    /// all in one ``JSON/Error`` (see ``JSON/Error/problems``); `nil`: stop at the first.
    ///
    /// ```swift
    /// do {
    ///   _ = try [User](jsonData: data, configuration: .init(collectsAllErrors: true))
    /// } catch let error as JSON.Error {
    ///   print(error)   // 3 problems:\nat [0].id: …\nat [2].name: …\nat [5].email: …
    /// }
    /// ```
    ///
    /// Only failing decodes do more work: a document that maps decodes as fast as ever.
    /// Malformed text still stops at once (nothing after it can be read), and so does a model
    /// that cannot be mapped (``JSON/Error/Kind/invalidModel``) or nesting too deep.
    public var collectsAllErrors: Bool?
    /// Called for each value an option stood in for: a `.defaultValue` or `.nonNil` value, a
    /// `.lossy` element left out or optional set to `nil`, an enum's fallback case, an
    /// `.alternativeIndex` read (see ``JSON/Substitution``); `nil`: nothing is recorded.
    /// ``JSON/recordingSubstitutions(_:)`` collects them for one call.
    ///
    /// ```swift
    /// let logged = JSON.Configuration(onSubstitution: { log.notice("\($0)") })
    /// let feed = try Feed(jsonData: data, configuration: logged)
    /// ```
    ///
    /// Scopes nest: a substitution goes to the innermost handler first, then to each enclosing
    /// one (an enclosing ``JSON/recordingSubstitutions(_:)`` still records it).
    ///
    /// The handler may call AutoMap (to log by decoding, say): its own calls run as the code
    /// that set it runs, with the configuration around that scope, so they never call this
    /// handler again. A transform or `Codable` value that decodes is part of the decode, and
    /// its calls run inside the scope.
    ///
    /// While a handler is set, byte input is decoded through `JSON` values, as
    /// `T(decode:)` does, so that each substitution's path is known: about as fast as
    /// `T(decode: JSON(jsonData:))`. Calls without one are not slowed at all.
    public var onSubstitution: (@Sendable (Substitution) -> Void)?
    /// Which extensions to strict JSON the call's text may use (JSON5, comments, trailing
    /// commas: see ``JSON/ReadingOptions``), for every document the call reads from bytes or a
    /// string: models, arrays and dictionaries of them, `JSON` values, updates and streams;
    /// `nil`: strict RFC 8259.
    ///
    /// ```swift
    /// let settings = try Settings(jsonData: file, configuration: .init(reading: .json5))
    /// let hosts = try [Host](jsonString: "[{name: 'a'}, /* soon */]", configuration: .init(reading: .json5))
    /// ```
    ///
    /// It is looked at once per document: a strict call pays nothing for it, a lenient one
    /// turns the text into strict JSON first. JSON held inside a string
    /// (`.embeddedJSON`) is read strictly. An entry point's own `reading:` argument
    /// wins over it.
    public var reading: JSON.ReadingOptions?

    /// A configuration; every setting left out keeps its default.
    ///
    /// ```swift
    /// let legacy = JSON.Configuration(dateTransform: .secondsSince1970, keyStyle: .snakeCase)
    /// ```
    public init(
      dateTransform: DateTransform? = nil, keyStyle: JSON.KeyStyle? = nil,
      dataEncoding: DataEncoding? = nil, nonFiniteNumbers: NonFiniteNumbers? = nil,
      collectsAllErrors: Bool? = nil, onSubstitution: (@Sendable (Substitution) -> Void)? = nil,
      reading: JSON.ReadingOptions? = nil
    ) {
      self.dateTransform = dateTransform
      self.keyStyle = keyStyle
      self.dataEncoding = dataEncoding
      self.nonFiniteNumbers = nonFiniteNumbers
      self.collectsAllErrors = collectsAllErrors
      self.onSubstitution = onSubstitution
      self.reading = reading
    }

    /// This configuration, with the settings it leaves `nil` taken from `outer`. Substitution
    /// handlers add up: a substitution made inside both scopes goes to this one's handler,
    /// then to the enclosing one's (a `recordingSubstitutions` around a call that logs its
    /// own still records).
    func merged(over outer: Configuration?) -> Configuration {
      guard let outer else { return self }
      var handler = onSubstitution ?? outer.onSubstitution
      if let inner = onSubstitution, let enclosing = outer.onSubstitution {
        handler = { substitution in
          inner(substitution)
          enclosing(substitution)
        }
      }
      return Configuration(
        dateTransform: dateTransform ?? outer.dateTransform, keyStyle: keyStyle ?? outer.keyStyle,
        dataEncoding: dataEncoding ?? outer.dataEncoding,
        nonFiniteNumbers: nonFiniteNumbers ?? outer.nonFiniteNumbers,
        collectsAllErrors: collectsAllErrors ?? outer.collectsAllErrors,
        onSubstitution: handler, reading: reading ?? outer.reading)
    }
  }

  /// How `Data` is written as a JSON string.
  ///
  /// ```swift
  /// let call = JSON.Configuration(dataEncoding: .hex)
  /// try Blob(bytes: Data([0xCA, 0xFE])).jsonString(configuration: call)   // {"bytes":"cafe"}
  /// ```
  public enum DataEncoding: Sendable, Hashable {
    /// Standard base64 with padding (`yv4=`), what `JSONEncoder` writes. The default.
    case base64
    /// The URL- and filename-safe alphabet (`-` and `_`), without padding (`yv4`), as JWTs
    /// and many web APIs use; reading accepts padding too.
    case base64URL
    /// Two lower-case hexadecimal digits a byte (`cafe`); reading accepts either case.
    case hex
  }

  /// Whether NaN and ±infinity, which JSON numbers cannot hold, are read from and written as
  /// strings, like `JSONDecoder`'s `nonConformingFloatDecodingStrategy`.
  ///
  /// ```swift
  /// let lenient = JSON.Configuration(nonFiniteNumbers: .strings())
  /// try [Double](jsonString: #"["NaN", "-Infinity", 1.5]"#, configuration: lenient)
  /// // [nan, -inf, 1.5]
  /// let python = JSON.Configuration(
  ///   nonFiniteNumbers: .strings(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan"))
  /// ```
  ///
  /// The strings are matched exactly (case and all). Applies to `Double`, `Float` and
  /// `Float16` properties, elements and values, on every path.
  public enum NonFiniteNumbers: Sendable, Hashable {
    /// A non-finite value is an error: reading a string into a number, and writing NaN or
    /// infinity. The default.
    case error
    /// NaN and ±infinity are these strings, both ways (JavaScript's spellings unless given).
    case strings(
      positiveInfinity: String = "Infinity", negativeInfinity: String = "-Infinity",
      nan: String = "NaN")
  }
}
