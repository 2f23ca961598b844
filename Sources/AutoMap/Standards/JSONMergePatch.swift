extension JSON {
  /// Applies a JSON Merge Patch (RFC 7386): the patch's members replace this object's,
  /// objects merge recursively, `null` removes a member, and anything but an object replaces
  /// the value whole.
  ///
  /// ```swift
  /// var settings: JSON = ["theme": "dark", "font": ["size": 12, "family": "Menlo"]]
  /// settings.merge(patch: ["font": ["size": 14], "theme": nil])
  /// // {"font":{"size":14,"family":"Menlo"}}
  /// ```
  ///
  /// Merging cannot fail: every JSON value is a merge patch.
  public mutating func merge(patch: JSON) {
    guard case .object(let changes) = patch else {
      self = patch
      return
    }
    var object: Object
    if case .object(let existing) = self { object = existing } else { object = Object() }
    self = .null  // the object is ours alone while it changes
    for (key, change) in changes {
      if case .null = change {
        object.removeValue(forKey: key)
      } else if case .object = change {
        var member = object[key] ?? .null
        object[key] = .null
        member.merge(patch: change)
        object[key] = member
      } else {
        object[key] = change
      }
    }
    self = .object(object)
  }

  /// This value with a JSON Merge Patch (RFC 7386) applied; see ``merge(patch:)``.
  ///
  /// ```swift
  /// let updated = document.merging(patch: ["title": "Hello!", "author": ["phoneNumber": nil]])
  /// ```
  public func merging(patch: JSON) -> JSON {
    var copy = self
    copy.merge(patch: patch)
    return copy
  }

  /// The JSON Merge Patch (RFC 7386) that turns `source` into `target`: merging it into
  /// `source` gives `target`.
  ///
  /// ```swift
  /// let patch = try JSON.mergePatch(from: ["a": 1, "b": [1, 2]], to: ["a": 1, "b": [1], "c": true])
  /// // {"b":[1],"c":true}
  /// ```
  ///
  /// Members of `source` that `target` lacks become `null`; objects on both sides give the
  /// patch of their members; other values (arrays included) are taken whole from `target`.
  ///
  /// - Throws: ``JSON/Error`` at the member, when `target` has an object member whose value
  ///   is `null` that `source` does not have as `null`: a merge patch cannot say "set to
  ///   `null`" (its `null` removes), so no merge patch gives that target.
  public static func mergePatch(from source: JSON, to target: JSON) throws -> JSON {
    guard case .object(let b) = target else { return target }
    guard case .object(let a) = source else {
      try checkMergeable(target)
      return target
    }
    var patch = Object()
    for (key, _) in a where b[key] == nil { patch[key] = .null }
    for (key, value) in b {
      do {
        if let old = a[key], old.isIdentical(to: value) { continue }
        if case .null = value { throw JSON.Error(.unencodable, nullMessage) }
        if let old = a[key] {
          patch[key] = try mergePatch(from: old, to: value)
        } else {
          try checkMergeable(value)
          patch[key] = value
        }
      } catch {
        throw JSON.Error.wrapping(error).prefixed(key: key)
      }
    }
    return .object(patch)
  }

  private static let nullMessage =
    "a merge patch cannot set a member to null (its null removes the member)"

  /// Refuses a value that a merge patch cannot carry as a new value: one with a `null`
  /// member in an object outside arrays.
  private static func checkMergeable(_ value: JSON) throws {
    guard case .object(let object) = value else { return }
    for (key, member) in object {
      if case .null = member { throw JSON.Error(.unencodable, nullMessage, path: [.key(key)]) }
      do {
        try checkMergeable(member)
      } catch {
        throw JSON.Error.wrapping(error).prefixed(key: key)
      }
    }
  }
}
