extension JSON {
  /// A value an option stood in for while decoding: where, which option, and what it
  /// replaced. Recorded only when asked, with ``JSON/recordingSubstitutions(_:)`` or
  /// ``JSON/Configuration/onSubstitution``.
  ///
  /// ```swift
  /// let (member, substituted) = try JSON.recordingSubstitutions {
  ///   try Member(jsonString: #"{"id": 7, "status": "archived", "friends": "none"}"#)
  /// }
  /// for substitution in substituted { print(substitution) }
  /// // at status: "archived" names no case of Status; used its fallback case .unknown
  /// // at friends: expected Array<Int>, found string "none"; used .nonNil
  /// ```
  public struct Substitution: Sendable, Equatable, CustomStringConvertible {
    /// Which option stepped in.
    public enum Kind: Sendable, Equatable {
      /// A property's `.defaultValue` for an absent, `null` or unusable value.
      case defaultValue
      /// A property's `.nonNil`: its type's `init()` for an absent, `null` or unusable value.
      case nonNil
      /// `.lossy` left out an element of an array or set, or a member of a dictionary.
      case lossyElement
      /// `.lossy` made an optional `nil` because its value did not map.
      case lossyNil
      /// A ``JSONFallbackCase`` enum read a value that names none of its cases.
      case fallbackCase
      /// The property's index had no usable value and its `.alternativeIndex` was read.
      case alternativeIndex
    }

    /// Which option stepped in.
    public let kind: Kind
    /// Where, as a JSON path (as ``JSON/Error/path``): the property, element or member whose
    /// value was replaced or left out; for ``Kind/alternativeIndex`` the index that had none.
    public let path: String
    /// What was there: `"absent"`, `"null"`, the problem's message, or the value that names
    /// no case.
    public let reason: String
    /// The error the substitution covered, with its path from the root (it may lie deeper
    /// than ``path``, inside a nested model, and ``reason`` then starts with that path);
    /// `nil` for absent and `null` values, fallback cases and alternative indexes.
    public let problem: JSON.Error?
    /// What stood in, for messages: `".defaultValue"`, `"its fallback case .unknown"`.
    let replacement: String

    /// "at friends: expected Array<Int>, found string \"none\"; used .nonNil".
    public var description: String {
      let what: String
      switch kind {
      case .defaultValue, .nonNil, .fallbackCase: what = "used \(replacement)"
      case .lossyElement: what = "left out (.lossy)"
      case .lossyNil: what = "nil (.lossy)"
      case .alternativeIndex: what = "read .alternativeIndex(\(replacement))"
      }
      return "at \(path.isEmpty ? "the root" : path): \(reason); \(what)"
    }

    /// Substitutions are equal when they say the same thing at the same place.
    public static func == (lhs: Self, rhs: Self) -> Bool {
      lhs.kind == rhs.kind && lhs.path == rhs.path && lhs.reason == rhs.reason
        && lhs.problem == rhs.problem && lhs.replacement == rhs.replacement
    }
  }

  /// Runs `body` and returns its result with every substitution made by the AutoMap calls in
  /// it, in the order they were made (a model's properties in declaration order, elements in
  /// order). Scopes nest: an enclosing `recordingSubstitutions` or
  /// ``JSON/Configuration/onSubstitution`` receives them as well. A handler's own AutoMap
  /// calls run outside the scope it handles: they are not recorded here.
  ///
  /// ```swift
  /// let (orders, substituted) = try JSON.recordingSubstitutions {
  ///   try [Order](jsonData: data)
  /// }
  /// if !substituted.isEmpty { log.notice("\(substituted.count) values defaulted: \(substituted)") }
  /// ```
  ///
  /// Byte input is then decoded through `JSON` values (about the speed of
  /// `T(decode: JSON(jsonData:))`) so that each path is known; calls outside such a scope
  /// are not slowed. A hand-written `init(decode:)` sees substitutions of the values it
  /// decodes with AutoMap, with paths from the value it was given.
  public static func recordingSubstitutions<R>(_ body: () throws -> R) rethrows -> (
    R, [Substitution]
  ) {
    let log = SubstitutionLog()
    // An enclosing scope or handler sees these substitutions too: handlers add up.
    let value = try ConfigurationContext.with(
      Configuration(onSubstitution: { log.append($0) }), body)
    return (value, log.entries)
  }
}

/// Collects substitutions for ``JSON/recordingSubstitutions(_:)``; safe from any thread.
private final class SubstitutionLog: Sendable {
  private let storage = Locked<[JSON.Substitution]>([])
  func append(_ substitution: JSON.Substitution) { storage.withLock { $0.append(substitution) } }
  var entries: [JSON.Substitution] { storage.withLock { $0 } }
}

/// Where recorded substitutions come from and go.
///
/// Nothing here runs unless some call in the process has asked for a report: the entry
/// points and the `JSON` path's containers load one flag (``Reporting``) that stays clear
/// until then, and the option branches (a default, a lossy element, a fallback case) record
/// only behind it. While recording, byte input goes through `JSON` values (``ModelDecoding``), whose
/// containers push each property, element and member onto ``location``, a task-local path,
/// so a substitution knows where it is.
enum Substitutions {
  /// The current call's handler, if it records substitutions.
  @inline(__always)
  static var handler: (@Sendable (JSON.Substitution) -> Void)? {
    guard Reporting.mayBeActive else { return nil }
    return ConfigurationContext.current?.onSubstitution
  }

