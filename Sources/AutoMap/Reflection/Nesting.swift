import CAutoMapShims

/// The nesting bound of the paths that map through `JSON` values.
///
/// Byte paths are bounded by the reader's and writer's own depth counts. `JSON` paths recurse
/// through `init(decode:)` and `json`, which a model may implement by hand and which take no
/// depth argument, so the depth is counted per thread, in the levels the document has (one per
/// array or object, as the bytes count them): every model, array and dictionary counts one,
/// the objects a nested path goes through count (``placed(_:encoding:_:)``), a
/// flattened model counts none, and `JSON` no mapping walks (a `JSON` property, what a
/// transform takes or makes) counts its own (``checkFits(_:encoding:)``). Going deeper than
/// ``JSON/maximumDepth`` (a reference cycle while encoding, a hand-built `JSON` too deep)
/// throws instead of overflowing the stack, and so does a model flattened into itself, which
/// reads or writes one object again and again (``flattened(at:encoding:_:)``).
enum Nesting {
  @inline(__always)
  static func level<R>(encoding: Bool, _ body: () throws -> R) throws -> R {
    try level(encoding: encoding, wrap: { $0 }, body)
  }

  /// ``level(encoding:_:)`` for `Decoder`s and `Encoder`s, whose errors must be
  /// `DecodingError`s and `EncodingError`s: nesting too deep is reported through `wrap`.
  @inline(__always)
  static func level<R>(
    encoding: Bool, wrap: (JSON.Error) -> any Swift.Error, _ body: () throws -> R
  ) throws -> R {
    defer { automap_leave_level() }
    if automap_enter_level() > JSON.maximumDepth { throw wrap(tooDeep(encoding: encoding)) }
    if stackIsLow { throw wrap(stackExhausted(encoding: encoding)) }
    return try body()
  }

  /// The levels this thread is inside.
  static var depth: Int { automap_nesting_level() }

  /// Runs `body` with `levels` more levels counted: a byte path counts its levels in its
  /// reader, so a value it hands to a `JSON` path (a transform, JSON inside a string) counts on
  /// from the reader's depth instead of from 0.
  @inline(__always)
  static func within<R>(readerLevels levels: Int, _ body: () throws -> R) rethrows -> R {
    automap_add_levels(levels)
    defer { automap_add_levels(-levels) }
    return try body()
  }

  /// Runs `body` for a field's value `levels` levels from the model's own object: inside the
  /// objects its path goes through (`.index(["a", "b"])`: one), or, at `-1`, the object
  /// itself (`.index([])`, flattening). The `JSON` paths' side of what the byte paths count in
  /// their readers and writers.
  ///
  /// - The objects a path goes through are levels like any other: past the bound is the depth
  ///   error, and the value inside counts on from them.
  /// - A flattened value has no level of its own: its members are the object's. The level
  ///   its model, dictionary or `JSON` counts is the object's, taken back here. One flattened
  ///   value inside another reads or writes the same object again (for ever, for a model
  ///   flattened into itself): such values are bounded on their own, as levels are.
  ///
  /// The objects on a path are checked by the caller (``checkRoom(_:encoding:)``): a decoder
  /// before, for those its lookup stepped into; an encoder after, once the value is one it
  /// writes.
  @inline(__always)
  static func placed<R>(_ levels: Int, encoding: Bool, _ body: () throws -> R) throws -> R {
    if levels == 0 { return try body() }
    if levels < 0 {
      return try flattened(at: depth, encoding: encoding) { try within(readerLevels: levels, body) }
    }
    return try within(readerLevels: levels, body)
  }

  /// Throws the depth error when `levels` more levels would go past the bound.
  @inline(__always)
  static func checkRoom(_ levels: Int, encoding: Bool) throws {
    if levels > 0, depth + levels > JSON.maximumDepth { throw tooDeep(encoding: encoding) }
  }

