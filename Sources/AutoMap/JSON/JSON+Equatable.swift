extension JSON: Equatable {
  /// Structural equality. Numbers compare by value (`1 == 1.0`), objects ignore member
  /// order, and any two ``missing(_:)`` values are equal (both are "no value").
  ///
  /// Compared without recursion (the pairs of values still to compare wait on a list), so
  /// that values as deep as ``maximumDepth`` compare on any thread's stack.
  public static func == (lhs: JSON, rhs: JSON) -> Bool {
    var pending: [(JSON, JSON)] = []
    var pair = (lhs, rhs)
    while true {
      switch pair {
      case (.null, .null), (.missing, .missing): break
      case (.bool(let a), .bool(let b)): if a != b { return false }
      case (.number(let a), .number(let b)): if a != b { return false }
      case (.string(let a), .string(let b)): if a != b { return false }
      case (.array(let a), .array(let b)):
        guard a.count == b.count else { return false }
        pending.append(contentsOf: zip(a, b))
      case (.object(let a), .object(let b)):
        guard a.pairsToCompare(with: b, into: &pending) else { return false }
      default: return false
      }
      guard let next = pending.popLast() else { return true }
      pair = next
    }
  }
}

extension JSON: Hashable {
  /// Hashes consistently with `==`: numbers by value, objects whatever their order.
  public func hash(into hasher: inout Hasher) { hash(into: &hasher, depth: 0) }

  /// Arrays and objects this deep add only their kind and size to a hash, not their values:
  /// equal values still hash alike, and hashing takes no more stack than this many levels.
  static var hashedDepth: Int { 32 }

  /// Hashes the value `depth` levels inside the one hashed.
  func hash(into hasher: inout Hasher, depth: Int) {
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
      hasher.combine(value.count)
      guard depth < Self.hashedDepth else { return }
      for element in value { element.hash(into: &hasher, depth: depth + 1) }
    case .object(let value):
      hasher.combine(6)
      value.hash(into: &hasher, depth: depth)
    }
  }
}
