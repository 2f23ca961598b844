extension JSON: ExpressibleByNilLiteral {
  /// `nil` is JSON `null`.
  public init(nilLiteral: ()) { self = .null }
}

extension JSON: ExpressibleByBooleanLiteral {
  /// `true` or `false`.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSON: ExpressibleByIntegerLiteral {
  /// An exact integer: `let count: JSON = 3`.
  public init(integerLiteral value: Int64) { self = .number(Number(value)) }
}

extension JSON: ExpressibleByFloatLiteral {
  /// A double: `let ratio: JSON = 2.5`.
  public init(floatLiteral value: Double) { self = .number(Number(value)) }
}

extension JSON: ExpressibleByStringLiteral {
  /// A string: `let name: JSON = "Ada"`.
  public init(stringLiteral value: String) { self = .string(value) }
}

extension JSON: ExpressibleByArrayLiteral {
  /// An array: `let list: JSON = [1, "two", nil]`.
  public init(arrayLiteral elements: JSON...) { self = .array(elements) }
}

extension JSON: ExpressibleByDictionaryLiteral {
  /// An object literal; a repeated key keeps its last value.
  public init(dictionaryLiteral elements: (String, JSON)...) {
    self = .object(Object(elements))
  }
}

extension JSON {
  /// A number value from any integer.
  public init<T: BinaryInteger>(_ value: T) {
    if let int = Int64(exactly: value) {
      self = .number(Number(int))
    } else if let uint = UInt64(exactly: value) {
      self = .number(Number(uint))
    } else {
      // Beyond 64 bits (`Int128`, `UInt128`): kept exactly, as its text.
      let text = NumberText(text: String(value), double: Double(value))
      self = .number(Number(storage: .text(text)))
    }
  }

  /// A number value from a double.
  public init(_ value: Double) { self = .number(Number(value)) }

  /// A string value.
  public init(_ value: String) { self = .string(value) }

  /// A bool value.
  public init(_ value: Bool) { self = .bool(value) }
}
