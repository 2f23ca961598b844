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
  /// - Throws: ``JSON/Error`` naming the operation by its position in the patch, its name and
  ///   pointer, with the error's ``JSON/Error/path`` (and ``JSON/Error/pointer``) at the
  ///   location that failed: `at tags[5]: operation 1 (add /tags/5): index 5 is past the end
  ///   of the array (array of 1)`.
  public mutating func apply(_ patch: Patch) throws {
    var result = self
    for (position, operation) in patch.operations.enumerated() {
      do {
        try result.apply(operation)
      } catch var error as JSON.Error {
        error.message =
          "operation \(position) (\(operation.name) \(operation.path.pointer)): "
          + error.message
        throw error
      }
    }
    self = result
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

  private mutating func apply(_ operation: Patch.Operation) throws {
    switch operation {
    case .add(let path, let value):
      try add(value, at: path.tokens[...])
    case .remove(let path):
      _ = try remove(at: path.tokens[...])
    case .replace(let path, let value):
      try replace(at: path.tokens[...], with: value)
    case .move(let from, let path):
      let source = from.tokens
      let target = path.tokens
      if source == target {
        _ = try value(at: from)  // it must exist; moving it onto itself changes nothing
        return
      }
      if target.count > source.count, Array(target.prefix(source.count)) == source {
        throw JSON.Error(
          .typeMismatch,
          "cannot move a value into itself (from \(from.pointer))",
          path: path.steps.map(\.component))
      }
      let moved = try remove(at: source[...])
      try add(moved, at: target[...])
    case .copy(let from, let path):
      try add(try value(at: from), at: path.tokens[...])
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
      switch parent {
      case .object(var object):
        parent = .null  // the object is ours alone while it changes
        object[token] = value
        parent = .object(object)
      case .array(var array):
        let position: Int
        if token == "-" {
          position = array.count
        } else {
          position = try Self.position(token, in: array, allowingEnd: true)
        }
        parent = .null
        array.insert(value, at: position)
        parent = .array(array)
      default:
        throw Self.notContainer(parent, token)
      }
    }
  }

  private mutating func remove(at tokens: ArraySlice<String>) throws -> JSON {
    guard !tokens.isEmpty else {
      throw JSON.Error(.typeMismatch, "cannot remove the whole document")
    }
    return try withParent(of: tokens) { parent, token in
      switch parent {
      case .object(var object):
        guard object[token] != nil else { throw Self.noKey(token) }
        parent = .null
        let removed = object.removeValue(forKey: token) ?? .null
        parent = .object(object)
        return removed
      case .array(var array):
        let position = try Self.position(token, in: array, allowingEnd: false)
        parent = .null
        let removed = array.remove(at: position)
        parent = .array(array)
        return removed
      default:
        throw Self.notContainer(parent, token)
      }
    }
  }

  private mutating func replace(at tokens: ArraySlice<String>, with value: JSON) throws {
    guard !tokens.isEmpty else {
      self = value
      return
    }
    try withParent(of: tokens) { parent, token in
      switch parent {
      case .object(var object):
        guard object[token] != nil else { throw Self.noKey(token) }
        parent = .null
        object[token] = value
        parent = .object(object)
      case .array(var array):
        let position = try Self.position(token, in: array, allowingEnd: false)
        parent = .null
        array[position] = value
        parent = .array(array)
      default:
        throw Self.notContainer(parent, token)
      }
    }
  }

  /// Runs `body` in place on the container that holds the last token's value, with that
  /// token. `tokens` is not empty (the callers handle the whole document).
  private mutating func withParent<R>(
    of tokens: ArraySlice<String>, _ body: (inout JSON, String) throws -> R
  ) throws -> R {
    guard let first = tokens.first else {
      throw JSON.Error(.typeMismatch, "the whole document has no container")
    }
    if tokens.count == 1 { return try body(&self, first) }
    let rest = tokens.dropFirst()
    switch self {
    case .object(var object):
      guard var child = object[first] else { throw Self.noKey(first) }
      self = .null  // release our references so the child is changed in place
      object[first] = .null
      do {
        let result = try child.withParent(of: rest, body)
        object[first] = child
        self = .object(object)
        return result
      } catch {
        throw JSON.Error.wrapping(error).prefixed(key: first)
      }
    case .array(var array):
      let position = try Self.position(first, in: array, allowingEnd: false)
      var child = array[position]
      self = .null
      array[position] = .null
      do {
        let result = try child.withParent(of: rest, body)
        array[position] = child
        self = .array(array)
        return result
      } catch {
        throw JSON.Error.wrapping(error).prefixed(index: position)
      }
    default:
      throw Self.notContainer(self, first)
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
    switch (self, other) {
    case (.string(let a), .string(let b)):
      return a.unicodeScalars.elementsEqual(b.unicodeScalars)
    case (.array(let a), .array(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.isIdentical(to: $1) }
    case (.object(let a), .object(let b)):
      return a.count == b.count
        && a.allSatisfy { key, value in b[key].map { value.isIdentical(to: $0) } ?? false }
    default:
      return self == other
    }
  }
}