  /// Runs `body` for a value read again from the object at `level`, or written into it
  /// (`.index([])`): at most ``JSON/maximumDepth`` of them, one inside another, at one level,
  /// on every path. Their frames come on top of the levels', so the stack is checked too
  /// (``checkStack(encoding:)``).
  static func flattened<R>(at level: Int, encoding: Bool, _ body: () throws -> R) throws -> R {
    let (outerLevel, outerCount) = (automap_flattening_level_get(), automap_flattening_count_get())
    let count = outerLevel == level ? outerCount + 1 : 1
    automap_flattening_set(level, count)
    defer { automap_flattening_set(outerLevel, outerCount) }
    if count > JSON.maximumDepth { throw tooDeep(encoding: encoding) }
    try checkStack(encoding: encoding)
    return try body()
  }

  /// Throws the depth error when `json`, a value no decoder or encoder walks (a `JSON`
  /// property, what a transform takes or makes), would go past the bound at this level: the
  /// byte paths' reader and writer count its levels; the `JSON` paths count them here.
  static func checkFits(_ json: JSON, encoding: Bool) throws {
    let room = JSON.maximumDepth - depth
    if levels(of: json, upTo: room) > room { throw tooDeep(encoding: encoding) }
  }

  /// The levels of `json`: one for each array or object around its deepest value. Counted up
  /// to `limit + 1` at most, so that a value too deep is not walked to its bottom; without
  /// recursion (the containers on the way down wait on a list, each with its next value), so
  /// a value of any depth is measured on any thread's stack.
  static func levels(of json: JSON, upTo limit: Int) -> Int {
    var open: [(values: ContainerValues, next: Int)] = []
    var most = 0
    var value = json
    while true {
      if let values = ContainerValues(value) {
        guard open.count < limit else { return limit + 1 }
        open.append((values, 0))
        most = max(most, open.count)
      }
      // The next value of the innermost container with one left.
      while let last = open.indices.last, open[last].next == open[last].values.count {
        open.removeLast()
      }
      guard let last = open.indices.last else { return most }
      value = open[last].values[open[last].next]
      open[last].next += 1
    }
  }

  /// Throws the depth error when this thread's stack is running low: for paths whose levels
  /// take much more stack than a model's (untagged enums' trials), so that a document within
  /// ``JSON/maximumDepth`` that the stack cannot hold is refused instead of crashing, in any
  /// build (a debug build or AddressSanitizer takes several times the stack of a release one).
  @inline(__always)
  static func checkStack(encoding: Bool = false) throws {
    if automap_stack_remaining() < 256 * 1024 { throw stackExhausted(encoding: encoding) }
  }

  /// Throws the depth error when this thread's stack could not hold one more level: every
  /// level mapping enters asks (the reader's and writer's, ``level(encoding:_:)``, the
  /// `Codable` coders'), so that a document within ``JSON/maximumDepth`` that a small stack
  /// cannot hold (a dispatch queue's 512 KiB on Apple's systems) is refused, never a crash.
  @inline(__always)
  static func checkLevelStack(encoding: Bool) throws {
    if stackIsLow { throw stackExhausted(encoding: encoding) }
  }

  /// Whether this thread's stack could not hold one more level (``checkLevelStack(encoding:)``).
  @inline(__always)
  static var stackIsLow: Bool { automap_stack_is_low() }

  /// The error of nesting deeper than the thread's stack can hold.
  static func stackExhausted(encoding: Bool, _ place: String = "") -> JSON.Error {
    var error = JSON.Error(
      encoding ? .unencodable : .tooDeep(limit: JSON.maximumDepth),
      "nesting deeper than this thread's stack can hold (at most \(JSON.maximumDepth) arrays"
        + " and objects, on a stack large enough)\(place)")
    error.exhaustsStack = true
    return error
  }

  static func tooDeep(encoding: Bool) -> JSON.Error {
    encoding
      ? JSON.Error(
        .unencodable,
        "nesting deeper than \(JSON.maximumDepth) objects and arrays: is there a reference cycle?")
      : JSON.Error(
        .tooDeep(limit: JSON.maximumDepth),
        "nesting deeper than \(JSON.maximumDepth) models, arrays and dictionaries")
  }
}
