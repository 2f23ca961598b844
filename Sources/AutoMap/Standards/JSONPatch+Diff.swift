extension JSON {
  /// A JSON Patch (RFC 6902) that turns `source` into `target`: applying it to `source` gives
  /// a value equal to `target`.
  ///
  /// ```swift
  /// let before: JSON = ["name": "Grace", "tags": ["navy", "cobol"]]
  /// let after: JSON = ["name": "Grace", "tags": ["navy"], "born": 1906]
  /// let patch = JSON.patch(from: before, to: after)
  /// // [{"op":"remove","path":"/tags/1"},{"op":"add","path":"/born","value":1906}]
  /// try before.applying(patch) == after        // true
  /// ```
  ///
  /// Objects are compared member by member and changed in place; arrays keep their common
  /// start and end and change the elements between, recursively where both sides have one;
  /// a value of another kind is replaced whole. Equal values (as `==` and the `test`
  /// operation see them) give an empty patch. The patch has no `test`, `move` or `copy`.
  ///
  /// Values of any depth diff without recursion, on any thread's stack, in memory that grows
  /// with the depth (one path, one entry per level being compared) and the patch.
  public static func patch(from source: JSON, to target: JSON) -> Patch {
    var differ = Differ()
    _ = differ.compare(source, target)
    differ.run()
    return Patch(differ.operations)
  }
}

/// The walk of ``JSON/patch(from:to:)``: the pairs of containers being compared, innermost
/// last, each with its next pair of members or elements, and the one path they are at. The
/// operations come out in the order a recursive walk gives: an object's removals, then its
/// members in the target's order; an array's shared middle, then its removals (last first)
/// and additions.
private struct Differ {
  var operations: [JSON.Patch.Operation] = []
  /// Where the innermost pair is: one step per container opened below the outermost.
  var path: [JSON.Index.Step] = []
  var open: [DiffFrame] = []

  /// Compares two values at `path`: nothing when they are identical, a `replace` when they
  /// differ and are not two containers of one kind, which open instead (`true`), an object's
  /// removals made now.
  mutating func compare(_ source: JSON, _ target: JSON) -> Bool {
    switch (source, target) {
    case (.object(let a), .object(let b)):
      for (key, _) in a where b[key] == nil { operations.append(.remove(at(.key(key)))) }
      open.append(DiffFrame(.objects(a, b), next: 0))
      return true
    case (.array(let a), .array(let b)):
      // Keep the common start and end; the middle elements that both sides have change in
      // place, the rest of the old middle is removed (last first) or the rest of the new one
      // added.
      var start = 0
      while start < a.count, start < b.count, a[start].isIdentical(to: b[start]) { start += 1 }
      var endA = a.count
      var endB = b.count
      while endA > start, endB > start, a[endA - 1].isIdentical(to: b[endB - 1]) {
        endA -= 1
        endB -= 1
      }
      open.append(DiffFrame(.arrays(a, b, endA: endA, endB: endB), next: start))
      return true
    default:
      if !source.isIdentical(to: target) {
        operations.append(.replace(JSON.Index(steps: path), target))
      }
      return false
    }
  }

  /// Compares the open pairs' members and elements until none is left.
  mutating func run() {
    while let last = open.indices.last {
      let position = open[last].next
      switch open[last].sides {
      case .objects(let a, let b):
        if position < b.count {
          open[last].next = position + 1
          let member = b.members[position]
          if let old = a[member.key] {
            descend(.key(member.key), old, member.value)
          } else {
            operations.append(.add(at(.key(member.key)), member.value))
          }
          continue
        }
      case .arrays(let a, let b, let endA, let endB):
        let sharedEnd = Swift.min(endA, endB)
        if position < sharedEnd {
          open[last].next = position + 1
          descend(.position(position), a[position], b[position])
          continue
        }
        for removed in stride(from: endA - 1, through: sharedEnd, by: -1) {
          operations.append(.remove(at(.position(removed))))
        }
        for added in sharedEnd..<Swift.max(endB, sharedEnd) {
          operations.append(.add(at(.position(added)), b[added]))
        }
      }
      open.removeLast()
      if !open.isEmpty { path.removeLast() }  // the outermost pair has no step
    }
  }

  /// Compares a pair one step down: the step stays on the path while the pair is open.
  private mutating func descend(_ step: JSON.Index.Step, _ source: JSON, _ target: JSON) {
    path.append(step)
    if !compare(source, target) { path.removeLast() }
  }

  /// The index one step below the path.
  private func at(_ step: JSON.Index.Step) -> JSON.Index { JSON.Index(steps: path + [step]) }
}

/// Two containers ``Differ`` is comparing, and the position of their next pair.
private struct DiffFrame {
  enum Sides {
    case objects(JSON.Object, JSON.Object)
    /// Arrays whose elements differ from the first position the frame starts at up to
    /// `endA` and `endB`.
    case arrays([JSON], [JSON], endA: Int, endB: Int)
  }

  let sides: Sides
  var next: Int

  init(_ sides: Sides, next: Int) {
    self.sides = sides
    self.next = next
  }
}
