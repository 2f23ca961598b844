extension JSON {
  /// A JSON number, kept exactly as the text wrote it.
  ///
  /// Integers are exact across the whole `Int64` and `UInt64` ranges. A number written with a
  /// fraction or an exponent keeps both its nearest `Double` and its exact decimal value, so
  /// that integer types read `9007199254740993.0` as 9007199254740993 (not through `Double`),
  /// `Decimal` reads every digit it can hold, and writing it back gives the same digits.
  ///
  /// Numbers compare and hash by value, so `1`, `1.0` and `1e0` are the same number:
  ///
  /// ```swift
  /// let big: JSON = 18_446_744_073_709_551_615   // UInt64.max, exact
  /// UInt64(big)                                  // 18446744073709551615
  /// Int(big)                                     // nil: does not fit
  /// JSON(2.5) == 2.5                             // true
  /// try Int(decode: JSON(jsonString: "12e2"))    // 1200
  /// ```
  public struct Number: Sendable {
    enum Storage: Sendable {
      case int(Int64)
      case uint(UInt64)  // only for values above Int64.max
      /// From a Swift `Double`.
      case double(Double)
      /// Parsed text with a fraction or exponent (or an integer beyond `Int64`): the
      /// correctly rounded double, and the exact value `significand × 10^exponent` with the
      /// double's sign (which keeps `-0`).
      case decimal(Double, significand: UInt64, exponent: Int32)
      /// Parsed text that does not fit `decimal` (more than 19 significant digits, or beyond
      /// `Double`'s range): the text itself.
      case text(NumberText)
    }

    var storage: Storage

    init(storage: Storage) { self.storage = storage }

    /// A number from a signed integer.
    public init(_ value: Int64) { storage = .int(value) }

    /// A number from an unsigned integer.
    public init(_ value: UInt64) {
      storage = value <= UInt64(Int64.max) ? .int(Int64(value)) : .uint(value)
    }

    /// A number from a double. Non-finite values are kept but cannot be written as JSON.
    public init(_ value: Double) { storage = .double(value) }

    /// Whether the number was written without fraction or exponent and kept as an integer.
    public var isInteger: Bool {
      switch storage {
      case .int, .uint: true
      case .double, .decimal, .text: false
      }
    }

    /// The nearest `Double` (infinite for a number beyond `Double`'s range).
    public var doubleValue: Double {
      switch storage {
      case .int(let value): Double(value)
      case .uint(let value): Double(value)
      case .double(let value): value
      case .decimal(let value, _, _): value
      case .text(let text): text.double
      }
    }

    /// The value as `Int64` when it is integral and fits exactly, else `nil`.
    public var int64Value: Int64? { exactly(Int64.self) }

    /// The value as `UInt64` when it is integral, not negative and fits exactly, else `nil`.
    public var uint64Value: UInt64? { exactly(UInt64.self) }

    /// The value as `T` when it is integral and fits exactly, else `nil`. Decided from the
    /// exact value, never from the nearest `Double`.
    ///
    /// ```swift
    /// let number: JSON.Number = 300
    /// number.exactly(Int16.self)  // 300
    /// number.exactly(Int8.self)  // nil: out of range
    /// ```
    public func exactly<T: FixedWidthInteger>(_: T.Type = T.self) -> T? {
      switch storage {
      case .int(let value): return T(exactly: value)
      case .uint(let value): return T(exactly: value)
      default:
        if T.bitWidth > 64 { return wideExactly(T.self) }
        guard case .exact(let negative, let magnitude) = integerValue else { return nil }
        guard negative else { return T(exactly: magnitude) }
        if magnitude > UInt64(Int64.max) + 1 { return nil }
        return T(exactly: Int64(bitPattern: 0 &- magnitude))
      }
    }

    /// What the exact value is as an integer.
    enum IntegerValue: Equatable {
      case exact(negative: Bool, magnitude: UInt64)
      case notIntegral
      /// Integral, but beyond 64 bits.
      case outOfRange
    }

    var integerValue: IntegerValue {
      switch storage {
      case .int(let value): return .exact(negative: value < 0, magnitude: value.magnitude)
      case .uint(let value): return .exact(negative: false, magnitude: value)
      case .double(let value):
        guard value.isFinite, value.rounded(.towardZero) == value else { return .notIntegral }
        guard let magnitude = UInt64(exactly: value.magnitude) else { return .outOfRange }
        return .exact(negative: value < 0 && magnitude != 0, magnitude: magnitude)
      case .decimal(let double, let significand, let exponent):
        return DecimalDigits.integerValue(
          significand: significand, exponent: Int(exponent), negative: double.sign == .minus)
      case .text(let text): return text.integerValue
      }
    }
  }
}

/// A number kept as its text: one with more significant digits than a `UInt64` holds, or
/// beyond `Double`'s range. Rare, so it may cost an allocation.
final class NumberText: Sendable {
  /// The number's JSON text.
  let text: String
  /// The nearest double (infinite beyond `Double`'s range).
  let double: Double
  let integerValue: JSON.Number.IntegerValue

  init(text: String, double: Double) {
    self.text = text
    self.double = double
    integerValue = DecimalDigits.integerValue(text: text)
  }
}

/// Exact decimal arithmetic on a number's digits: is it an integer, and which.
enum DecimalDigits {
  private static let powersOfTen: [UInt64] = (0...19).map { exponent in
    (0..<exponent).reduce(UInt64(1)) { value, _ in value * 10 }
  }

