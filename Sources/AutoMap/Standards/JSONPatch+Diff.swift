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
  public static func patch(from source: JSON, to target: JSON) -> Patch {
    var operations: [Patch.Operation] = []
    // What is left to do, the next last: pairs of values to compare, and the operations found
    // between them. Comparing a pair puts its steps in its place, in order, so the operations
    // come out in the order a recursive walk gives, without recursion: values of any depth
    // diff on any thread's stack.
    var pending: [DiffStep] = [.compare(source, target, at: [])]
    var steps: [DiffStep] = []
    while let step = pending.popLast() {
      switch step {
      case .emit(let operation):
        operations.append(operation)
      case .compare(let source, let target, let path):
        diff(source, target, at: path, into: &steps)
        pending.append(contentsOf: steps.reversed())
        steps.removeAll(keepingCapacity: true)
      }
    }
    return Patch(operations)
  }

  /// One step of ``patch(from:to:)``: a pair of values to compare at a path, or an operation.
  private enum DiffStep {
    case compare(JSON, JSON, at: [Index.Step])
    case emit(Patch.Operation)
  }

  /// The steps that turn `source` into `target`, one level down: the operations at this level
  /// and the pairs of members or elements to compare next.
  private static func diff(
    _ source: JSON, _ target: JSON, at path: [Index.Step], into steps: inout [DiffStep]
  ) {
    switch (source, target) {
    case (.object(let a), .object(let b)):
      for (key, _) in a where b[key] == nil {
        steps.append(.emit(.remove(Index(steps: path + [.key(key)]))))
      }
      for (key, value) in b {
        if let old = a[key] {
          steps.append(.compare(old, value, at: path + [.key(key)]))
        } else {
          steps.append(.emit(.add(Index(steps: path + [.key(key)]), value)))
        }
      }
    case (.array(let a), .array(let b)):
      diffArrays(a, b, at: path, into: &steps)
    default:
      if !source.isIdentical(to: target) {
        steps.append(.emit(.replace(Index(steps: path), target)))
      }
    }
  }

  /// Keeps the common start and end; the middle elements that both sides have change in
  /// place, the rest of the old middle is removed (last first) or the rest of the new one
  /// added.
  private static func diffArrays(
    _ a: [JSON], _ b: [JSON], at path: [Index.Step], into steps: inout [DiffStep]
  ) {
    var start = 0
    while start < a.count, start < b.count, a[start].isIdentical(to: b[start]) { start += 1 }
    var endA = a.count
    var endB = b.count
    while endA > start, endB > start, a[endA - 1].isIdentical(to: b[endB - 1]) {
      endA -= 1
      endB -= 1
    }
    let shared = Swift.min(endA, endB) - start
    for offset in 0..<shared {
      let position = start + offset
      steps.append(.compare(a[position], b[position], at: path + [.position(position)]))
    }
    // Past the shared middle: remove what only the source has, from the last down...
    var position = endA - 1
    while position >= start + shared {
      steps.append(.emit(.remove(Index(steps: path + [.position(position)]))))
      position -= 1
    }
    // ...or insert what only the target has, before the common end.
    for position in (start + shared)..<Swift.max(endB, start + shared) {
      steps.append(.emit(.add(Index(steps: path + [.position(position)]), b[position])))
    }
  }
}
