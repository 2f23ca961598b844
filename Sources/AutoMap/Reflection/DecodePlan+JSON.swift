extension DecodePlan {
  /// Reads a model whose fields each read one distinct key (``streams``, keys matched
  /// exactly) from an object's members: the `JSON` path's counterpart of the byte loop.
  ///
  /// The members are borrowed in place and looked up from the member after the last match,
  /// the common scalars are stored through their own `init(decode:)`, and other fields
  /// without options go straight to their codec: the same calls, and so the same values and
  /// errors, as ``decodeField(_:from:_:_:)``, which every field with options still takes.
  func readMembers(_ object: JSON.Object, _ destination: UnsafeMutableRawPointer) throws {
    var progress = newProgress()
    let base = begin(destination)
    do {
      try object.members.withUnsafeBufferPointer { members in
        var hint = 0
        for position in 0..<steps.count {
          guard let key = table[position].keyString,
            let found = object.index(forKey: key, near: hint)
          else {
            try resolveAbsent(position, base, &progress, found: Self.absent)
            continue
          }
          hint = found + 1
          try readMember(position, members[found].value, base, &progress)
        }
      }
      try validate(destination)
    } catch {
      abandon(destination, progress)
      throw error
    }
  }

  /// Fills field `position` from the member's value.
  @inline(__always)
  private func readMember(
    _ position: Int, _ value: JSON, _ base: UnsafeMutableRawPointer,
    _ progress: inout DecodeProgress
  ) throws {
    let step = steps[position]
    guard step.readsDirectly else { return try decodeField(position, from: value, base, &progress) }
    if case .null = value, !step.isOptional {
      return try resolveAbsent(position, base, &progress, found: value)
    }
    do {
      if let leaf = step.inlineLeaf {
        let initialize = progress.memberwise && !progress.initialized.contains(position)
        try Self.storeLeaf(leaf, value, into: base + step.offset, initialize: initialize)
        progress.initialized.insert(position)
        return
      }
      let codec = step.codec
      try write(position, base, &progress) { try codec.readJSON(value, $0) }
    } catch {
      throw JSON.Error.wrapping(error).prefixed(table[position].index)
    }
  }

  /// Stores a leaf value read from `value` as the leaf type's own `init(decode:)` reads it,
  /// initializing the target (`initialize`) or replacing what it holds.
  @inline(__always)
  private static func storeLeaf(
    _ kind: LeafKind, _ value: JSON, into target: UnsafeMutableRawPointer, initialize: Bool
  ) throws {
    switch kind {
    // Trivial types: initializing and replacing are the same store.
    case .int: RawValue.initialize(target, to: try Int(decode: value))
    case .int64: RawValue.initialize(target, to: try Int64(decode: value))
    case .int32: RawValue.initialize(target, to: try Int32(decode: value))
    case .double: RawValue.initialize(target, to: try Double(decode: value))
    case .bool: RawValue.initialize(target, to: try Bool(decode: value))
    case .string: RawValue.put(try String(decode: value), at: target, initialize: initialize)
    case .optionalInt: RawValue.put(try Int?(decode: value), at: target, initialize: initialize)
    case .optionalInt64: RawValue.put(try Int64?(decode: value), at: target, initialize: initialize)
    case .optionalDouble:
      RawValue.put(try Double?(decode: value), at: target, initialize: initialize)
    case .optionalBool: RawValue.put(try Bool?(decode: value), at: target, initialize: initialize)
    case .optionalString:
      RawValue.put(try String?(decode: value), at: target, initialize: initialize)
    }
  }
}
