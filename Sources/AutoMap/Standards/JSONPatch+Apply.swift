extension JSON {
  /// Applies a JSON Patch (RFC 6902) to this value, all or nothing: when an operation fails,
  /// the value is left exactly as it was.
  ///
  /// ```swift
  /// var json: JSON = ["name": "Grace", "tags": ["navy"]]
  /// try json.apply([.replace(["name"], "Ada"), .add(["tags", 0], "math")])
  /// // {"name":"Ada","tags":["math","navy"]}
  /// ```
  ///
  /// A patch from an untrusted source cannot make a document no one can read or write:
  /// - an operation that would make the document nest deeper than ``maximumDepth`` fails
  ///   with ``JSON/Error/Kind/tooDeep(limit:)``;
  /// - `copy` operations that together copy more than the document and the patch hold (values,
  ///   and the bytes of their strings and keys), or 65 536 when that is more, fail with
  ///   ``JSON/Error/Kind/unencodable``: copying copies doubles a document with each operation
  ///   (60 operations would make one of 2⁶⁰ values), while this way a patch at most doubles
  ///   what it is given (a server that applies patch after patch to one document should cap
  ///   its size, as it caps any input);
  /// - so do `move` operations to deeper places, past the same allowance for what they walk
  ///   to check the depth of the values they move;
  /// - pointers of any length, into documents of any depth, are followed without recursion.
  ///
  /// Consecutive `remove`s of one object's members, or of one array's elements from the last
  /// down (as ``patch(from:to:)`` writes them), take one pass over the container, however
  /// many there are. Other operations cost up to the size of the container they change: an
  /// insertion at an array's front moves every element.
  ///
  /// - Throws: ``JSON/Error`` naming the operation by its position in the patch, its name and
  ///   pointer, with the error's ``JSON/Error/path`` (and ``JSON/Error/pointer``) at the
  ///   location that failed: `at tags[5]: operation 1 (add /tags/5): index 5 is past the end
  ///   of the array (array of 1)`.
  public mutating func apply(_ patch: Patch) throws {
    var result = self
    var allowance = PatchAllowance(document: self, patch: patch)
    let operations = patch.operations
    var position = 0
    while position < operations.count {
      // A run of `remove`s from one container takes them out in one pass: one at a time, each
      // moves the container's later members (a diff that drops a thousand keys of a wide
      // object moved it a thousand times, and rebuilt its key table as often).
      let run = Self.removalRun(operations, from: position)
      if run > 1, result.removeInOnePass(operations[position..<(position + run)]) {
        position += run
        continue
      }
      // Otherwise one operation at a time (a run that cannot go in one pass: each of its
      // operations, which fails as it would alone).
      for (position, operation) in zip(position..., operations[position..<(position + run)]) {
        do {
          try result.apply(operation, allowance: &allowance)
        } catch var error as JSON.Error {
          error.message =
            "operation \(position) (\(operation.name) \(operation.path.pointer)): "
            + error.message
          throw error
        }
      }
      position += run
    }
    self = result
  }

  /// How many operations from `start` on remove members of the same container (the same
  /// pointer but for its last token): 1 when the operation at `start` is anything else.
  private static func removalRun(_ operations: [Patch.Operation], from start: Int) -> Int {
    guard case .remove(let first) = operations[start], !first.tokens.isEmpty else { return 1 }
    let parent = first.tokens.dropLast()
    var end = start + 1
    // Tokens compared by their bytes, as keys are: `==` on strings would take two spellings
    // of "café" for one parent, and the run would remove from the first one's container.
    while end < operations.count, case .remove(let path) = operations[end],
      path.tokens.count == first.tokens.count,
      path.tokens.dropLast().elementsEqual(parent, by: JSON.sameKey)
    {
      end += 1
    }
    return end - start
  }

  /// Removes what a run of `remove` operations names (``removalRun(_:from:)``) from the
  /// container they share, in one pass; `false`, changing nothing, unless each names a member
  /// of one object and no two the same one, or the run names positions of one array from the
  /// last down, as `patch(from:to:)` writes them. (Otherwise they are applied one by one, and
  /// fail as they would.)
  private mutating func removeInOnePass(_ operations: ArraySlice<Patch.Operation>) -> Bool {
    guard let first = operations.first else { return false }
    let tokens = operations.compactMap(\.path.tokens.last)
    return
      (try? withParent(of: first.path.tokens[...]) { parent, _ in
        if case .object(var object) = parent {
          parent = .null  // the object is ours alone while it changes
          defer { parent = .object(object) }
          return object.removeValues(forKeys: tokens, requiringEach: true)
        }
        guard case .array(var elements) = parent else { return false }
        parent = .null
        defer { parent = .array(elements) }
        return Self.removeElements(at: tokens, from: &elements)
      }) ?? false
  }

  /// Removes the elements at `tokens`, positions from the last down (each removed from the
  /// array as it was, as one at a time would); `false`, changing nothing, for any others.
  private static func removeElements(at tokens: [String], from elements: inout [JSON]) -> Bool {
    var removed = [Bool](repeating: false, count: elements.count)
    var previous = elements.count
    for token in tokens {
      guard let position = Index.arrayPosition(token), position < previous else { return false }
      removed[position] = true
      previous = position
    }
    elements.removeAll(marked: removed, count: tokens.count)
    return true
  }

  /// This value with a JSON Patch (RFC 6902) applied; see ``apply(_:)``.
  ///
  /// ```swift
  /// let patched = try json.applying(try JSON.Patch(jsonData: patchData))
  /// ```
  public func applying(_ patch: Patch) throws -> JSON {
    var copy = self
    try copy.apply(patch)
    return copy
  }

  private mutating func apply(_ operation: Patch.Operation, allowance: inout PatchAllowance)
    throws
  {
    switch operation {
    case .add(let path, let value):
      try Self.checkDepth(of: value, at: path)
      try add(value, at: path.tokens[...])
    case .remove(let path):
      _ = try remove(at: path.tokens[...])
    case .replace(let path, let value):
      try Self.checkDepth(of: value, at: path)
      try replace(at: path.tokens[...], with: value)
    case .move(let from, let path):
      let source = from.tokens
      let target = path.tokens
      if source.elementsEqual(target, by: JSON.sameKey) {
        _ = try value(at: from)  // it must exist; moving it onto itself changes nothing
        return
      }
      if target.count > source.count,
        target.prefix(source.count).elementsEqual(source, by: JSON.sameKey)
      {
        throw JSON.Error(
          .typeMismatch,
          "cannot move a value into itself (from \(from.pointer))",
          path: path.steps.map(\.component))
      }
      let moved = try remove(at: source[...])
      // No deeper than it was: no walk of the value moved, however large.
      if target.count > source.count { try allowance.move(moved, deeperTo: path) }
      try add(moved, at: target[...])
    case .copy(let from, let path):
      let copied = try value(at: from)
      try allowance.copy(copied, to: path)
      try add(copied, at: path.tokens[...])
    case .test(let path, let expected):
      let found = try value(at: path)
      guard found.isIdentical(to: expected) else {
        throw JSON.Error(
          .typeMismatch,
          "test failed: expected \(expected.briefDescription), found "
            + found.briefDescription
        )
        .prefixed(resolved(path))
      }
    }
  }

  /// A location that exists as literals would write it: each step a key or a position, as the
  /// value it meets has it.
  private func resolved(_ index: Index) -> Index {
    var current = self
    var steps: [Index.Step] = []
    for token in index.tokens {
      if case .array = current, let position = Index.arrayPosition(token) {
        steps.append(.position(position))
      } else {
        steps.append(.key(token))
      }
      current = current[Index(steps: [steps[steps.count - 1]])]
    }
    return Index(steps: steps)
  }

  /// The value at a patch location, or an error naming where it is missing.
  private func value(at index: Index) throws -> JSON {
    let found = self[Index(steps: index.tokens.map(Index.step(forToken:)))]
    if case .missing(let error) = found { throw error }
    return found
  }

  private mutating func add(_ value: JSON, at tokens: ArraySlice<String>) throws {
    guard !tokens.isEmpty else {
      self = value  // adding the whole document replaces it
      return
    }
    try withParent(of: tokens) { parent, token in
      try parent.changeContainer(
        at: token, object: { $0[token] = value },
        array: { array in
          let end = token == "-"
          array.insert(
            value,
            at: end ? array.count : try Self.position(token, in: array, allowingEnd: true))
        })
    }
  }

  private mutating func remove(at tokens: ArraySlice<String>) throws -> JSON {
    guard !tokens.isEmpty else {
      throw JSON.Error(.typeMismatch, "cannot remove the whole document")
    }
    return try withParent(of: tokens) { parent, token in
      try parent.changeContainer(
        at: token,
        object: { object in
          guard let removed = object.removeValue(forKey: token) else { throw Self.noKey(token) }
          return removed
        },
        array: { array in
          array.remove(at: try Self.position(token, in: array, allowingEnd: false))
        })
    }
  }

  private mutating func replace(at tokens: ArraySlice<String>, with value: JSON) throws {
    guard !tokens.isEmpty else {
      self = value
      return
    }
    try withParent(of: tokens) { parent, token in
      try parent.changeContainer(
        at: token,
        object: { object in
          guard object[token] != nil else { throw Self.noKey(token) }
          object[token] = value
        },
        array: { array in
          array[try Self.position(token, in: array, allowingEnd: false)] = value
        })
    }
  }

  /// Runs `object` or `array` on the container this value is, taken out of it while they
  /// run (held once, so it changes in place) and put back after, whether they succeed or
  /// throw. (A `switch` over the value, or over a copy it `consume`s, kept a second
  /// reference for as long as the case ran: every operation copied the container, a million
  /// elements to replace one.)
  private mutating func changeContainer<R>(
    at token: String, object: (inout Object) throws -> R, array: (inout [JSON]) throws -> R
  ) throws -> R {
    if case .object(var members) = self {
      self = .null
      defer { self = .object(members) }
      return try object(&members)
    }
    guard case .array(var elements) = self else { throw Self.notContainer(self, token) }
    self = .null
    defer { self = .array(elements) }
    return try array(&elements)
  }

  /// Runs `body` in place on the container that holds the last token's value, with that
  /// token. `tokens` is not empty (the callers handle the whole document). The containers on
  /// the way are opened without recursion (``OpenPath``), so pointers of any length fit any
  /// thread's stack; they are closed again whether `body` succeeds or throws.
  private mutating func withParent<R>(
    of tokens: ArraySlice<String>, _ body: (inout JSON, String) throws -> R
  ) throws -> R {
    guard let last = tokens.last else {
      throw JSON.Error(.typeMismatch, "the whole document has no container")
    }
    var path = OpenPath()
    var current = self
    self = .null  // our reference to the root is its only one, so it changes in place
    defer { self = path.close(with: current) }
    do {
      for token in tokens.dropLast() {
        switch try Self.existingStep(token, in: current) {
        case .position(let position): path.enter(&current, position: position)
        default: path.enter(&current, key: token)
        }
      }
      return try body(&current, last)
    } catch {
      var error = JSON.Error.wrapping(error)
      for component in path.components.reversed() { error = error.prefixed(component) }
      throw error
    }
  }

  /// The step `token` takes into `container`, where it must name a value that is there.
  private static func existingStep(_ token: String, in container: JSON) throws -> Index.Step {
    switch container {
    case .object(let object):
      guard object[token] != nil else { throw noKey(token) }
      return .key(token)
    case .array(let array):
      return .position(try position(token, in: array, allowingEnd: false))
    default:
      throw notContainer(container, token)
    }
  }

  /// The array position a token names: an index within the array (or at its end, to insert).
  private static func position(_ token: String, in array: [JSON], allowingEnd: Bool) throws
    -> Int
  {
    guard let position = Index.arrayPosition(token) else {
      let problem =
        token == "-"
        ? "\"-\" is past the last element (array of \(array.count))"
        : "\(JSON.string(token)) is not an array index (digits, no leading zero)"
      throw JSON.Error(.typeMismatch, problem, path: [.key(token)])
    }
    guard position < array.count || (allowingEnd && position == array.count) else {
      throw JSON.Error(
        .missingValue,
        "index \(position) is past the end of the array (array of \(array.count))",
        path: [.index(position)])
    }
    return position
  }

  private static func noKey(_ key: String) -> JSON.Error {
    JSON.Error(.missingValue, "no key \(JSON.string(key))", path: [.key(key)])
  }

  private static func notContainer(_ value: JSON, _ token: String) -> JSON.Error {
    JSON.Error(
      .typeMismatch,
      "expected object or array to look up \(JSON.string(token)), found \(value.briefDescription)")
  }

  /// Equality as RFC 6902's `test` defines it: as `==`, except that strings (and keys, as
  /// ever) compare by code points, not by canonical equivalence.
  func isIdentical(to other: JSON) -> Bool {
    Self.equal(self, other, stringsByCodePoints: true)
  }
}
