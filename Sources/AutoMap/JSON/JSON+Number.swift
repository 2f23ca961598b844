extension JSON {
  /// A JSON number: an exact integer across the whole `Int64` and `UInt64` ranges, or a
  /// `Double`.
  ///
  /// Numbers compare and hash by value, so `1`, `1.0` and `1e0` are the same number:
  ///
  /// ```swift
  /// let big: JSON = 18_446_744_073_709_551_615   // UInt64.max, exact
  /// UInt64(big)                                  // 18446744073709551615
  /// Int(big)                                     // nil: does not fit
  /// JSON(2.5) == 2.5                             // true
  /// ```
  public struct Number: Sendable {
    enum Storage: Sendable {
      case int(Int64)
      case uint(UInt64)  // only for values above Int64.max
      case double(Double)
    }

    var storage: Storage

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
      if case .double = storage { return false }
      return true
    }

    /// The nearest `Double`.
    public var doubleValue: Double {
      switch storage {
      case .int(let value): Double(value)
      case .uint(let value): Double(value)
      case .double(let value): value
      }
    }

    /// The value as `Int64` when it is integral and fits exactly, else `nil`.
    public var int64Value: Int64? {
      switch storage {
      case .int(let value): return value
      case .uint: return nil
      case .double(let value): return Int64(exactly: value)
      }
    }

    /// The value as `UInt64` when it is integral, not negative and fits exactly, else `nil`.
    public var uint64Value: UInt64? {
      switch storage {
      case .int(let value): return value >= 0 ? UInt64(value) : nil
      case .uint(let value): return value
      case .double(let value): return UInt64(exactly: value)
      }
    }

    /// The value as `T` when it is integral and fits exactly, else `nil`.
    public func exactly<T: FixedWidthInteger>(_: T.Type = T.self) -> T? {
      switch storage {
      case .int(let value): return T(exactly: value)
      case .uint(let value): return T(exactly: value)
      case .double(let value): return T(exactly: value)
      }
    }
  }
}

extension JSON.Number: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs.storage, rhs.storage) {
    case (.int(let a), .int(let b)): return a == b
    case (.uint(let a), .uint(let b)): return a == b
    case (.double(let a), .double(let b)): return a == b
    case (.int, .uint), (.uint, .int): return false  // .uint holds only values above Int64.max
    case (.double(let d), .int(let i)), (.int(let i), .double(let d)): return Int64(exactly: d) == i
    case (.double(let d), .uint(let u)), (.uint(let u), .double(let d)):
      return UInt64(exactly: d) == u
    }
  }
}

extension JSON.Number: Hashable {
  public func hash(into hasher: inout Hasher) {
    // Equal numbers hash alike: integral doubles hash as the integer they equal.
    switch storage {
    case .int(let value): hasher.combine(value)
    case .uint(let value): hasher.combine(value)
    case .double(let value):
      if let int = Int64(exactly: value) {
        hasher.combine(int)
      } else if let uint = UInt64(exactly: value) {
        hasher.combine(uint)
      } else {
        hasher.combine(value)
      }
    }
  }
}

extension JSON.Number: CustomStringConvertible {
  /// The number as JSON text: integers exactly, doubles in their shortest round-trip form.
  public var description: String {
    switch storage {
    case .int(let value): String(value)
    case .uint(let value): String(value)
    case .double(let value): value.description
    }
  }
}

extension JSON.Number: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
  public init(integerLiteral value: Int64) { self.init(value) }
  public init(floatLiteral value: Double) { self.init(value) }
}
