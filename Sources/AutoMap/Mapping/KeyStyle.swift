extension JSON {
  /// How property names become JSON keys, for properties without an explicit `.index`.
  ///
  /// Set it for a model, or for one call (which then applies to every model in it):
  ///
  /// ```swift
  /// struct Profile: JSONCodable {
  ///   static let keyStyle = JSON.KeyStyle.snakeCase   // avatarURL <-> "avatar_url"
  ///   var avatarURL: URL?
  ///   var displayName: String
  /// }
  ///
  /// let profile = try Profile(jsonData: data, keyStyle: .snakeCase)   // at the call site
  /// ```
  ///
  /// The key is computed from the property name, so both directions agree: `avatarURL` reads
  /// and writes `avatar_url` (where `Codable`'s `convertFromSnakeCase` makes `avatarUrl` and
  /// misses the property).
  public enum KeyStyle: Sendable, Hashable, CaseIterable {
    /// The property name as it is. The default.
    case exact
    /// `avatarURL` ↔ `avatar_url`, `userID` ↔ `user_id`, `version2Name` ↔ `version2_name`.
    case snakeCase
    /// `avatarURL` ↔ `AvatarURL`.
    case upperCamelCase
    /// `avatarURL` ↔ `avatar-url`: the snake-case words, joined by hyphens.
    case kebabCase
    /// `avatarURL` ↔ `AVATAR_URL`: the snake-case words, upper-cased.
    case screamingSnakeCase
    /// Decoding matches keys whatever their ASCII case (`age` reads `Age` or `AGE`);
    /// encoding writes the property name.
    case caseInsensitive

    /// The key for a property name in this style.
    ///
    /// ```swift
    /// JSON.KeyStyle.snakeCase.key(for: "avatarURL")  // "avatar_url"
    /// JSON.KeyStyle.kebabCase.key(for: "requestID")  // "request-id"
    /// ```
    public func key(for propertyName: String) -> String {
      switch self {
      case .exact, .caseInsensitive: return propertyName
      case .upperCamelCase: return propertyName.prefix(1).uppercased() + propertyName.dropFirst()
      case .snakeCase: return Self.snakeCased(propertyName)
      case .kebabCase: return Self.snakeCased(propertyName).replacingOccurrences(of: "_", with: "-")
      case .screamingSnakeCase: return Self.snakeCased(propertyName).uppercased()
      }
    }

    private static func snakeCased(_ name: String) -> String {
      let characters = Array(name)
      var result = ""
      for (position, character) in characters.enumerated() {
        guard character.isUppercase else {
          result.append(character)
          continue
        }
        if position > 0, result.last != "_" {
          let previous = characters[position - 1]
          let nextIsLower = position + 1 < characters.count && characters[position + 1].isLowercase
          // A word starts after a lowercase letter or digit (userID), or where an acronym
          // gives way to a word (URLString: URL | String).
          if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) {
            result.append("_")
          }
        }
        result += character.lowercased()
      }
      return result
    }

    /// The slot of this style in per-style tables.
    var slot: Int {
      switch self {
      case .exact: 0
      case .snakeCase: 1
      case .upperCamelCase: 2
      case .caseInsensitive: 3
      case .kebabCase: 4
      case .screamingSnakeCase: 5
      }
    }
  }
}

/// The key style set for the current call, if any; it overrides every model's own.
///
/// A task-local value, read at every entry point and every stream element. Reading one costs
/// about 90 instructions, so until some call in the process sets a key style (a flag that is
/// never cleared) ``override`` is `nil` without the lookup. Every binding goes through this
/// type, which sets the flag before it binds; a task sees its own bindings, and those of the
/// task it was made from, after the flag.
enum KeyStyleContext {
  @TaskLocal private static var bound: JSON.KeyStyle?

  /// Set before the first key style is bound; never cleared.
  private static var inUse: ProcessFlag { .keyStyle }

  /// The key style the current call set, if any.
  @inline(__always)
  static var override: JSON.KeyStyle? {
    guard inUse.isSet else { return nil }
    return bound
  }

  /// Runs `body` with `style` as the call's key style (`nil`: the models' own, or the
  /// enclosing call's).
  static func with<R>(_ style: JSON.KeyStyle?, _ body: () throws -> R) rethrows -> R {
    guard let style else { return try body() }
    if !inUse.isSet { inUse.set() }
    return try $bound.withValue(style, operation: body)
  }

  /// ``with(_:_:)`` for asynchronous work.
  static func with<R>(
    _ style: JSON.KeyStyle?, isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> R
  ) async rethrows -> R {
    guard let style else { return try await body() }
    if !inUse.isSet { inUse.set() }
    return try await $bound.withValue(style, operation: body)
  }

  /// Runs `body` with exactly `style` as the call's key style, `nil` included: what a scope
  /// that was left puts back (``with(_:_:)`` keeps the enclosing style for `nil`).
  static func restoring<R>(_ style: JSON.KeyStyle?, _ body: () throws -> R) rethrows -> R {
    // Nothing was ever bound: every task's style is `nil` already.
    guard inUse.isSet else { return try body() }
    return try $bound.withValue(style, operation: body)
  }
}
