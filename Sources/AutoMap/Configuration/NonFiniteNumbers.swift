/// Reading and writing NaN and ±infinity as strings, when the call's
/// ``JSON/Configuration/nonFiniteNumbers`` says so.
///
/// The byte paths reach these functions only after a number failed to read or write, so
/// calls that never meet a non-finite value pay nothing; the `JSON` paths ask only when the
/// value is a string (decoding) or not finite (encoding).
extension JSON.NonFiniteNumbers {
  /// The value `text` names, or `nil`.
  func value<T: BinaryFloatingPoint>(_ text: String, as _: T.Type) -> T? {
    guard case .strings(let positive, let negative, let nan) = self else { return nil }
    switch text {
    case positive: return .infinity
    case negative: return -.infinity
    case nan: return .nan
    default: return nil
    }
  }

  /// The string for a non-finite `value`, or `nil` (finite, or not configured).
  func string<T: BinaryFloatingPoint>(for value: T) -> String? {
    guard case .strings(let positive, let negative, let nan) = self, !value.isFinite else {
      return nil
    }
    return value.isNaN ? nan : value < 0 ? negative : positive
  }
}

enum NonFinite {
  /// The error for a string where a `type` number was expected: says how to read it when it
  /// is a usual spelling of a non-finite number.
  static func mismatch(_ text: String, expected type: String) -> JSON.Error {
    let spellings: Set<String> = [
      "nan", "inf", "-inf", "+inf", "infinity", "-infinity", "+infinity",
    ]
    var message = "expected \(type), found string \(JSON.string(text))"
    if spellings.contains(text.lowercased()) {
      // A call that set `.error` reads none, as a call that set nothing: the same hint.
      if let strings = ConfigurationContext.current?.nonFiniteNumbers, strings != .error {
        message += " (the call reads non-finite numbers only as \(strings.spellings))"
      } else {
        message +=
          " (non-finite numbers are read from strings only with JSON.Configuration's"
          + " nonFiniteNumbers = .strings())"
      }
    }
    return JSON.Error(.typeMismatch, message)
  }

  /// A floating-point value from a `JSON` string, per the call's configuration; throws the
  /// usual mismatch for anything else.
  static func decode<T: BinaryFloatingPoint>(_ json: JSON, as _: T.Type) throws -> T {
    guard case .string(let text) = json else {
      throw JSON.Error.mismatch(expected: typeName(T.self), found: json)
    }
    if let value = ConfigurationContext.current?.nonFiniteNumbers?.value(text, as: T.self) {
      return value
    }
    throw mismatch(text, expected: typeName(T.self))
  }

  /// The JSON for a non-finite value: its configured string, else the number (which the
  /// writer refuses, naming it).
  @inline(never)
  static func json<T: BinaryFloatingPoint>(_ value: T) -> JSON {
    if let text = ConfigurationContext.current?.nonFiniteNumbers?.string(for: value) {
      return .string(text)
    }
    return JSON(Double(value))
  }
}

extension JSON.NonFiniteNumbers {
  /// For messages: `"Infinity", "-Infinity" and "NaN"`.
  fileprivate var spellings: String {
    guard case .strings(let positive, let negative, let nan) = self else { return "errors" }
    return "\(JSON.string(positive)), \(JSON.string(negative)) and \(JSON.string(nan))"
  }
}

extension JSONReader {
  /// Reads a `Double` as ``readDouble()`` does, or a configured non-finite string where a
  /// number does not start: the check sits on the branch that already fails, so a number
  /// costs what it costs through ``readDouble()`` (a `do`/`catch` around it did not: about
  /// three instructions a number, measured with callgrind).
  @inline(__always)
  mutating func readConfiguredDouble() throws -> Double {
    guard let byte = peekByte(), byte == UInt8(ascii: "-") || byte &- UInt8(ascii: "0") < 10 else {
      return try readNonFinite(Double.self, after: mismatch(expected: "Double"))
    }
    return try readFiniteDouble(for: "Double")
  }

  /// After reading a number failed with `error`: the configured non-finite value the string
  /// at the cursor names, or `error` again.
  @inline(never)
  mutating func readNonFinite<T: BinaryFloatingPoint>(_: T.Type, after error: any Error) throws
    -> T
  {
    guard let strings = ConfigurationContext.current?.nonFiniteNumbers,
      peekByte() == UInt8(ascii: "\"")
    else { throw error }
    var probe = self
    guard let value = strings.value(try probe.readString(), as: T.self) else { throw error }
    self = probe
    return value
  }
}

extension JSONWriter {
  /// Writes a `Double`, or its configured string when it is not finite.
  @inline(__always)
  mutating func writeConfiguredDouble(_ value: Double) throws {
    do {
      try writeDouble(value)
    } catch {
      try writeNonFinite(value, after: error)
    }
  }

  /// After writing `value` failed with `error`: its configured string, or `error` again.
  @inline(never)
  mutating func writeNonFinite<T: BinaryFloatingPoint>(_ value: T, after error: any Error) throws {
    guard let text = ConfigurationContext.current?.nonFiniteNumbers?.string(for: value) else {
      throw error
    }
    writeString(text)
  }
}
