import Foundation

/// How `Date`s map to JSON.
///
/// ```swift
/// DateTransform.default = .secondsSince1970          // every Date property without an option
/// static func specificOptions() -> [String: SpecificOption] {
///   ["createdAt": .transform(DateTransform.millisecondsSince1970)]
/// }
/// ```
///
/// ISO 8601 is parsed and written by AutoMap itself (no `DateFormatter` per value):
/// `2024-05-01T12:30:00Z`, with optional fractional seconds and a `Z`, `±hh:mm` or `±hhmm`
/// offset. It writes UTC with milliseconds when the date has any.
public struct DateTransform: Transform, Sendable {
  enum Kind: Sendable {
    case iso8601
    case seconds(since: Date)
    case milliseconds
    /// Text in `formatter`'s format.
    case formatter
    case rfc1123
    /// The first of `formats` that reads the value.
    case oneOf
  }

  let kind: Kind
  /// What `.formatter` formats with, and `.oneOf` tries. Kept out of `kind`'s payloads: an
  /// enum's case tag shares the spare bits of a payload's reference, which hides the object
  /// from leak checkers (LeakSanitizer reported the formatter's lock of every cached plan).
  let formatter: LockedFormatter?
  let formats: [DateTransform]

  init(kind: Kind, formatter: LockedFormatter? = nil, formats: [DateTransform] = []) {
    self.kind = kind
    self.formatter = formatter
    self.formats = formats
  }

  /// ISO 8601 text, fractional seconds accepted.
  public static let iso8601 = DateTransform(kind: .iso8601)
  /// A number of seconds since 1970-01-01 00:00 UTC.
  public static let secondsSince1970 = DateTransform(
    kind: .seconds(since: Date(timeIntervalSince1970: 0)))
  /// A number of milliseconds since 1970-01-01 00:00 UTC.
  public static let millisecondsSince1970 = DateTransform(kind: .milliseconds)

  /// RFC 1123 text, as HTTP headers write dates: `Sun, 06 Nov 1994 08:49:37 GMT`.
  ///
  /// Reads the weekday (optional), and `GMT`, `UTC`, `UT`, `Z` or a `±hhmm` offset, names in
  /// any case; writes GMT in whole seconds. Parsed and written by AutoMap itself.
  public static let rfc1123 = DateTransform(kind: .rfc1123)

  /// Several formats: reading tries each in order and takes the first that reads the value;
  /// writing uses the first.
  ///
  /// ```swift
  /// let flexible = DateTransform.oneOf(.iso8601, .millisecondsSince1970, .rfc1123)
  /// // "2024-05-01T12:30:00Z", "2024-05-01T12:30:00.250+02:00", 1714566600000,
  /// // "Wed, 01 May 2024 12:30:00 GMT" all read; dates are written as ISO 8601.
  /// ```
  ///
  /// A number is read by the first of `.secondsSince1970`, `.millisecondsSince1970` and
  /// `.timeIntervalSince(_:)` listed (each accepts any number), a string by the text formats.
  /// When none reads the value, the error names every format tried.
  public static func oneOf(_ first: DateTransform, _ others: DateTransform...) -> DateTransform {
    oneOf([first] + others)
  }

  /// ``oneOf(_:_:)`` with the formats in an array (which must not be empty: an empty list
  /// reads and writes ISO 8601).
  public static func oneOf(_ formats: [DateTransform]) -> DateTransform {
    let flattened = formats.flatMap { format -> [DateTransform] in
      if case .oneOf = format.kind { return format.formats }
      return [format]
    }
    guard flattened.count > 1 else { return flattened.first ?? .iso8601 }
    return DateTransform(kind: .oneOf, formats: flattened)
  }

  /// A number of seconds since `date`.
  ///
  /// ```swift
  /// let epoch2001 = DateTransform.timeIntervalSince(Date(timeIntervalSinceReferenceDate: 0))
  /// // 0 reads as 2001-01-01T00:00:00Z, as Apple's reference-date timestamps count
  /// ```
  public static func timeIntervalSince(_ date: Date) -> DateTransform {
    DateTransform(kind: .seconds(since: date))
  }

  /// Text in the formatter's format. The formatter is used under a lock; do not change it
  /// afterwards.
  ///
  /// ```swift
  /// let formatter = DateFormatter()
  /// formatter.locale = Locale(identifier: "en_US_POSIX")
  /// formatter.timeZone = TimeZone(identifier: "UTC")
  /// formatter.dateFormat = "yyyy-MM-dd"
  /// let day = DateTransform.formatter(formatter)  // "2024-05-01"
  /// ```
  public static func formatter(_ formatter: DateFormatter) -> DateTransform {
    DateTransform(kind: .formatter, formatter: LockedFormatter(formatter))
  }

  private static let current = Locked(DateTransform.iso8601)

