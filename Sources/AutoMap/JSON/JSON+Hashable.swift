extension JSON: Hashable {
  /// Hashes consistently with `==`: numbers by value, objects whatever their order (each
  /// member hashed on its own, the hashes summed), every value at every depth.
  ///
  /// Hashed without recursion, as `==` compares: the containers on the way down wait on a
  /// list, so a value of any depth hashes on any thread's stack.
  public func hash(into hasher: inout Hasher) {
    // `current` is the hasher values combine into. Each object member has its own; while a
    // member's value is a container being hashed, the hashers around it wait in `outer`.
    var current = hasher
    var outer: [Hasher] = []
    var open: [HashedContainer] = []
    Self.combine(self, into: &current, opening: &open)
    // The innermost open container's values, from its next: scalars combine here, a container
    // opens on top and is hashed first.
    next: while let last = open.indices.last {
      var position = open[last].next
      if open[last].memberOpen {  // the member's value, a container, is hashed
        open[last].sum &+= current.finalize()
        current = outer.removeLast()
        open[last].memberOpen = false
      }
      switch open[last].values {
      case .elements(let elements):
        while position < elements.count {
          let opened = open.count
          Self.combine(elements[position], into: &current, opening: &open)
          position += 1
          if open.count > opened {
            open[last].next = position
            continue next
          }
        }
      case .members(let members):
        var sum = open[last].sum
        while position < members.count {
          var member = Hasher()
          member.combine(members[position].key)
          let opened = open.count
          Self.combine(members[position].value, into: &member, opening: &open)
          position += 1
          if open.count > opened {
            outer.append(current)
            current = member
            open[last].next = position
            open[last].sum = sum
            open[last].memberOpen = true
            continue next
          }
          sum &+= member.finalize()
        }
        current.combine(members.count)
        current.combine(sum)
      }
      open.removeLast()
    }
    hasher = current
  }

  /// Combines `value`'s kind and, for a scalar, the value into `hasher`; a container's
  /// values are left to the walk, on `open`.
  @inline(__always)
  private static func combine(
    _ value: JSON, into hasher: inout Hasher, opening open: inout [HashedContainer]
  ) {
    switch value {
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
    case .array(let elements):
      hasher.combine(5)
      hasher.combine(elements.count)
      if !elements.isEmpty { open.append(HashedContainer(values: .elements(elements))) }
    case .object(let object):
      hasher.combine(6)  // its count and its members' hashes when they are done
      open.append(HashedContainer(values: .members(object.members)))
    }
  }
}

/// A container `JSON.hash(into:)` is in: its next value and, for an object, the sum of its
/// members' hashes so far and whether the member before the next is still being hashed.
private struct HashedContainer {
  let values: ContainerValues
  var next = 0
  var sum = 0
  var memberOpen = false
}
