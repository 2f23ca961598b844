import Foundation

extension JSON {
  /// Extensions to RFC 8259 that reading may accept: JSON5 (json5.org) and its parts, for
  /// configuration files and hand-written documents. Strict JSON is the default.
  ///
  /// ```swift
  /// let settings = try JSON(jsonString: text, reading: [.comments, .trailingCommas])
  /// let config = try Config(jsonData: data, reading: .json5)
  /// ```
  ///
  /// Lenient text is first turned into the strict JSON it means, then read by the same
  /// reader as any document, so a strict read pays nothing for the option, and an error
  /// names the byte, line and column of the text as written.
  ///
  /// `Infinity`, `-Infinity` and `NaN` are read as the strings `"Infinity"`, `"-Infinity"` and
  /// `"NaN"`, which `Double` and `Float` properties read as numbers with the configuration's
  /// ``JSON/Configuration/nonFiniteNumbers`` set to `.strings()`.
  public struct ReadingOptions: OptionSet, Sendable, Hashable {
    /// The options' bits.
    public let rawValue: Int
    /// The options whose bits are set in `rawValue`: `ReadingOptions(rawValue: 1)` is
    /// ``comments``.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `// line` and `/* block */` comments wherever whitespace may be.
    public static let comments = ReadingOptions(rawValue: 1 << 0)
    /// A comma after the last element of an array or member of an object.
    public static let trailingCommas = ReadingOptions(rawValue: 1 << 1)
    /// Strings in single quotes: `'it\'s'`.
    public static let singleQuotedStrings = ReadingOptions(rawValue: 1 << 2)
    /// Object keys written as identifiers: `{name: "Ada"}`.
    public static let unquotedKeys = ReadingOptions(rawValue: 1 << 3)
    /// Hexadecimal integers: `0x1F`, `-0xff` (up to 64 bits).
    public static let hexadecimalNumbers = ReadingOptions(rawValue: 1 << 4)
    /// Numbers with a leading or trailing decimal point: `.5`, `5.`.
    public static let decimalPoints = ReadingOptions(rawValue: 1 << 5)
    /// A leading `+` on numbers: `+1`.
    public static let plusSigns = ReadingOptions(rawValue: 1 << 6)
    /// `Infinity`, `-Infinity` and `NaN`, read as the strings of the same names.
    public static let nonFiniteNumbers = ReadingOptions(rawValue: 1 << 7)
    /// JSON5's string escapes: line continuations (a backslash before a line break), `\'`,
    /// `\x41`, `\v`, `\0`, and any other character escaped as itself.
    public static let stringEscapes = ReadingOptions(rawValue: 1 << 8)
    /// JSON5's whitespace: also vertical tab, form feed, no-break space, the byte-order mark,
    /// line and paragraph separators and the other Unicode spaces.
    public static let json5Whitespace = ReadingOptions(rawValue: 1 << 9)

    /// All of JSON5.
    public static let json5: ReadingOptions = [
      .comments, .trailingCommas, .singleQuotedStrings, .unquotedKeys, .hexadecimalNumbers,
      .decimalPoints, .plusSigns, .nonFiniteNumbers, .stringEscapes, .json5Whitespace,
    ]
  }
}

extension JSON {
  /// Parses text written with the extensions `options` allows (see ``ReadingOptions``).
  ///
  /// ```swift
  /// let settings = try JSON(jsonData: data, reading: [.comments, .trailingCommas])
  /// ```
  ///
  /// With no options it is ``init(jsonData:)``, which reads what the call's
  /// ``Configuration/reading`` allows; options given here win over the configuration's.
  ///
  /// - Throws: ``JSON/Error`` with the byte, line and column of the text as written.
  public init<Bytes: ContiguousBytes>(jsonData data: Bytes, reading options: ReadingOptions)
    throws
  {
    guard !options.isEmpty else {
      self = try JSON(jsonData: data)
      return
    }
    self = try data.withUnsafeBytes { bytes in
      try LenientText.reading(bytes, options) { try $0.withUnsafeBytes(JSON.init(strictBytes:)) }
    }
  }

  /// Parses a string written with the extensions `options` allows.
  ///
  /// ```swift
  /// let config = try JSON(jsonString: "{name: 'demo', retries: 3, /* for now */}", reading: .json5)
  /// ```
  public init(jsonString string: String, reading options: ReadingOptions) throws {
    self = try JSON(jsonData: Array(string.utf8), reading: options)
  }
}

extension JSONDecodable {
  /// Decodes text written with the extensions `options` allows (see
  /// ``JSON/ReadingOptions``), as ``init(jsonData:)`` decodes strict JSON.
  ///
  /// ```swift
  /// let config = try AppConfig(jsonData: data, reading: .json5)
  /// ```
  ///
  /// Options given here win over the call's ``JSON/Configuration/reading``; with none it is
  /// ``init(jsonData:)``.
  public init<Bytes: ContiguousBytes>(jsonData data: Bytes, reading options: JSON.ReadingOptions)
    throws
  {
    guard !options.isEmpty else {
      self = try Self(jsonData: data)
      return
    }
    self = try data.withUnsafeBytes { bytes in
      try LenientText.reading(bytes, options) { text in
        try text.withUnsafeBytes { try ModelDecoding.decode(Self.self, fromBytes: $0) }
      }
    }
  }

  /// Decodes a string written with the extensions `options` allows.
  public init(jsonString string: String, reading options: JSON.ReadingOptions) throws {
    self = try Self(jsonData: Array(string.utf8), reading: options)
  }
}