  /// What `Date` properties without a `.transform` use: `.iso8601` unless changed.
  public static var `default`: DateTransform {
    get { current.withLock { $0 } }
    set { current.withLock { $0 = newValue } }
  }

  /// What `Date` properties without a `.transform` use in the current call: the call's
  /// ``JSON/Configuration/dateTransform``, else ``default``.
  static var forCall: DateTransform {
    ConfigurationContext.current?.dateTransform ?? .default
  }

  /// The date for a JSON value.
  public func date(from json: JSON) throws -> Date {
    switch kind {
    case .iso8601:
      guard case .string(let text) = json else {
        throw JSON.Error.mismatch(expected: "ISO 8601 date string", found: json)
      }
      guard let date = ISO8601.parse(text) else {
        throw JSON.Error(
          .typeMismatch, "expected an ISO 8601 date, found string \(JSON.string(text))")
      }
      return date
    case .seconds(let reference):
      return reference.addingTimeInterval(try Self.number(json))
    case .milliseconds:
      return Date(timeIntervalSince1970: try Self.number(json) / 1000)
    case .formatter:
      let text = try String(decode: json)
      guard let date = formatter?.date(from: text) else {
        throw JSON.Error(
          .typeMismatch,
          "expected a date formatted \(formatName), found string \(JSON.string(text))")
      }
      return date
    case .rfc1123:
      guard case .string(let text) = json else {
        throw JSON.Error.mismatch(expected: "RFC 1123 date string", found: json)
      }
      guard let date = RFC1123.parse(text) else {
        throw JSON.Error(
          .typeMismatch, "expected an RFC 1123 date, found string \(JSON.string(text))")
      }
      return date
    case .oneOf:
      for format in formats {
        if let date = try? format.date(from: json) { return date }
      }
      if case .missing(let error) = json { throw error }
      let names = formats.map(\.formatName)
      let list = names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
      throw JSON.Error(
        json == .null ? .missingValue : .typeMismatch,
        "expected a date as \(list), found \(json.briefDescription)")
    }
  }

  /// A JSON number as a `Double` (never a non-finite string, whatever the call's
  /// configuration: a date is finite).
  private static func number(_ json: JSON) throws -> Double {
    guard case .number = json else { throw JSON.Error.mismatch(expected: "Double", found: json) }
    return try Double(decode: json)
  }

  /// For messages: "ISO 8601".
  private var formatName: String {
    switch kind {
    case .iso8601: "ISO 8601"
    case .seconds(let reference):
      reference.timeIntervalSince1970 == 0 ? "seconds since 1970" : "seconds since \(reference)"
    case .milliseconds: "milliseconds since 1970"
    case .formatter: "\"\(formatter?.dateFormat ?? "")\""
    case .rfc1123: "RFC 1123"
    case .oneOf: formats.map(\.formatName).joined(separator: " or ")
    }
  }

  /// The JSON for a date.
  ///
  /// - Throws: for ISO 8601, a date too far from the present to be written (more than about
  ///   30 million years away).
  public func json(for date: Date) throws -> JSON {
    switch kind {
    case .iso8601: .string(try ISO8601.format(date))
    case .seconds(let reference): JSON(date.timeIntervalSince(reference))
    case .milliseconds: JSON(date.timeIntervalSince1970 * 1000)
    case .formatter: .string(formatter?.string(from: date) ?? "")
    case .rfc1123: .string(try RFC1123.format(date))
    case .oneOf: try (formats.first ?? .iso8601).json(for: date)
    }
  }

  /// The `Date` for `json` (see ``date(from:)``).
  public func decodeValue(from json: JSON) throws -> Any? { try date(from: json) }

  /// The JSON for a `Date` or `Date?` property value (see ``json(for:)``).
  public func encodeValue(_ value: Any) throws -> JSON? {
    if let date = value as? Date { return try json(for: date) }
    if let date = value as? Date? { return try date.map { try json(for: $0) } ?? .null }
    throw JSON.Error(
      .invalidModel, "DateTransform applies to Date properties, not \(typeName(type(of: value)))")
  }
}

/// A `DateFormatter`, used under a lock (a formatter is not safe to share between threads).
final class LockedFormatter: @unchecked Sendable {  // the formatter is used under `lock`
  private let formatter: DateFormatter
  private let lock = NSLock()

  init(_ formatter: DateFormatter) { self.formatter = formatter }

  var dateFormat: String? { lock.withLock { formatter.dateFormat } }
  func date(from text: String) -> Date? { lock.withLock { formatter.date(from: text) } }
  func string(from date: Date) -> String { lock.withLock { formatter.string(from: date) } }
}

