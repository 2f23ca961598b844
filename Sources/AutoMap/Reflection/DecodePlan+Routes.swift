/// The byte path of models whose fields are not one distinct key each: nested paths
/// (`.index(["address", "city"])`), flattening (`.index([])`) and `.alternativeIndex`.
///
/// The keys of every field's index and alternative form a tree, read in one pass over the
/// object: a field that is the only one at its key, with no alternative, is read as it streams
/// past, at any depth (a nested object some path goes into is stepped into in place); for the
/// other keys the pass notes where their values begin (the last occurrence, as everywhere in
/// AutoMap). Then each field not read yet, in declaration order, goes to its value: a noted
/// position, from there down what is left of its path (array positions) in place, or the whole
/// object for a flattened field (a flattened model whose keys are distinct has its keys in the
/// tree too, and is read from their noted members: see ``DecodePlan/expanded(_:_:)``); to its
/// alternative only when that yields nothing or `null`,
/// as ``DecodePlan/lookup(_:_:hint:)`` decides on the `JSON` path. Nothing is built but the
/// fields' values.
final class DecodeRoutes: @unchecked Sendable {  // immutable once built
  /// Where a field's value is.
  enum Route {
    /// The enclosing object itself (`.index([])`).
    case object
    /// Nowhere: an index that starts with a position (an object has none).
    case never
    /// The value noted at `slot`, then down `rest` (from its first array position on).
    case member(slot: Int, rest: [JSON.Index.Step])
  }

  /// One object level of the key tree.
  ///
  /// Built in the arrays, then laid out by ``finish()`` in `entries`, which the pass reads:
  /// memory the node owns, read with no reference counting, no bounds checks and no
  /// exclusivity checks (the arrays are class properties; reading them in the pass cost 2
  /// runtime exclusivity checks and a retain per key).
  final class Node: @unchecked Sendable {  // immutable once the routes are built
    var keys: [[UInt8]] = []
    /// Per key: where its value's position is noted.
    var slots: [Int] = []
    /// Per key: the keys wanted inside its value, when it is an object.
    var children: [Node?] = []
    /// Per key: the field read as its value streams past (the only use of the key).
    var direct: [Int?] = []

    /// What the pass needs of one key.
    struct Entry {
      let key: UnsafePointer<UInt8>
      let count: Int
      /// The key has no byte JSON must escape: it can be recognized verbatim.
      let verbatim: Bool
      /// The field read as the value streams past, or -1.
      let direct: Int
      let slot: Int
      /// Kept alive by `children`.
      let child: Unmanaged<Node>?
    }

    /// Per key, once the tree is complete.
    @exclusivity(unchecked) private(set) var entries = UnsafeMutableBufferPointer<Entry>(
      start: nil, count: 0)
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<UInt8>?

    /// Lays the keys out in `entries`, here and below, once the tree is complete.
    func finish() {
      let bytes = keys.flatMap { $0 }
      let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: max(bytes.count, 1))
      storage.initialize(from: bytes, count: bytes.count)
      self.storage = storage
      entries = .allocate(capacity: keys.count)
      var offset = 0
      for (position, key) in keys.enumerated() {
        entries.initializeElement(
          at: position,
          to: Entry(
            key: UnsafePointer(storage + offset), count: key.count,
            verbatim: !key.contains(where: isStringStop), direct: direct[position] ?? -1,
            slot: slots[position], child: children[position].map(Unmanaged.passUnretained)))
        offset += key.count
      }
      for child in children { child?.finish() }
    }

    /// The key at `position` equals `bytes`.
    @inline(__always)
    func keyEquals(_ position: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
      guard entries[position].count == bytes.count else { return false }
      guard let base = bytes.baseAddress, bytes.count > 0 else { return true }
      return sameBytes(entries[position].key, base, bytes.count)
    }

