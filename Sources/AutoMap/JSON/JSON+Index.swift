extension JSON {
  /// Where a value lives: a key, an array position, or a path of them.
  ///
  /// Literals make indices: a string is a key, an integer a position, an array a path.
  ///
  /// ```swift
  /// let key: JSON.Index = "user_id"
  /// let path: JSON.Index = ["data", "users", 0, "id"]
  /// json[path]                // the same as json["data", "users", 0, "id"]
  /// ```
  ///
  /// A string is always one key, dots included: `"a.b"` is the key `a.b`, not a path.
  /// The empty path `[]` is the value itself. Indices are equal when their keys have the
  /// same bytes, as JSON keys are: `"café"` written with `é` and with `e` and a combining
  /// accent are two keys, and two indices.
  public struct Index: Sendable, Hashable {
    enum Step: Sendable, Hashable {
      case key(String)
      case position(Int)
      /// A JSON Pointer reference token that could name either: digits or `-`. A key in an
      /// object; in an array, the position the digits spell (`-` is past the last element).
      case token(String)

      /// Keys and tokens by their bytes (`JSON.sameKey`), not by `String`'s `==`.
      static func == (lhs: Step, rhs: Step) -> Bool {
        switch (lhs, rhs) {
        case (.key(let a), .key(let b)), (.token(let a), .token(let b)): JSON.sameKey(a, b)
        case (.position(let a), .position(let b)): a == b
        default: false
        }
      }

      func hash(into hasher: inout Hasher) {
        switch self {
        case .key(let key):
          hasher.combine(0 as UInt8)
          Self.hashBytes(of: key, into: &hasher)
        case .position(let position):
          hasher.combine(1 as UInt8)
          hasher.combine(position)
        case .token(let token):
          hasher.combine(2 as UInt8)
          Self.hashBytes(of: token, into: &hasher)
        }
      }

      private static func hashBytes(of text: String, into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(text.utf8.count)  // ends the bytes: keys next to each other stay apart
      }
    }

    let steps: [Step]

    init(steps: [Step]) { self.steps = steps }

    /// One key.
    public static func key(_ key: String) -> Index { Index(steps: [.key(key)]) }

    /// One array position.
    public static func position(_ position: Int) -> Index { Index(steps: [.position(position)]) }

    /// A path through several indices, each of which may itself be a path.
    ///
    /// ```swift
    /// let users: JSON.Index = ["data", "users"]
    /// let name = JSON.Index.path([users, .position(0), "name"])  // data.users[0].name
    /// ```
    public static func path(_ indices: [Index]) -> Index {
      Index(steps: indices.flatMap(\.steps))
    }

    /// Whether this is the empty path, the value itself.
    public var isEmpty: Bool { steps.isEmpty }

    /// The single key this index is, if it is one key.
    var singleKey: String? {
      if steps.count == 1, case .key(let key) = steps[0] { return key }
      return nil
    }
  }
}

extension JSON.Index: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByArrayLiteral
{
  /// One key, dots included: `"a.b"` is the key `a.b`.
  public init(stringLiteral value: String) { self.init(steps: [.key(value)]) }
  /// One array position.
  public init(integerLiteral value: Int) { self.init(steps: [.position(value)]) }
  /// A path: `["data", "users", 0]`.
  public init(arrayLiteral elements: JSON.Index...) {
    self.init(steps: elements.flatMap(\.steps))
  }
}

extension JSON.Index: CustomStringConvertible {
  /// The index as a JSON path: `data.users[0].id`.
  public var description: String {
    var error = JSON.Error(.custom, "")
    error = error.prefixed(self)
    return error.path
  }
}

extension JSON {
  /// The value at `index`, or ``missing(_:)`` naming the path when it is not there.
  ///
  /// ```swift
  /// json["data", "users", 1, "name"]
  /// json[["data", "users"]]           // a path held in a variable works the same
  /// ```
  ///
  /// Setting through an index creates what is missing: objects for keys, arrays (padded with
  /// `null`) for positions.
  ///
  /// ```swift
  /// var json: JSON = nil
  /// json["a", "b", 2] = 1              // {"a":{"b":[null,null,1]}}
  /// ```
  ///
  /// A negative position cannot be created, nor positions that would add more than
  /// ``fillLimit`` (1 048 576) `null`s in all, along the path (a pointer from input cannot
  /// make arrays as large as it says): setting through them leaves the value unchanged.
  public subscript(_ indices: Index...) -> JSON {
    get { self[Index.path(indices)] }
    set { self[Index.path(indices)] = newValue }
  }

  /// The value at `index`, or ``missing(_:)`` naming the path when it is not there.
  public subscript(_ index: Index) -> JSON {
    get {
      var current = self
      var reached: [Error.Component] = []
      for step in index.steps {
        let parent = current
        current = parent.child(step)
        if case .missing(var error) = current {
          // Name the whole path up to and including the step that failed.
          for component in reached.reversed() { error = error.prefixed(component) }
          return .missing(error)
        }
        reached.append(parent.component(for: step))
      }
      return current
    }
    set {
      setValue(newValue, along: index.steps)
    }
  }

