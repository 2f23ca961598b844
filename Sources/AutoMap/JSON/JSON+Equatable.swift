extension JSON: Equatable {
  /// Structural equality. Numbers compare by value (`1 == 1.0`), objects ignore member
  /// order, and any two ``missing(_:)`` values are equal (both are "no value"). Arrays and
  /// objects that share their storage are equal without a look inside, as `Array`'s `==` has
  /// it: a value holding NaN (which only code can put there) equals its copy.
  ///
  /// Compared without recursion, so that values as deep as ``maximumDepth`` compare on any
  /// thread's stack.
  public static func == (lhs: JSON, rhs: JSON) -> Bool {
    equal(lhs, rhs, stringsByCodePoints: false)
  }

  /// `==`, or, when `stringsByCodePoints`, equality as RFC 6902's `test` defines it: strings
  /// compare by their Unicode scalars instead of by canonical equivalence.
  ///
  /// The containers being compared wait on a list, each with the position of its next pair of
  /// values: the walk takes no stack however deep the values are, and no memory beyond one
  /// entry per level however wide. Each pair of values is compared once (in order when the
  /// keys are, the usual case; by key otherwise: comparing in order and then again by key,
  /// on a mismatch, took time exponential in the depth of two documents that differ at their
  /// bottom). Containers that share their storage are equal without a look inside, as
  /// `Array`'s own `==` has it.
  static func equal(_ lhs: JSON, _ rhs: JSON, stringsByCodePoints: Bool) -> Bool {
    var open: [ComparedContainers] = []
    switch compared(lhs, rhs, stringsByCodePoints) {
    case .equal: return true
    case .unequal: return false
    case .open(let containers): open.append(containers)
    }
    // The innermost open pair's values, from its next position: scalars compare here, a pair
    // of containers opens on top and is compared first.
    next: while let last = open.indices.last {
      let sides = open[last].sides
      var position = open[last].next
      while position < open[last].count {
        guard let (a, b) = sides.pair(at: position) else { return false }
        position += 1
        switch compared(a, b, stringsByCodePoints) {
        case .equal: continue
        case .unequal: return false
        case .open(let inner):
          open[last].next = position
          open.append(inner)
          continue next
        }
      }
      open.removeLast()
    }
    return true
  }

  /// Two values compared as far as they can be without looking inside containers: equal,
  /// unequal, or two containers of one kind and size whose contents decide.
  @inline(__always)
  private static func compared(
    _ lhs: JSON, _ rhs: JSON, _ stringsByCodePoints: Bool
  ) -> ComparedContainers.Outcome {
    switch lhs {
    case .null:
      guard case .null = rhs else { return .unequal }
    case .missing:
      guard case .missing = rhs else { return .unequal }
    case .bool(let a):
      guard case .bool(let b) = rhs, a == b else { return .unequal }
    case .number(let a):
      guard case .number(let b) = rhs, a == b else { return .unequal }
    case .string(let a):
      guard case .string(let b) = rhs else { return .unequal }
      guard stringsByCodePoints ? sameKey(a, b) : a == b else { return .unequal }
    case .array(let a):
      guard case .array(let b) = rhs, a.count == b.count else { return .unequal }
      if a.isEmpty || sharesStorage(a, b) { return .equal }
      return .open(ComparedContainers(.elements(a, b)))
    case .object(let a):
      guard case .object(let b) = rhs, a.count == b.count else { return .unequal }
      if a.count == 0 || sharesStorage(a.members, b.members) { return .equal }
      let aligned = zip(a.members, b.members).allSatisfy { sameKey($0.key, $1.key) }
      return .open(
        ComparedContainers(
          aligned ? .alignedMembers(a.members, b.members) : .lookedUp(a.members, b)))
    }
    return .equal
  }

  /// Whether two arrays of the same count are one storage (so equal element by element).
  private static func sharesStorage<Element>(_ a: [Element], _ b: [Element]) -> Bool {
    a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { a.baseAddress == $0.baseAddress } }
  }
}

/// Two containers `JSON.equal` is comparing, and the position of their next pair of values.
private struct ComparedContainers {
  enum Sides {
    case elements([JSON], [JSON])
    /// Objects whose keys are in the same order: members compare position by position.
    case alignedMembers([JSON.Object.Member], [JSON.Object.Member])
    /// Objects in different orders: each member of the first is looked up in the second.
    case lookedUp([JSON.Object.Member], JSON.Object)

    /// The values at `position` on both sides; nil when the first object's key there is not
    /// in the second.
    @inline(__always)
    func pair(at position: Int) -> (JSON, JSON)? {
      switch self {
      case .elements(let a, let b): return (a[position], b[position])
      case .alignedMembers(let a, let b): return (a[position].value, b[position].value)
      case .lookedUp(let a, let b):
        guard let match = b[a[position].key] else { return nil }
        return (a[position].value, match)
      }
    }
  }

  /// What comparing two values without looking inside containers says.
  enum Outcome {
    case equal
    case unequal
    case open(ComparedContainers)
  }

  let sides: Sides
  let count: Int
  var next = 0

  init(_ sides: Sides) {
    self.sides = sides
    switch sides {
    case .elements(let a, _): count = a.count
    case .alignedMembers(let a, _), .lookedUp(let a, _): count = a.count
    }
  }
}