    deinit {
      entries.deallocate()
      storage?.deallocate()
    }
  }

  let root: Node
  let slotCount: Int
  /// Per field: where to look (for fields not read directly), and where next when that
  /// yields nothing or `null`.
  let primary: [Route]
  let alternative: [Route?]
  /// Per field: read directly in the pass.
  let isDirect: [Bool]
  /// A flattened field whose model reads distinct keys: its plan, and the slot of each of its
  /// fields' keys, noted in the one pass like the enclosing model's own (so the enclosing
  /// object is not read again for it). Read per value with no reference counting: the plan
  /// and state are held by `flattened`, the slots by the routes (freed in `deinit`).
  struct Expansion {
    let plan: Unmanaged<DecodePlan>
    let slots: UnsafeBufferPointer<Int>
    /// The flattened model's state, and the key style `plan` is for. The plan reads the field
    /// while the model is reflected and the call's style resolves to that one: a style's plan,
    /// once built, is never replaced.
    let state: Unmanaged<ModelDecodeState>
    let style: JSON.KeyStyle
  }

  /// A flattened model to read from the noted members of its keys (``expanded(_:_:)``).
  typealias Flattened = (plan: DecodePlan, state: ModelDecodeState, style: JSON.KeyStyle)

  /// Per field: its expansion, if it has one.
  let expansions: UnsafeMutableBufferPointer<Expansion?>
  /// What the expansions point to, kept alive.
  private let flattened: [Flattened]
  /// Some field is flattened (read from the enclosing object).
  let flattens: Bool

  /// `flattened`: the plans of flattened fields to read from the noted members of their keys.
  init(_ fields: [DecodeField], flattened: [Int: Flattened] = [:]) {
    let root = Node()
    var slotCount = 0
    var uses: [Int: Int] = [:]  // slot -> how many routes end there or go through it
    func route(_ index: JSON.Index) -> (Route, node: Node, key: Int)? {
      var steps = index.steps[...]
      // The object's own members: a pointer's digit token is a key here.
      if case .token(let token)? = steps.first { steps[steps.startIndex] = .key(token) }
      guard case .key? = steps.first else { return nil }
      var node = root
      var last: (Node, Int)?
      while case .key(let key)? = steps.first {
        if let (parent, position) = last {
          let child = parent.children[position] ?? DecodeRoutes.Node()
          parent.children[position] = child
          node = child
        }
        let bytes = Array(key.utf8)
        let position = node.keys.firstIndex(of: bytes) ?? node.keys.count
        if position == node.keys.count {
          node.keys.append(bytes)
          node.slots.append(slotCount)
          node.children.append(nil)
          node.direct.append(nil)
          slotCount += 1
        }
        uses[node.slots[position], default: 0] += 1
        last = (node, position)
        steps = steps.dropFirst()
      }
      guard let (end, position) = last else { return nil }
      return (.member(slot: end.slots[position], rest: Array(steps)), end, position)
    }
    var primary: [Route] = []
    var ends: [(Node, Int)?] = []
    var alternative: [Route?] = []
    for field in fields {
      if field.index.isEmpty {
        primary.append(.object)
        ends.append(nil)
      } else if let (found, node, position) = route(field.index) {
        primary.append(found)
        ends.append((node, position))
      } else {
        primary.append(.never)
        ends.append(nil)
      }
      alternative.append(
        field.alternativeIndex.map { index in
          index.isEmpty ? .object : route(index)?.0 ?? .never
        })
    }
    let expansions = UnsafeMutableBufferPointer<Expansion?>.allocate(capacity: fields.count)
    expansions.initialize(repeating: nil)
    for (position, model) in flattened {
      var slots: [Int] = []
      for field in model.plan.fields {
        guard case (.member(let slot, _), _, _)? = route(field.index) else { break }
        slots.append(slot)
      }
      guard slots.count == model.plan.fields.count else { continue }
      let stored = UnsafeMutableBufferPointer<Int>.allocate(capacity: slots.count)
      _ = stored.initialize(from: slots)
      expansions[position] = Expansion(
        plan: Unmanaged.passUnretained(model.plan), slots: UnsafeBufferPointer(stored),
        state: Unmanaged.passUnretained(model.state), style: model.style)
    }
    // Read directly: a field alone at a key nothing else goes through, with no alternative
    // and no array positions left to walk.
    var isDirect = Array(repeating: false, count: fields.count)
    for position in fields.indices {
      guard alternative[position] == nil, let (node, key) = ends[position],
        case .member(let slot, let rest) = primary[position], rest.isEmpty, uses[slot] == 1,
        node.children[key] == nil
      else { continue }
      node.direct[key] = position
      isDirect[position] = true
    }
    root.finish()
    self.expansions = expansions
    self.flattened = Array(flattened.values)
    flattens = fields.contains { $0.index.isEmpty }
    self.root = root
    self.primary = primary
    self.alternative = alternative
    self.isDirect = isDirect
    self.slotCount = slotCount
  }

  deinit {
    for expansion in expansions { expansion?.slots.deallocate() }
    expansions.deallocate()
  }
}

extension DecodePlan {
  /// Where the members of the object being read are (for ``DecodeRoutes``).
  private struct Members {
    let objectStart: UnsafePointer<UInt8>
    let outerDepth: Int
    let positions: UnsafeMutableBufferPointer<(at: UnsafePointer<UInt8>, depth: Int)?>
  }