  /// How many containers reading the value at `index` in this one steps into below the first
  /// step, as a reader of the bytes does: each array or object a later step looks into, up to
  /// the first step that finds nothing (the levels of a model's nested path, whose first key
  /// is a member of the model's own object).
  func levelsEntered(along index: Index) -> Int {
    guard let first = index.steps.first else { return 0 }
    var current = child(first)
    var entered = 0
    for step in index.steps.dropFirst() {
      switch (current, step) {
      case (.object, .key), (.object, .token), (.array, .position): break
      case (.array, .token(let token)) where Index.arrayPosition(token) != nil: break
      default: return entered
      }
      entered += 1
      current = current.child(step)
    }
    return entered
  }

  /// One step down, or ``missing(_:)``: with the step as its path when the key or index is
  /// not there, with no path when this value is not a container (the error is here).
  private func child(_ step: Index.Step) -> JSON {
    switch (self, step) {
    case (.missing, _):
      return self
    case (.object(let object), .key(let key)):
      if let value = object[key] { return value }
      return .missing(Error(.missingValue, "no key \(JSON.string(key))", path: [.key(key)]))
    case (.array(let array), .position(let position)):
      if array.indices.contains(position) { return array[position] }
      return .missing(
        Error(
          .missingValue, "index \(position) out of range (array of \(array.count))",
          path: [.index(position)]))
    case (_, .key(let key)):
      return .missing(
        Error(
          .typeMismatch,
          "expected object to look up key \(JSON.string(key)), found \(briefDescription)"))
    case (_, .position(let position)):
      return .missing(
        Error(
          .typeMismatch, "expected array to read index \(position), found \(briefDescription)"))
    case (.object, .token(let token)):
      return child(.key(token))
    case (.array(let array), .token(let token)):
      if let position = JSON.Index.arrayPosition(token) { return child(.position(position)) }
      let problem =
        token == "-"
        ? "\"-\" is past the last element (array of \(array.count))"
        : "\(JSON.string(token)) is not an array index"
      return .missing(Error(.missingValue, problem, path: [.key(token)]))
    case (_, .token(let token)):
      return .missing(
        Error(
          .typeMismatch,
          "expected object or array to look up \(JSON.string(token)), found \(briefDescription)"))
    }
  }

  /// The path component `step` is when taken from this value: a pointer token is a position
  /// in an array and a key anywhere else.
  func component(for step: Index.Step) -> Error.Component {
    switch step {
    case .key(let key): .key(key)
    case .position(let position): .index(position)
    case .token(let token):
      if case .array = self, let position = JSON.Index.arrayPosition(token) {
        .index(position)
      } else {
        .key(token)
      }
    }
  }

  /// Sets the value at the end of `steps`, making the containers on the way: without
  /// recursion, so a path of any length fits any thread's stack.
  private mutating func setValue(_ value: JSON, along steps: [Index.Step]) {
    guard fills(along: steps) else { return }
    var path = OpenPath()
    var current = self
    self = .null  // our reference to the root is its only one, so it changes in place
    for step in steps {
      switch Self.resolved(step, in: current) {
      case .position(let position): path.enter(&current, position: position)
      case .key(let key), .token(let key): path.enter(&current, key: key)
      }
    }
    self = path.close(with: value)
  }

  /// How many `null`s setting through positions may add after arrays' ends, in all along one
  /// path: 1 048 576.
  public static let fillLimit = 1 << 20

  /// Whether setting along `steps` makes no position that cannot be created (negative, or
  /// adding more than ``fillLimit`` `null`s in all): looked up before anything changes, so
  /// that such a set leaves the value as it was.
  private func fills(along steps: [Index.Step]) -> Bool {
    // Keys alone (the paths of models' `.index` options) make no position.
    guard steps.contains(where: { if case .key = $0 { false } else { true } }) else {
      return true
    }
    var current: JSON? = self
    var filled = 0
    for step in steps {
      let here = current ?? .null
      switch Self.resolved(step, in: here) {
      case .position(let position):
        let elements = here.array
        guard position >= 0 else { return false }
        let added = Swift.max(0, position - (elements?.count ?? 0))
        guard added <= Self.fillLimit - filled else { return false }
        filled += added
        current = elements.flatMap { $0.indices.contains(position) ? $0[position] : nil }
      case .key(let key), .token(let key):
        current = here.object?[key]
      }
    }
    return true
  }

  /// What a step names in `value` when setting through it: a token is a key in an object, a
  /// position in an array (`"-"` its end) or where there is nothing yet, a key otherwise.
  private static func resolved(_ step: Index.Step, in value: JSON) -> Index.Step {
    guard case .token(let token) = step else { return step }
    if case .object = value { return .key(token) }
    if token == "-", case .array(let array) = value { return .position(array.count) }
    if let position = Index.arrayPosition(token) { return .position(position) }
    return .key(token)
  }
}
