/// The byte path of models whose fields are not one distinct key each: nested paths
/// (`.index(["address", "city"])`), flattening (`.index([])`) and `.alternativeIndex`.
///
/// The object is read in one pass that notes where the value of each key some field starts
/// with begins (the last occurrence, as everywhere in AutoMap), stepping over the others.
/// Then each field, in declaration order, goes to its value: a noted position, from there
/// down the rest of its path in place, or the whole object for a flattened field; to its
/// alternative only when that yields nothing or `null`, as ``DecodePlan/lookup(_:_:hint:)``
/// decides on the `JSON` path. Each value is then read as on the streaming path. Nothing is
/// built but the fields' values.
struct DecodeRoutes {
  /// Where a field's value is.
  enum Route {
    /// The enclosing object itself (`.index([])`).
    case object
    /// Nowhere: an index that starts with a position (an object has none).
    case never
    /// The value of a key of the object (by its position in ``keys``), then down `rest`.
    case member(slot: Int, rest: [JSON.Index.Step])
  }

  /// The distinct first keys of every field's index and alternative, as UTF-8.
  let keys: [[UInt8]]
  /// Per field: where to look, and where next when that yields nothing or `null`.
  let primary: [Route]
  let alternative: [Route?]

  init(_ fields: [DecodeField]) {
    var keys: [[UInt8]] = []
    func route(_ index: JSON.Index) -> Route {
      guard let first = index.steps.first else { return .object }
      guard case .key(let key) = first else { return .never }
      let bytes = Array(key.utf8)
      let slot = keys.firstIndex(of: bytes) ?? keys.count
      if slot == keys.count { keys.append(bytes) }
      return .member(slot: slot, rest: Array(index.steps.dropFirst()))
    }
    primary = fields.map { route($0.index) }
    alternative = fields.map { $0.alternativeIndex.map(route) }
    self.keys = keys
  }
}

extension DecodePlan {
  /// Where the members of the object being read are (for ``DecodeRoutes``).
  private struct Members {
    let objectStart: UnsafePointer<UInt8>
    let outerDepth: Int
    let memberDepth: Int
    let positions: UnsafeMutableBufferPointer<UnsafePointer<UInt8>?>
  }

  /// Reads the object at the cursor through `routes` (see ``DecodeRoutes``).
  func readRouted(
    _ routes: DecodeRoutes, _ reader: inout JSONReader, _ destination: UnsafeMutableRawPointer
  ) throws {
    let objectStart = reader.cursor
    let outerDepth = reader.depth
    let hasMembers = try reader.openContainer(UInt8(ascii: "{"), expected: modelName)
    let memberDepth = reader.depth
    try withUnsafeTemporaryAllocation(
      of: UnsafePointer<UInt8>?.self, capacity: max(routes.keys.count, 1)
    ) { positions in
      positions.initialize(repeating: nil)
      if hasMembers { try noteMembers(routes.keys, &reader, positions) }
      let objectEnd = reader.cursor
      let members = Members(
        objectStart: objectStart, outerDepth: outerDepth, memberDepth: memberDepth,
        positions: positions)
      var progress = newProgress()
      let base = begin(destination)
      do {
        for position in fields.indices {
          var found = try locate(routes.primary[position], members, &reader)
          if let alternative = routes.alternative[position],
            found.map({ $0.at.pointee == UInt8(ascii: "n") }) ?? true,  // absent or null
            let other = try locate(alternative, members, &reader)
          {
            found = other
            Substitutions.record(.alternativeIndex, replacement: "")  // see readOrSkip
          }
          guard let (at, depth) = found else {
            try resolveAbsent(position, base, &progress, found: Self.absent)
            continue
          }
          reader.cursor = at
          reader.depth = depth
          try readField(position, &reader, base, &progress)
        }
        try validate(destination)
      } catch {
        abandon(destination, progress)
        throw error
      }
      reader.cursor = objectEnd
      reader.depth = outerDepth
    }
  }

  /// One pass over the members: notes where the value of each routed key begins (a later
  /// occurrence replaces an earlier one) and steps over every value, checking it.
  private func noteMembers(
    _ keys: [[UInt8]], _ reader: inout JSONReader,
    _ positions: UnsafeMutableBufferPointer<UnsafePointer<UInt8>?>
  ) throws {
    var hint = 0
    repeat {
      reader.skipWhitespace()
      let span = try reader.scanKeyString()
      try reader.expect(UInt8(ascii: ":"), "':' after object key")
      reader.skipWhitespace()
      let slot =
        span.hasEscapes
        ? reader.withUnescaped(span) { Self.slot(of: $0, in: keys, hint: hint) }
        : Self.slot(of: span.buffer, in: keys, hint: hint)
      if let slot {
        positions[slot] = reader.cursor
        hint = slot + 1
      } else {
        try reader.validateUTF8(span)
      }
      try reader.skipValue()
    } while try reader.nextMember()
  }

  private static func slot(
    of key: UnsafeBufferPointer<UInt8>, in keys: [[UInt8]], hint: Int
  ) -> Int? {
    func equals(_ slot: Int) -> Bool {
      keys[slot].withUnsafeBufferPointer { $0.elementsEqual(key) }
    }
    if hint < keys.count, equals(hint) { return hint }
    return keys.indices.first { $0 != hint && equals($0) }
  }

  /// Where `route` leads: the value's first byte and the depth to read it at; `nil` when it
  /// leads nowhere.
  private func locate(_ route: DecodeRoutes.Route, _ members: Members, _ reader: inout JSONReader)
    throws -> (at: UnsafePointer<UInt8>, depth: Int)?
  {
    switch route {
    case .object: return (members.objectStart, members.outerDepth)
    case .never: return nil
    case .member(let slot, let rest):
      guard let start = members.positions[slot] else { return nil }
      reader.cursor = start
      reader.depth = members.memberDepth
      for step in rest {
        guard try reader.enter(step) else { return nil }
      }
      return (reader.cursor, reader.depth)
    }
  }
}

extension JSONReader {
  /// Moves the cursor to the value `step` names inside the value at the cursor (the last
  /// occurrence of a key), one level deeper; `false` when there is none. The containers
  /// stepped into are checked as far as they are read; the caller reads the rest again
  /// from the object's end, where the first pass left off.
  mutating func enter(_ step: JSON.Index.Step) throws -> Bool {
    skipWhitespace()
    switch step {
    case .key(let wanted):
      guard cursor < end, cursor.pointee == UInt8(ascii: "{") else { return false }
      guard try openContainer(UInt8(ascii: "{"), expected: "an object") else { return false }
      var found: UnsafePointer<UInt8>?
      let key = Array(wanted.utf8)
      repeat {
        skipWhitespace()
        let span = try scanKeyString()
        try expect(UInt8(ascii: ":"), "':' after object key")
        skipWhitespace()
        let matches =
          span.hasEscapes
          ? withUnescaped(span) { $0.elementsEqual(key) } : span.buffer.elementsEqual(key)
        if matches { found = cursor } else { try validateUTF8(span) }
        try skipValue()
      } while try nextMember()
      guard let found else { return false }
      cursor = found
      return true
    case .position(let wanted):
      guard cursor < end, cursor.pointee == UInt8(ascii: "[") else { return false }
      guard try openContainer(UInt8(ascii: "["), expected: "an array"), wanted >= 0 else {
        return false
      }
      for _ in 0..<wanted {
        try skipValue()
        guard try nextElement() else { return false }
      }
      skipWhitespace()
      return true
    }
  }
}
