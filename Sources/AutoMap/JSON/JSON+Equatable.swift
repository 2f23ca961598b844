extension JSON: Equatable {
  /// Structural equality. Numbers compare by value (`1 == 1.0`), objects ignore member
  /// order, and any two ``missing(_:)`` values are equal (both are "no value").
  public static func == (lhs: JSON, rhs: JSON) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null), (.missing, .missing): true
    case (.bool(let a), .bool(let b)): a == b
    case (.number(let a), .number(let b)): a == b
    case (.string(let a), .string(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)): a == b
    default: false
    }
  }
}

extension JSON: Hashable {
  /// Hashes consistently with `==`: numbers by value, objects whatever their order.
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null: hasher.combine(0)
    case .missing: hasher.combine(1)
    case .bool(let value):
      hasher.combine(2)
      hasher.combine(value)
    case .number(let value):
      hasher.combine(3)
      hasher.combine(value)
    case .string(let value):
      hasher.combine(4)
      hasher.combine(value)
    case .array(let value):
      hasher.combine(5)
      hasher.combine(value)
    case .object(let value):
      hasher.combine(6)
      hasher.combine(value)
    }
  }
}
