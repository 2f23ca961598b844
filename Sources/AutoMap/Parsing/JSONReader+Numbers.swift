import CAutoMapShims

/// Exact powers of ten for the fast path of double parsing (Clinger): a mantissa below 2^53
/// times or divided by one of these is correctly rounded by one IEEE operation.
private let exactPowersOfTen: [Double] = [
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
  1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

/// A number's grammar, checked and split into parts, before it becomes a value.
struct NumberScan {
  /// The number's text: `start..<end`.
  let start: UnsafePointer<UInt8>
  let end: UnsafePointer<UInt8>
  /// The first 19 significant digits (20 when they still fit).
  let mantissa: UInt64
  /// The power of ten the mantissa is multiplied by.
  let exponent: Int
  let negative: Bool
  /// Written without fraction or exponent.
  let isInteger: Bool
  /// Significant digits beyond what the mantissa holds.
  let droppedDigits: Int

  /// An integer that a 64-bit integer holds as written (not `-0`).
  @inline(__always)
  var isPlainInteger: Bool { isInteger && droppedDigits == 0 && !(negative && mantissa == 0) }
}

extension JSONReader {
  /// Consumes a number at the cursor and returns it: an exact integer when written without
  /// fraction or exponent and within `Int64`/`UInt64`, otherwise the exact decimal value
  /// with its nearest `Double` (see ``JSON/Number``).
  @inline(__always)
  mutating func readNumber() throws -> JSON.Number {
    try number(from: scanNumber())
  }

  /// Consumes a number at the cursor, checking the RFC 8259 grammar: no leading zeros, no
  /// `+`, digits after `.` and `e`.
  @inline(__always)
  mutating func scanNumber() throws -> NumberScan {
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

    return NumberScan(
      start: numberStart, end: cursor, mantissa: mantissa, exponent: exponent,
      negative: negative, isInteger: isInteger, droppedDigits: droppedDigits)
  }

  /// The value of a scanned number. (`mutating` only so that the reader is not copied.)
  @inline(__always)
  mutating func number(from scan: NumberScan) throws -> JSON.Number {
    let (mantissa, exponent, negative) = (scan.mantissa, scan.exponent, scan.negative)
    if scan.isPlainInteger {  // the common case first
      if !negative { return JSON.Number(mantissa) }
      if mantissa <= UInt64(Int64.max) + 1 {
        return JSON.Number(storage: .int(Int64(bitPattern: 0 &- mantissa)))
      }
    }
    if scan.droppedDigits > 0 || exponent < Int(Int32.min) || exponent > Int(Int32.max) {
      return try textNumber(scan)  // more digits than a UInt64 holds: rare
    }
    if scan.isInteger {
      // -0, and integers below Int64.min: exact as a decimal (no integer type holds them).
      return JSON.Number(
        storage: .decimal(-Double(mantissa), significand: mantissa, exponent: 0))
    }
    let value = Self.double(of: scan)
    if !value.isFinite { return try textNumber(scan) }
    return JSON.Number(
      storage: .decimal(value, significand: mantissa, exponent: Int32(exponent)))
  }

  /// The correctly rounded `Double` of a scanned number (infinite beyond its range).
  @inline(__always)
  static func double(of scan: NumberScan) -> Double {
    let (mantissa, exponent) = (scan.mantissa, scan.exponent)
    if scan.droppedDigits == 0, mantissa <= 1 << 53, exponent >= -22, exponent <= 22 {
      // Fast path: exact mantissa and power of ten, one correctly rounded operation.
      var value = Double(mantissa)
      value =
        exponent < 0 ? value / exactPowersOfTen[-exponent] : value * exactPowersOfTen[exponent]
      return scan.negative ? -value : value
    }
    return Self.parseDouble(scan.start, scan.end)
  }

  /// The correctly rounded `Double` of the number text `start..<end` (locale-independent
  /// `strtod`).
  static func parseDouble(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> Double {
    let count = end - start
    return start.withMemoryRebound(to: CChar.self, capacity: count) { automap_strtod($0, count) }
  }

  /// A scanned number kept as its text: it has more significant digits than the inline form
  /// holds, or it is beyond `Double`'s range (an error when the reader
  /// ``rejectsUnrepresentableNumbers``; otherwise a value that fails only when converted).
  @inline(never)
  private mutating func textNumber(_ scan: NumberScan) throws -> JSON.Number {
    let (start, count) = (scan.start, scan.end - scan.start)
    let double = Self.parseDouble(start, scan.end)
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    if !double.isFinite && rejectsUnrepresentableNumbers {
      throw positionedError(
        at: start, { .numberOutOfRange(offset: $0, line: $1, column: $2) },
        "number out of range", "\(text) is beyond the range of Double")
    }
    return JSON.Number(storage: .text(NumberText(text: text, double: double)))
  }
}