  /// Whether the current call records substitutions.
  @inline(__always)
  static var isRecording: Bool {
    guard Reporting.mayBeActive else { return false }
    return ConfigurationContext.current?.onSubstitution != nil
  }

  /// One step of the path to the value being decoded (innermost last in `components`).
  final class Location: Sendable {
    let parent: Location?
    let components: [JSON.Error.Component]
    /// Set where a `Codable` enum's payload is decoded from the form synthesized `Codable`
    /// reads (`{"case": payload}`): maps a path below here (outermost first) to the
    /// document's, as the enum's errors are mapped.
    let relocate: (@Sendable ([JSON.Error.Component]) -> [JSON.Error.Component])?
    init(
      parent: Location?, components: [JSON.Error.Component],
      relocate: (@Sendable ([JSON.Error.Component]) -> [JSON.Error.Component])? = nil
    ) {
      self.parent = parent
      self.components = components
      self.relocate = relocate
    }
  }

  /// The path from the root of the current call to the value being decoded.
  @TaskLocal static var location: Location?

  /// Runs `body` one step deeper, at `components` (outermost first) from the current location.
  static func within<R>(_ components: [JSON.Error.Component], _ body: () throws -> R) rethrows
    -> R
  {
    guard !components.isEmpty else { return try body() }
    return try $location.withValue(
      Location(parent: location, components: components), operation: body)
  }

  static func within<R>(_ index: JSON.Index, _ body: () throws -> R) rethrows -> R {
    try within(index.components, body)
  }

  /// Runs `body`, which decodes a value laid out otherwise than the document (a `Codable`
  /// enum's payload under its case key), so that the paths of substitutions made in it go
  /// through `relocate` to the document's. Costs nothing when the call does not record.
  static func relocating<R>(
    _ relocate: @escaping @Sendable ([JSON.Error.Component]) -> [JSON.Error.Component],
    _ body: () throws -> R
  ) rethrows -> R {
    guard isRecording else { return try body() }
    return try $location.withValue(
      Location(parent: location, components: [], relocate: relocate), operation: body)
  }

  /// Records a substitution at `relative` from the current location, when the call records.
  /// `problem`, the error it covered, has its path relative to the current location too; the
  /// reason is its message, with its path when it lies deeper than the substitution.
  static func record(
    _ kind: JSON.Substitution.Kind, at relative: [JSON.Error.Component] = [],
    reason: @autoclosure () -> String = "", problem: @autoclosure () -> JSON.Error? = nil,
    replacement: @autoclosure () -> String
  ) {
    guard let handler else { return }
    var reversed: [JSON.Error.Component] = relative.reversed()
    var located = problem()?.single
    var step = location
    while let current = step {
      if let relocate = current.relocate {
        reversed = relocate(reversed.reversed()).reversed()
        if let problem = located {
          located?.reversedPath = relocate(problem.reversedPath.reversed()).reversed()
        }
      }
      reversed += current.components.reversed()
      located?.reversedPath += current.components.reversed()
      step = current.parent
    }
    let path = JSON.Error(reversedPath: reversed).path
    var text = reason()
    if let located {
      text = located.path == path ? located.message : "at \(located.path): \(located.message)"
    }
    handler(
      JSON.Substitution(
        kind: kind, path: path, reason: text, problem: located, replacement: replacement()))
  }

  /// Runs `body`, a trial whose value may be thrown away, and passes on the substitutions it
  /// recorded only when it returns: a trial that fails leaves none behind.
  static func tentatively<R>(_ body: () throws -> R) rethrows -> R {
    let (value, substituted) = try held(body)
    pass(substituted)
    return value
  }

  /// Runs `body` and returns its value with the substitutions it recorded, which are not
  /// passed on (``pass(_:)`` does); none when the call does not record.
  static func held<R>(_ body: () throws -> R) rethrows -> (R, [JSON.Substitution]) {
    guard handler != nil else { return (try body(), []) }
    let log = SubstitutionLog()
    let value = try ConfigurationContext.with(
      JSON.Configuration(onSubstitution: { log.append($0) }), replacingHandler: true, body)
    return (value, log.entries)
  }

  /// Records substitutions that ``held(_:)`` kept back.
  static func pass(_ substitutions: [JSON.Substitution]) {
    guard !substitutions.isEmpty, let handler else { return }
    for substitution in substitutions { handler(substitution) }
  }

  /// The reason text for a value `found` absent or `null`.
  static func reason(_ found: JSON) -> String {
    if case .missing(let error) = found { return error.message }
    return "null"
  }

}

extension JSON.Error {
  /// A path holder, for formatting paths.
  init(reversedPath: [Component]) {
    self.init(.custom, "")
    self.reversedPath = reversedPath
  }
}

extension JSON.Index {
  /// The steps as error path components, outermost first.
  var components: [JSON.Error.Component] {
    steps.map(\.component)
  }
}
