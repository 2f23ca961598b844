extension JSONReader {
  /// The error for a value of the wrong kind at the cursor: parses the value to say what it
  /// is, and leaves the cursor where it was.
  func mismatch(expected: String) -> JSON.Error {
    var probe = self
    guard let found = try? probe.parseValue() else { return probe.syntaxErrorOrGeneric() }
    return JSON.Error.mismatch(expected: expected, found: found)
  }

  /// Re-runs the failing parse to report its syntax error.
  private func syntaxErrorOrGeneric() -> JSON.Error {
    var probe = self
    do {
      _ = try probe.parseValue()
    } catch let error as JSON.Error {
      return error
    } catch {}
    return syntaxError(expected: "a JSON value")
  }

  /// Opens the array (`open` is `[`) or object (`{`) the caller expects, one level deeper,
  /// and returns whether it has elements; an empty one is closed already. Either way the
  /// caller calls ``leaveContainer()`` when done.
  ///
  /// ```swift
  /// let hasElements = try reader.openContainer(UInt8(ascii: "["), expected: "[Int]")
  /// defer { reader.leaveContainer() }
  /// if hasElements { repeat { … } while try reader.nextElement() }
  /// ```
  @inline(__always)
  mutating func openContainer(_ open: UInt8, expected: @autoclosure () -> String) throws -> Bool {
    // `expected` is called only here, inlined: passed on to a function that is not, its
    // captures (a plan, say) would be retained and released for every value.
    guard let hasElements = try openContainer(open) else {
      throw mismatch(expected: expected())
    }
    return hasElements
  }

  /// ``openContainer(_:expected:)`` without the error: `nil` when the value at the cursor is
  /// not an `open` container (nothing is consumed then).
  mutating func openContainer(_ open: UInt8) throws -> Bool? {
    guard peekByte() == open else { return nil }
    cursor += 1
    try enterContainer()
    guard peekByte() == open &+ 2 else { return true }  // `]` and `}` follow `[` and `{` by 2
    cursor += 1
    return false
  }

  /// Runs `read`; when it fails with a recoverable error (a value that does not map, as
  /// opposed to malformed text), the value is parsed to `JSON` and `confirm`, the `JSON`
  /// path's reading of it, decides: its result, or `nil` when it fails recoverably too. The
  /// byte path cannot tell on its own: a key repeated after the one that failed, for one,
  /// replaces it on the `JSON` path. Only values that fail pay.
  @inline(__always)
  mutating func readOrSkip<R>(
    _ read: (inout JSONReader) throws -> R, confirm: (JSON) throws -> R
  ) throws -> R? {
    let start = cursor
    let openDepth = depth
    do {
      return try read(&self)
    } catch {
      guard JSON.Error.wrapping(error).isRecoverable else { throw error }
      cursor = start
      depth = openDepth
      let json = try parseValue()
      do {
        return try confirm(json)
      } catch {
        guard JSON.Error.wrapping(error).isRecoverable else { throw error }
        // Left out: a substitution. The byte path runs only with substitutions held back,
        // to learn whether there were any (``ModelDecoding``); the path is the `JSON` path's.
        Substitutions.record(.lossyElement, replacement: "")
        return nil
      }
    }
  }

  /// Whether the next value is `null`; consumes it if so.
  @inline(__always)
  mutating func consumeNull() throws -> Bool {
    guard peekByte() == UInt8(ascii: "n") else { return false }
    try expectLiteral("null")
    return true
  }

  /// Reads an integral number that fits `T` exactly (`3`, `3.0` and `3e0` do; `3.5` does not).
  @inline(__always)
  mutating func readInteger<T: FixedWidthInteger>(_: T.Type) throws -> T {
    guard let byte = peekByte(), byte == UInt8(ascii: "-") || byte &- UInt8(ascii: "0") < 10 else {
      throw mismatch(expected: typeName(T.self))
    }
    let scan = try scanNumber()
    if scan.isPlainInteger {
      if !scan.negative {
        if let value = T(exactly: scan.mantissa) { return value }
      } else if scan.mantissa <= UInt64(Int64.max) + 1 {
        if let value = T(exactly: Int64(bitPattern: 0 &- scan.mantissa)) { return value }
      }
    }
    // Everything else decides from the exact value, as `JSON` values do.
    let number = try self.number(from: scan)
    if let value = number.exactly(T.self) { return value }
    throw JSON.Error.integerMismatch(T.self, number)
  }

  /// Reads any number as a `Double`.
  @inline(__always)
  mutating func readDouble() throws -> Double {
    guard let byte = peekByte(), byte == UInt8(ascii: "-") || byte &- UInt8(ascii: "0") < 10 else {
      throw mismatch(expected: "Double")
    }
    return try readFiniteDouble(for: "Double")
  }

  /// Reads the number at the cursor as a finite `Double`; beyond `Double`'s range it is an
  /// unusable value for a `type` property.
  @inline(__always)
  mutating func readFiniteDouble(for type: @autoclosure () -> String) throws -> Double {
    let scan = try scanNumber()
    if scan.isInteger && scan.droppedDigits == 0 {
      return scan.negative ? -Double(scan.mantissa) : Double(scan.mantissa)
    }
    let value = Self.double(of: scan)
    if value.isFinite { return value }
    return try JSON.Number.finiteDouble(number(from: scan), for: type())
  }

  @inline(__always)
  mutating func readBool() throws -> Bool {
    switch peekByte() {
    case UInt8(ascii: "t"):
      try expectLiteral("true")
      return true
    case UInt8(ascii: "f"):
      try expectLiteral("false")
      return false
    default: throw mismatch(expected: "Bool")
    }
  }

  /// Reads a string value (as opposed to ``readString()``, which expects the quote at the
  /// cursor and reports syntax errors).
  @inline(__always)
  mutating func readStringValue() throws -> String {
    guard peekByte() == UInt8(ascii: "\"") else { throw mismatch(expected: "String") }
    return try readString()
  }
}

extension JSON.Error {
  static func integerMismatch<T>(_: T.Type, _ number: JSON.Number) -> JSON.Error {
    let why = number.integerValue == .notIntegral ? "not an integer" : "out of range"
    return JSON.Error(
      .typeMismatch, "expected \(typeName(T.self)), found number \(number) (\(why))")
  }
}

extension JSON.Number {
  /// The nearest `Double`, which must be finite: a number beyond `Double`'s range is an
  /// unusable value for a `type` property (an error its fallback can recover).
  @inline(__always)
  static func finiteDouble(_ number: JSON.Number, for type: @autoclosure () -> String) throws
    -> Double
  {
    let value = number.doubleValue
    guard value.isFinite else {
      throw JSON.Error(
        .typeMismatch, "expected \(type()), found number \(number) (out of range)")
    }
    return value
  }
}
