extension JSON {
  /// The one error AutoMap throws: what went wrong and where.
  ///
  /// ``path`` says where in the document, as a JSON path (`statuses[3].user.id`), and
  /// ``description`` says what was expected and what was found. For malformed text the
  /// ``kind`` carries the byte offset, line and column.
  ///
  /// ```swift
  /// do {
  ///   let user = try User(jsonString: #"{"id": "seven"}"#)
  /// } catch let error as JSON.Error {
  ///   error.path          // "id"
  ///   print(error)        // at id: expected Int64, found string "seven"
  /// }
  /// ```
  public struct Error: Swift.Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Kind: Sendable, Equatable {
      /// The text is not valid JSON. Positions count from 0 (`offset`) and 1 (`line`,
      /// `column`; columns count bytes).
      case malformed(offset: Int, line: Int, column: Int)
      /// Nesting went deeper than the reader's limit.
      case tooDeep(limit: Int)
      /// `JSON(jsonData:)` met a number beyond `Double`'s range (`1e400`). Positions as for
      /// ``malformed(offset:line:column:)``. (While mapping a model such a number is kept: a
      /// `Double` property fails with ``typeMismatch``, which its `.defaultValue` or `.nonNil`
      /// can recover, and a `JSON` property holds the number as written.)
      case numberOutOfRange(offset: Int, line: Int, column: Int)
      /// A value has the wrong type, or does not fit the type (an integer out of range, a
      /// fraction for an integer, an unknown enum raw value, a malformed date).
      case typeMismatch
      /// A required value is absent or `null`.
      case missingValue
      /// A model cannot be mapped as declared: an unmappable property type, an option that
      /// does not fit, a `let` that cannot be written safely. Thrown the first time the model
      /// is used.
      case invalidModel
      /// A value cannot be written as JSON (a non-finite number, nothing).
      case unencodable
      /// An error thrown by user code: a transform, a hand-written mapping, a validation.
      case custom
    }

    /// A step in a path.
    enum Component: Sendable, Equatable {
      case key(String)
      case index(Int)
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// What went wrong, without the location.
    public internal(set) var message: String
    /// The underlying error, when user code threw something other than `JSON.Error`.
    public let underlying: (any Swift.Error & Sendable)?
    /// The path from the root to the failure, stored innermost first so that unwinding can
    /// append in O(1).
    var reversedPath: [Component]
    /// For an error in a JSON Lines stream: the line of the value that failed.
    var streamLine: Int? {
      didSet {
        if !moreProblems.isEmpty {
          for i in moreProblems.indices { moreProblems[i].streamLine = streamLine }
        }
      }
    }
    /// When a decode collected every problem (``JSON/Configuration/collectsAllErrors``): the
    /// problems after this one, at most ``problemLimit`` - 1, paths from the same place.
    var moreProblems: [Error] = []
    /// How many problems there were in all, counting those past the limit.
    var problemTotal = 1
    /// Set on an error that collected problems when one of them ended the collecting
    /// (malformed text, nesting too deep, a model that cannot be mapped): the containers
    /// around it stop too, though its first problem may be recoverable.
    var endsCollecting = false
    /// Set on the error of a thread's stack that could not hold one more level
    /// (``Nesting/stackExhausted(encoding:_:)``): the value may well be fine, so nothing may
    /// take the error for the value's (no fallback, untagged case or skipped element stands
    /// in), whatever its kind.
    var exhaustsStack = false

    init(
      _ kind: Kind, _ message: String, path: [Component] = [],
      underlying: (any Swift.Error & Sendable)? = nil
    ) {
      self.kind = kind
      self.message = message
      self.reversedPath = path.reversed()
      self.underlying = underlying
    }

    /// Makes a custom error, for transforms and validation hooks to throw.
    ///
    /// ```swift
    /// guard age >= 0 else { throw JSON.Error.custom("age must not be negative") }
    /// ```
    public static func custom(_ message: String) -> Error {
      Error(.custom, message)
    }

    /// Every problem found, when the decode collected them all
    /// (``JSON/Configuration/collectsAllErrors``): this error first, then the others as the
    /// decode met them (a model's properties in declaration order, elements and members in
    /// document order), at most ``problemLimit``. Otherwise just this error.
    ///
    /// ```swift
    /// catch let error as JSON.Error {
    ///   for problem in error.problems { print(problem.path, problem.message) }
    ///   print(error.problemCount)   // all of them, also past the limit
    /// }
    /// ```
    public var problems: [Error] {
      guard !moreProblems.isEmpty else { return [self] }
      return [single] + moreProblems
    }

    /// How many problems the decode found, including those past ``problemLimit`` that
    /// ``problems`` leaves out; 1 unless it collected every problem.
    public var problemCount: Int { problemTotal }

    /// The most problems one error lists: 100. Counting goes on past it.
    public static let problemLimit = 100