  /// Reads the object at the cursor through `routes` (see ``DecodeRoutes``).
  func readRouted(
    _ routes: DecodeRoutes, _ reader: inout JSONReader, _ destination: UnsafeMutableRawPointer
  ) throws {
    let objectStart = reader.cursor
    let outerDepth = reader.depth
    guard reader.peekByte() == UInt8(ascii: "{") else {
      throw reader.mismatch(expected: modelName)  // what openContainer would throw
    }
    try withUnsafeTemporaryAllocation(
      of: (at: UnsafePointer<UInt8>, depth: Int)?.self, capacity: max(routes.slotCount, 1)
    ) { positions in
      positions.initialize(repeating: nil)
      var progress = newProgress()
      let base = begin(destination)
      var read = FieldSet(count: fields.count)
      do {
        try readNode(routes.root, &reader, positions, base, &progress, &read)
        let objectEnd = reader.cursor
        let members = Members(
          objectStart: objectStart, outerDepth: outerDepth, positions: positions)
        for position in fields.indices where !read.contains(position) {
          if let expansion = routes.expansions[position],
            try readFlattened(position, expansion, members, &reader, base, &progress)
          {
            continue
          }
          var found = try locate(routes.primary[position], members, &reader)
          if let alternative = routes.alternative[position],
            found.map({ $0.at.pointee == UInt8(ascii: "n") }) ?? true,  // absent or null
            let other = try locate(alternative, members, &reader)
          {
            found = other
            Substitutions.record(.alternativeIndex, replacement: "")  // see readOrSkip
          }
          if let found, found.at == objectStart {
            // The object itself, read again: bounded as the `JSON` path bounds it.
            try Nesting.flattened(at: outerDepth + 1, encoding: false) {
              try readFound(found, position, &reader, base, &progress)
            }
          } else {
            try readFound(found, position, &reader, base, &progress)
          }
        }
        try validate(destination)
        reader.cursor = objectEnd
        reader.depth = outerDepth
      } catch {
        abandon(destination, progress)
        throw error
      }
    }
  }

  /// Runs `body` with the routes the byte path reads this plan's objects by: ``routes``, or
  /// when it flattens, ``expanded(_:_:)``. With no reference counting: the plan holds both.
  @inline(__always)
  func withRoutes<R>(
    _ routes: Unmanaged<DecodeRoutes>, _ style: JSON.KeyStyle?, _ body: (DecodeRoutes) throws -> R
  ) rethrows -> R {
    try routes._withUnsafeGuaranteedRef { routes in
      guard routes.flattens else { return try body(routes) }
      return try expandedRoutes.with({ expanded(routes, style) }, body)
    }
  }

  /// `routes` with the keys of each flattened model that reads distinct keys added, made at
  /// the first read (those models' plans are not known while this one is built).
  func expanded(_ routes: DecodeRoutes, _ style: JSON.KeyStyle?) -> DecodeRoutes {
    guard routes.flattens else { return routes }
    return expandedRoutes.get {
      var models: [Int: DecodeRoutes.Flattened] = [:]
      for position in fields.indices where fields[position].index.isEmpty {
        let codec = steps[position].codec
        guard steps[position].readsDirectly, codec.polymorphism == nil, let state = codec.model,
          let plan = try? state.resolvedPlan(style), plan !== self, plan.streams,
          !plan.caseInsensitive, plan.whole == nil
        else { continue }
        models[position] = (plan, state, style ?? state.defaultStyle)
      }
      return DecodeRoutes(fields, flattened: models)
    }
  }

  /// Reads flattened field `position` from the members its model's keys name, noted in the
  /// pass; `false` when its model is not read by that plan now (its `init(decode:)` not yet
  /// seen to be the default, or another key style), and the field is read from the object.
  private func readFlattened(
    _ position: Int, _ expansion: DecodeRoutes.Expansion, _ members: Members,
    _ reader: inout JSONReader, _ base: UnsafeMutableRawPointer, _ progress: inout DecodeProgress
  ) throws -> Bool {
    let applies = expansion.state._withUnsafeGuaranteedRef { state in
      state.isReflected && (reader.keyStyle ?? state.defaultStyle) == expansion.style
    }
    guard applies else { return false }
    do {
      try write(position, base, &progress) { destination in
        try expansion.plan._withUnsafeGuaranteedRef { plan in
          try plan.readPlaced(&reader, destination) { members.positions[expansion.slots[$0]] }
        }
      }
    } catch {
      throw JSON.Error.wrapping(error).prefixed(table[position].index)
    }
    return true
  }

  /// Reads the model from members noted elsewhere: `locate` gives where each field's value
  /// begins, and the depth there (`nil`: absent), in declaration order as the routed read
  /// does. A flattened model, whose members the enclosing object's pass noted.
  private func readPlaced(
    _ reader: inout JSONReader, _ destination: UnsafeMutableRawPointer,
    _ locate: (Int) -> (at: UnsafePointer<UInt8>, depth: Int)?
  ) throws {
    var progress = newProgress()
    let base = begin(destination)
    do {
      for position in fields.indices {
        try readFound(locate(position), position, &reader, base, &progress)
      }
      try validate(destination)
    } catch {
      abandon(destination, progress)
      throw error
    }
  }

