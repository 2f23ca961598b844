import CAutoMapShims

/// Exact powers of ten for the fast path of double parsing (Clinger): a mantissa below 2^53
/// times or divided by one of these is correctly rounded by one IEEE operation.
private let exactPowersOfTen: [Double] = [
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
  1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

/// The exponents of ten that ``eiselLemire(_:_:)`` covers: those whose power of five has an
/// exact 64-bit reciprocal numerator or fits 128 bits, which covers everyday numbers
/// (coordinates, prices, measurements); the rest go to `strtod`.
private let eiselLemireExponents = -27...55

/// For each exponent `q` in ``eiselLemireExponents``: the 128 most significant bits of 10^q
/// (the same as those of 5^q), rounded down, as (high, low) words with the top bit set.
private let eiselLemirePowers: [(high: UInt64, low: UInt64)] = eiselLemireExponents.map { q in
  if q >= 0 {
    // 5^q is exact in 128 bits (5^55 < 2^128): shift it up until the top bit is set.
    var (high, low): (UInt64, UInt64) = (0, 1)
    for _ in 0..<q {
      let (carry, product) = low.multipliedFullWidth(by: 5)
      (high, low) = (high &* 5 &+ carry, product)
    }
    let shift = high == 0 ? 64 + low.leadingZeroBitCount : high.leadingZeroBitCount
    if shift >= 64 { return (low << (shift - 64), 0) }
    return shift == 0 ? (high, low) : (high << shift | low >> (64 - shift), low << shift)
  }
  // 5^-q < 2^64 (5^27 < 2^63): floor(2^(127 + bits) / 5^-q) lies in [2^127, 2^128).
  var divisor: UInt64 = 1
  for _ in 0 ..< -q { divisor *= 5 }
  let bits = 64 - divisor.leadingZeroBitCount
  // The dividend 2^(127 + bits) as three words, top first; divided one word at a time.
  var remainder: UInt64 = 0
  var quotient: [UInt64] = []
  for word in [UInt64(1) << (127 + bits - 128), 0, 0] {
    let (digit, rest) = divisor.dividingFullWidth((remainder, word))
    quotient.append(digit)
    remainder = rest
  }
  return (quotient[1], quotient[2])
}

/// The double nearest `significand × 10^exponent` by the Eisel–Lemire algorithm (after Go's
/// `strconv.eiselLemire64` and Nigel Tao's write-up): a 64×128-bit product with the
/// truncated power of ten, correctly rounded whenever it returns a value; `nil` when the
/// product is too close to call, the exponent is outside the table, or the result is
/// subnormal or infinite, for the caller to use `strtod`. `significand` must not be 0.
@inline(__always)
private func eiselLemire(_ significand: UInt64, _ exponent: Int) -> Double? {
  let index = exponent &- eiselLemireExponents.lowerBound
  guard index >= 0, index < eiselLemirePowers.count else { return nil }
  let power = eiselLemirePowers[index]
  // Normalization.
  let leadingZeros = significand.leadingZeroBitCount
  let normalized = significand << leadingZeros
  var exponent2 = UInt64(truncatingIfNeeded: (217_706 &* exponent) >> 16 &+ 64 &+ 1023)
  exponent2 &-= UInt64(leadingZeros)
  // Multiplication, widened when the low bits could carry into the result.
  var (high, low) = normalized.multipliedFullWidth(by: power.high)
  if high & 0x1FF == 0x1FF && low &+ normalized < low {
    let (wideHigh, wideLow) = normalized.multipliedFullWidth(by: power.low)
    let (mergedLow, carry) = low.addingReportingOverflow(wideHigh)
    let mergedHigh = carry ? high &+ 1 : high
    if mergedHigh & 0x1FF == 0x1FF && mergedLow == UInt64.max && wideLow &+ normalized < wideLow {
      return nil
    }
    (high, low) = (mergedHigh, mergedLow)
  }
  // Shifting to 54 bits.
  let topBit = high >> 63
  var mantissa = high >> (topBit + 9)
  exponent2 &-= 1 ^ topBit
  // Half-way ambiguity.
  if low == 0 && high & 0x1FF == 0 && mantissa & 3 == 1 { return nil }
  // From 54 to 53 bits, rounding to nearest even.
  mantissa &+= mantissa & 1
  mantissa >>= 1
  if mantissa >> 53 > 0 {
    mantissa >>= 1
    exponent2 &+= 1
  }
  // Subnormal, infinite or NaN: not handled here.
  if exponent2 &- 1 >= 0x7FF - 1 { return nil }
  return Double(bitPattern: exponent2 << 52 | mantissa & 0x000F_FFFF_FFFF_FFFF)
}

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
    if scan.droppedDigits == 0, mantissa != 0, let magnitude = eiselLemire(mantissa, exponent) {
      return scan.negative ? -magnitude : magnitude  // 16-19 digits (canada's coordinates)
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