    /// This problem alone, without the ones collected after it.
    var single: Error {
      guard problemTotal != 1 || !moreProblems.isEmpty || endsCollecting else { return self }
      var copy = self
      copy.moreProblems = []
      copy.problemTotal = 1
      copy.endsCollecting = false
      return copy
    }

    /// Where the failure is, as a JSON path: `statuses[3].user.id`; `""` for the root.
    /// Keys that are not plain identifiers are quoted: `meta["content-type"]`.
    public var path: String {
      var text = ""
      for component in reversedPath.reversed() {
        switch component {
        case .index(let index): text += "[\(index)]"
        case .key(let key):
          if Self.isPlainKey(key) {
            if !text.isEmpty { text += "." }
            text += key
          } else {
            text += "[\(JSON.string(key).description)]"
          }
        }
      }
      return text
    }

    /// The line of the document the error is on, counting from 1, when it is known: for
    /// malformed text (as ``kind`` also says), and for any error in a JSON Lines stream (see
    /// ``JSONStream``), the line of the value that failed.
    ///
    /// ```swift
    /// catch let error as JSON.Error {
    ///   print(error.line ?? 0, error.path)   // 7 [6].user.id
    /// }
    /// ```
    public var line: Int? {
      switch kind {
      case .malformed(_, let line, _), .numberOutOfRange(_, let line, _): line
      default: streamLine
      }
    }

    /// "at statuses[3].user.id: expected Int, found string \"x\"".
    /// Malformed-text errors at the root already say where (byte, line, column) and read as
    /// their message alone. An error that collected several problems lists them, a line each,
    /// after their count: "3 problems:\nat [0].id: …\nat [2].name: …".
    public var description: String {
      guard problemTotal > 1 else { return singleDescription }
      let listed = 1 + moreProblems.count
      var text =
        listed < problemTotal
        ? "\(problemTotal) problems, the first \(listed) listed:" : "\(problemTotal) problems:"
      text += "\n" + singleDescription
      for problem in moreProblems { text += "\n" + problem.singleDescription }
      return text
    }

    /// The description of this problem alone.
    private var singleDescription: String {
      if reversedPath.isEmpty {
        switch kind {
        case .malformed, .tooDeep, .numberOutOfRange: return message
        default: return "at the root: \(message)"
        }
      }
      if let streamLine, !Self.isPositioned(kind) {
        return "at \(path) (line \(streamLine)): \(message)"
      }
      return "at \(path): \(message)"
    }

    /// Kinds whose message already says where, with byte, line and column.
    private static func isPositioned(_ kind: Kind) -> Bool {
      switch kind {
      case .malformed, .numberOutOfRange: true
      default: false
      }
    }

    /// The same error one level further out: `component` is prepended to the path.
    func prefixed(_ component: Component) -> Error {
      var copy = self
      copy.reversedPath.append(component)
      if !moreProblems.isEmpty {
        for i in copy.moreProblems.indices { copy.moreProblems[i].reversedPath.append(component) }
      }
      return copy
    }

    func prefixed(key: String) -> Error { prefixed(Component.key(key)) }
    func prefixed(index: Int) -> Error { prefixed(Component.index(index)) }

    /// Appends the components of `index` (outermost first) to the path.
    func prefixed(_ index: Index) -> Error {
      var copy = self
      for step in index.steps.reversed() { copy = copy.prefixed(step.component) }
      return copy
    }

    private static func isPlainKey(_ key: String) -> Bool {
      guard let first = key.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
      else { return false }
      return key.utf8.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"):
          true
        default: false
        }
      }
    }
  }
}

extension JSON.Error {
  /// "expected Int, found string \"x\"".
  static func mismatch(expected: String, found: JSON) -> JSON.Error {
    if case .missing(let error) = found { return error }
    if case .null = found {
      return JSON.Error(.missingValue, "expected \(expected), found null")
    }
    return JSON.Error(.typeMismatch, "expected \(expected), found \(found.briefDescription)")
  }

  /// Wraps whatever user code threw; a `JSON.Error` passes through unchanged.
  static func wrapping(_ error: any Swift.Error) -> JSON.Error {
    if let error = error as? JSON.Error { return error }
    return JSON.Error(.custom, String(describing: error), underlying: SendableBox(error))
  }
}

/// Carries a non-`Sendable` error value inside a `Sendable` one; errors are in practice
/// immutable values.
struct SendableBox: Swift.Error, @unchecked Sendable, CustomStringConvertible {
  let error: any Swift.Error
  init(_ error: any Swift.Error) { self.error = error }
  var description: String { String(describing: error) }
}

extension JSON.Error: Equatable {
  /// Errors are equal when kind, message, path (and a stream's line) are equal, and so are
  /// the problems they collected.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.kind == rhs.kind && lhs.message == rhs.message && lhs.reversedPath == rhs.reversedPath
      && lhs.streamLine == rhs.streamLine && lhs.problemTotal == rhs.problemTotal
      && lhs.moreProblems == rhs.moreProblems
  }
}