/// ISO 8601 date-times, parsed and written without a formatter.
enum ISO8601 {
  /// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM|±HHMM)`; `nil` when the text is not that.
  /// Years outside 0000–9999 use the expanded form, a sign and six or more digits
  /// (`+010000-01-01T00:00:00Z`, `-000001-12-31T00:00:00Z`), as JavaScript writes them.
  static func parse(_ text: String) -> Date? {
    let bytes = Array(text.utf8)
    var position = 0
    func number(_ digits: Int) -> Int? {
      guard position + digits <= bytes.count else { return nil }
      var value = 0
      for _ in 0..<digits {
        let digit = Int(bytes[position]) - 48
        guard (0...9).contains(digit) else { return nil }
        value = value * 10 + digit
        position += 1
      }
      return value
    }
    func expect(_ byte: UInt8) -> Bool {
      guard position < bytes.count, bytes[position] == byte else { return false }
      position += 1
      return true
    }
    var yearSign = 0
    if let first = bytes.first, first == 43 || first == 45 {  // + -
      yearSign = first == 45 ? -1 : 1
      position = 1
    }
    var yearDigits = 4
    if yearSign != 0 {
      yearDigits = bytes[position...].prefix { (48...57).contains($0) }.count
      guard (6...9).contains(yearDigits) else { return nil }
    }
    guard let unsignedYear = number(yearDigits),
      case let year = (yearSign == 0 ? 1 : yearSign) * unsignedYear,
      expect(45), let month = number(2), expect(45), let day = number(2),
      position < bytes.count,
      bytes[position] == 84 || bytes[position] == 116 || bytes[position] == 32
    else { return nil }
    position += 1
    guard let hour = number(2), expect(58), let minute = number(2), expect(58),
      let second = number(2)
    else { return nil }
    var fraction = 0.0
    if position < bytes.count, bytes[position] == 46 || bytes[position] == 44 {
      position += 1
      var scale = 0.1
      let start = position
      while position < bytes.count, (48...57).contains(bytes[position]) {
        fraction += Double(bytes[position] - 48) * scale
        scale /= 10
        position += 1
      }
      guard position > start else { return nil }
    }
    var offset = 0
    guard position < bytes.count else { return nil }
    switch bytes[position] {
    case 90, 122: position += 1  // Z
    case 43, 45:  // + -
      let sign = bytes[position] == 45 ? -1 : 1
      position += 1
      guard let hours = number(2) else { return nil }
      _ = expect(58)
      guard let minutes = number(2) else { return nil }
      offset = sign * (hours * 3600 + minutes * 60)
    default: return nil
    }
    guard position == bytes.count, (1...12).contains(month),
      (1...daysIn(month, year)).contains(day),
      hour < 24, minute < 60, second < 61
    else { return nil }
    let days = daysFromCivil(year, month, day)
    let seconds = days * 86400 + hour * 3600 + minute * 60 + second - offset
    return Date(timeIntervalSince1970: Double(seconds) + fraction)
  }

  /// The furthest a written date may be from 1970, in seconds (about 31 million years):
  /// what fits the expanded form's nine year digits, comfortably inside `Int`'s range.
  static let writableInterval = 1e15

  /// UTC, with milliseconds when the date has a fraction of a second; years outside
  /// 0000–9999 in the expanded form (`+010000-…`).
  static func format(_ date: Date) throws -> String {
    let interval = date.timeIntervalSince1970
    guard interval.isFinite, abs(interval) <= writableInterval else {
      throw JSON.Error(
        .unencodable, "\(date) is too far from the present to be written as an ISO 8601 date")
    }
    var milliseconds = Int((interval * 1000).rounded(.toNearestOrEven))
    var seconds = milliseconds.quotientAndRemainder(dividingBy: 1000)
    if seconds.remainder < 0 {
      seconds = (seconds.quotient - 1, seconds.remainder + 1000)
    }
    milliseconds = seconds.remainder
    let days = seconds.quotient.quotientAndRemainder(dividingBy: 86400)
    var day = days.quotient
    var secondOfDay = days.remainder
    if secondOfDay < 0 {
      secondOfDay += 86400
      day -= 1
    }
    let (year, month, dayOfMonth) = civilFromDays(day)
    func pad(_ value: Int, _ width: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    let yearText =
      (0...9999).contains(year) ? pad(year, 4) : (year < 0 ? "-" : "+") + pad(abs(year), 6)
    var text = "\(yearText)-\(pad(month, 2))-\(pad(dayOfMonth, 2))T"
    text +=
      "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
    if milliseconds != 0 { text += ".\(pad(milliseconds, 3))" }
    return text + "Z"
  }

  static func daysIn(_ month: Int, _ year: Int) -> Int {
    switch month {
    case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
  static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146097 + dayOfEra - 719468
  }

  static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
    let z = days + 719468
    let era = (z >= 0 ? z : z - 146096) / 146097
    let dayOfEra = z - era * 146097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
