import CAutoMapShims

/// The nesting bound of the paths that map through `JSON` values.
///
/// Byte paths are bounded by the reader's and writer's own depth counts. `JSON` paths recurse
/// through `init(decode:)` and `json`, which a model may implement by hand and which take no
/// depth argument, so the depth is counted per thread: every model, array and dictionary
/// counts one level, and going deeper than ``JSON/maximumDepth`` (a reference cycle while
/// encoding, a hand-built `JSON` too deep, a model flattened into itself) throws instead of
/// overflowing the stack.
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

  /// Throws the depth error when this thread's stack is running low: for paths whose levels
  /// take much more stack than a model's (untagged enums' trials), so that a document within
  /// ``JSON/maximumDepth`` that the stack cannot hold is refused instead of crashing, in any
  /// build (a debug build or AddressSanitizer takes several times the stack of a release one).
  @inline(__always)
  static func checkStack() throws {
    if automap_stack_remaining() < 256 * 1024 {
      throw JSON.Error(
        .tooDeep(limit: JSON.maximumDepth),
        "nesting deeper than this thread's stack can hold (at most \(JSON.maximumDepth) models,"
          + " arrays and dictionaries)")
    }
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