  /// `significand × 10^exponent` as an integer, if it is one.
  static func integerValue(significand: UInt64, exponent: Int, negative: Bool)
    -> JSON.Number.IntegerValue
  {
    if significand == 0 { return .exact(negative: false, magnitude: 0) }
    if exponent >= 0 {
      guard exponent < powersOfTen.count else { return .outOfRange }
      let (product, overflow) = significand.multipliedReportingOverflow(by: powersOfTen[exponent])
      return overflow ? .outOfRange : .exact(negative: negative, magnitude: product)
    }
    guard -exponent < powersOfTen.count else { return .notIntegral }  // significand < 10^20
    let divisor = powersOfTen[-exponent]
    guard significand % divisor == 0 else { return .notIntegral }
    return .exact(negative: negative, magnitude: significand / divisor)
  }

  /// The same for a number's JSON text, digit by digit.
  static func integerValue(text: String) -> JSON.Number.IntegerValue {
    var (negative, digits, exponent) = split(text)
    while digits.last == 0 {
      digits.removeLast()
      exponent += 1
    }
    if digits.isEmpty { return .exact(negative: false, magnitude: 0) }
    if exponent < 0 { return .notIntegral }
    if digits.count + exponent > 20 { return .outOfRange }
    var magnitude: UInt64 = 0
    for digit in digits + Array(repeating: 0, count: exponent) {
      let (tens, overflow) = magnitude.multipliedReportingOverflow(by: 10)
      let (sum, carry) = tens.addingReportingOverflow(UInt64(digit))
      if overflow || carry { return .outOfRange }
      magnitude = sum
    }
    return .exact(negative: negative, magnitude: magnitude)
  }

  /// A number's JSON text as its sign, its significant digits (leading zeros dropped) and the
  /// power of ten they are multiplied by.
  static func split(_ text: String) -> (negative: Bool, digits: [UInt8], exponent: Int) {
    var digits: [UInt8] = []  // significant digits, leading zeros dropped
    var exponent = 0
    var negative = false
    var seenPoint = false
    var bytes = Array(text.utf8)[...]
    if bytes.first == UInt8(ascii: "-") {
      negative = true
      bytes = bytes.dropFirst()
    }
    while let byte = bytes.first, byte != UInt8(ascii: "e"), byte != UInt8(ascii: "E") {
      bytes = bytes.dropFirst()
      if byte == UInt8(ascii: ".") {
        seenPoint = true
        continue
      }
      let digit = byte &- UInt8(ascii: "0")
      guard digit < 10 else { continue }
      if seenPoint { exponent -= 1 }
      if digits.isEmpty && digit == 0 { continue }
      digits.append(digit)
    }
    if !bytes.isEmpty {  // the exponent
      bytes = bytes.dropFirst()
      var exponentNegative = false
      if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
        exponentNegative = sign == UInt8(ascii: "-")
        bytes = bytes.dropFirst()
      }
      var explicit = 0
      for byte in bytes where explicit < 1_000_000_000 {
        explicit = explicit * 10 + Int(byte &- UInt8(ascii: "0"))
      }
      exponent += exponentNegative ? -explicit : explicit
    }
    return (negative, digits, exponent)
  }

}

extension JSON.Number: Equatable {
  /// Numbers are equal when their values are: exactly for integers (`9007199254740993.0`
  /// equals `9007199254740993`, not `9007199254740992`), through `Double` otherwise.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs.storage, rhs.storage) {
    case (.int(let a), .int(let b)): return a == b
    case (.double(let a), .double(let b)): return a == b
    case (
      .decimal(let a, let aSignificand, let aExponent),
      .decimal(let b, let bSignificand, let bExponent)
    ):
      // Two parsed numbers, without working out `canonical` for each (which took `==` of
      // number-heavy documents past a parse's time). Different nearest doubles mean different
      // values (rounding keeps order); the same double and digits, the same value. Anything
      // else (`1.5` and `1.50`) is decided below.
      if a != b { return false }
      if aSignificand == bSignificand, aExponent == bExponent { return true }
    default: break
    }
    return lhs.canonical == rhs.canonical
  }
}

extension JSON.Number: Hashable {
  /// Equal numbers hash alike.
  public func hash(into hasher: inout Hasher) {
    if case .int(let value) = storage {
      hasher.combine(Canonical.integer(negative: value < 0, magnitude: value.magnitude))
    } else {
      hasher.combine(canonical)
    }
  }
}

extension JSON.Number {
  /// What equality and hashing compare: the exact integer when the value is one that fits
  /// 64 bits, the nearest `Double` otherwise.
  enum Canonical: Hashable {
    case integer(negative: Bool, magnitude: UInt64)
    case double(Double)
  }

  var canonical: Canonical {
    if case .exact(let negative, let magnitude) = integerValue {
      return .integer(negative: negative && magnitude != 0, magnitude: magnitude)
    }
    let double = doubleValue
    if double.isFinite, double.rounded(.towardZero) == double,
      let magnitude = UInt64(exactly: double.magnitude)
    {
      return .integer(negative: double < 0 && magnitude != 0, magnitude: magnitude)
    }
    return .double(double)
  }
}

extension JSON.Number: CustomStringConvertible {
  /// The number as JSON text: integers exactly, parsed numbers with the digits they were
  /// read with, doubles in their shortest round-trip form.
  public var description: String {
    switch storage {
    case .int(let value): String(value)
    case .uint(let value): String(value)
    case .double(let value): value.description
    case .decimal:
      // The writer's spelling, so that messages show what would be written.
      JSONWriter.text { try $0.writeNumber(self) }
    case .text(let text): text.text
    }
  }
}

extension JSON.Number: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
  /// A number from an integer literal.
  public init(integerLiteral value: Int64) { self.init(value) }
  /// A number from a floating-point literal.
  public init(floatLiteral value: Double) { self.init(value) }
}
