import CAutoMapShims

/// Exact powers of ten for the fast path of double parsing (Clinger): a mantissa below 2^53
/// times or divided by one of these is correctly rounded by one IEEE operation.
private let exactPowersOfTen: [Double] = [
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
  1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

extension JSONReader {
  /// Consumes a number at the cursor and returns it: an exact integer when written without
  /// fraction or exponent and within `Int64`/`UInt64`, otherwise the nearest `Double`.
  ///
  /// Checks the RFC 8259 grammar: no leading zeros, no `+`, digits after `.` and `e`.
  /// A number too large for a `Double` is an error rather than infinity.
  @inline(__always)
  mutating func readNumber() throws -> JSON.Number {
    let numberStart = cursor
    var negative = false
    if cursor < end && cursor.pointee == UInt8(ascii: "-") {
      negative = true
      cursor += 1
    }
    // Integer part.
    guard cursor < end, case let first = cursor.pointee &- UInt8(ascii: "0"), first < 10 else {
      throw syntaxError(
        negative
          ? "expected a digit after '-', found \(describeByte(at: cursor))"
          : "expected a JSON value, found \(describeByte(at: cursor))")
    }
    var mantissa = UInt64(first)
    var significantDigits = first == 0 ? 0 : 1
    var droppedDigits = 0  // integer digits beyond 19, dropped from the mantissa
    cursor += 1
    if first == 0 {
      if cursor < end, cursor.pointee &- UInt8(ascii: "0") < 10 {
        throw syntaxError("leading zero in number", at: numberStart)
      }
    } else {
      while cursor < end, case let digit = cursor.pointee &- UInt8(ascii: "0"), digit < 10 {
        if significantDigits < 19 {
          mantissa = mantissa &* 10 &+ UInt64(digit)
          significantDigits += 1
        } else if droppedDigits == 0,
          case let (tens, over) = mantissa.multipliedReportingOverflow(by: 10),
          !over, case let (sum, carry) = tens.addingReportingOverflow(UInt64(digit)), !carry
        {
          mantissa = sum  // a 20th digit that still fits UInt64
          significantDigits += 1
        } else {
          droppedDigits += 1
        }
        cursor += 1
      }
    }
    var isInteger = true
    var exponent = droppedDigits
    // Fraction.
    if cursor < end, cursor.pointee == UInt8(ascii: ".") {
      isInteger = false
      cursor += 1
      guard cursor < end, cursor.pointee &- UInt8(ascii: "0") < 10 else {
        throw syntaxError("expected a digit after '.', found \(describeByte(at: cursor))")
      }
      while cursor < end, case let digit = cursor.pointee &- UInt8(ascii: "0"), digit < 10 {
        if significantDigits < 19 {
          if mantissa != 0 || digit != 0 { significantDigits += 1 }
          mantissa = mantissa &* 10 &+ UInt64(digit)
          exponent -= 1
        } else {
          droppedDigits += 1
        }
        cursor += 1
      }
    }
    // Exponent.
    if cursor < end, cursor.pointee | 0x20 == UInt8(ascii: "e") {
      isInteger = false
      cursor += 1
      var exponentNegative = false
      if cursor < end, cursor.pointee == UInt8(ascii: "+") || cursor.pointee == UInt8(ascii: "-") {
        exponentNegative = cursor.pointee == UInt8(ascii: "-")
        cursor += 1
      }
      guard cursor < end, cursor.pointee &- UInt8(ascii: "0") < 10 else {
        throw syntaxError("expected a digit in exponent, found \(describeByte(at: cursor))")
      }
      var explicit = 0
      while cursor < end, case let digit = cursor.pointee &- UInt8(ascii: "0"), digit < 10 {
        if explicit < 1_000_000 { explicit = explicit * 10 + Int(digit) }
        cursor += 1
      }
      exponent += exponentNegative ? -explicit : explicit
    }

    if isInteger && droppedDigits == 0 {
      if !negative { return JSON.Number(mantissa) }
      if mantissa <= UInt64(Int64.max) { return JSON.Number(-Int64(mantissa)) }
      if mantissa == UInt64(Int64.max) + 1 { return JSON.Number(Int64.min) }
    }
    // Fast path: exact mantissa and exponent, one correctly rounded operation.
    if droppedDigits == 0, mantissa <= 1 << 53, exponent >= -22, exponent <= 22 {
      var value = Double(mantissa)
      value =
        exponent < 0 ? value / exactPowersOfTen[-exponent] : value * exactPowersOfTen[exponent]
      return JSON.Number(negative ? -value : value)
    }
    let value = numberStart.withMemoryRebound(to: CChar.self, capacity: cursor - numberStart) {
      automap_strtod($0, cursor - numberStart)
    }
    guard value.isFinite else {
      throw syntaxError("number too large for a Double", at: numberStart)
    }
    return JSON.Number(value)
  }
}