  /// Reads field `position` from where its value was `found`; `nil`: it is absent.
  @inline(__always)
  private func readFound(
    _ found: (at: UnsafePointer<UInt8>, depth: Int)?, _ position: Int, _ reader: inout JSONReader,
    _ base: UnsafeMutableRawPointer, _ progress: inout DecodeProgress
  ) throws {
    guard let (at, depth) = found else {
      return try resolveAbsent(position, base, &progress, found: Self.absent)
    }
    reader.cursor = at
    reader.depth = depth
    try readField(position, &reader, base, &progress)
  }

  /// One object of the key tree, at the cursor: reads the direct fields as they stream past,
  /// notes where the other wanted values begin, steps into the objects the tree goes into,
  /// and steps over every other value, checking it.
  private func readNode(
    _ node: DecodeRoutes.Node, _ reader: inout JSONReader,
    _ positions: UnsafeMutableBufferPointer<(at: UnsafePointer<UInt8>, depth: Int)?>,
    _ base: UnsafeMutableRawPointer, _ progress: inout DecodeProgress, _ read: inout FieldSet
  ) throws {
    guard try reader.openContainer(UInt8(ascii: "{"), expected: modelName) else {
      return reader.leaveContainer()
    }
    var hint = 0
    let entries = node.entries
    repeat {
      reader.skipWhitespace()
      let key: Int?
      if hint < entries.count, entries[hint].verbatim,
        reader.consumeKey(entries[hint].key, count: entries[hint].count)
      {
        // The usual case: the key expected next, recognized without scanning.
        key = hint
        try reader.expect(UInt8(ascii: ":"), "':' after object key")
        reader.skipWhitespace()
      } else {
        let span = try reader.scanKeyString()
        try reader.expect(UInt8(ascii: ":"), "':' after object key")
        reader.skipWhitespace()
        key =
          span.hasEscapes
          ? reader.withUnescaped(span) { Self.key(of: $0, in: node, hint: hint) }
          : Self.key(of: span.buffer, in: node, hint: hint)
        if key == nil {
          try reader.validateUTF8(span)
        }
      }
      guard let key else {
        try reader.skipValue()
        continue
      }
      hint = key + 1
      let entry = entries[key]
      if entry.direct >= 0 {
        // A repeated key: the last occurrence counts, which the `JSON` path decides.
        if read.contains(entry.direct) { throw Self.repeatedKey }
        read.insert(entry.direct)
        try readField(entry.direct, &reader, base, &progress)
        continue
      }
      if let child = entry.child {
        // A repeat would mix what was read inside an earlier occurrence with the last one,
        // which alone counts: the `JSON` path decides.
        if positions[entry.slot] != nil { throw Self.repeatedKey }
        positions[entry.slot] = (reader.cursor, reader.depth)
        if reader.cursor.pointee == UInt8(ascii: "{") {
          try readNode(child.takeUnretainedValue(), &reader, positions, base, &progress, &read)
          continue
        }
      } else {
        positions[entry.slot] = (reader.cursor, reader.depth)
      }
      try reader.skipValue()
    } while try reader.nextMember()
    reader.leaveContainer()
  }

  @inline(__always)
  private static func key(
    of key: UnsafeBufferPointer<UInt8>, in node: DecodeRoutes.Node, hint: Int
  ) -> Int? {
    let count = node.entries.count
    if hint < count, node.keyEquals(hint, key) { return hint }
    for position in 0..<count where position != hint && node.keyEquals(position, key) {
      return position
    }
    return nil
  }

  /// Where `route` leads: the value's first byte and the depth to read it at; `nil` when it
  /// leads nowhere.
  private func locate(_ route: DecodeRoutes.Route, _ members: Members, _ reader: inout JSONReader)
    throws -> (at: UnsafePointer<UInt8>, depth: Int)?
  {
    switch route {
    case .object:
      // The object being read, read again (`.index([])`): no level of its own, as on the
      // `JSON` path (the caller bounds such reads, one inside another).
      return (members.objectStart, members.outerDepth)
    case .never: return nil
    case .member(let slot, let rest):
      guard let (start, depth) = members.positions[slot] else { return nil }
      reader.cursor = start
      reader.depth = depth
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
    case .token(let token):
      // A pointer's digit token: a key in an object, a position in an array.
      if cursor < end, cursor.pointee == UInt8(ascii: "{") { return try enter(.key(token)) }
      guard let position = JSON.Index.arrayPosition(token) else { return false }
      return try enter(.position(position))
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
