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
  /// Merging cannot fail: every JSON value is a merge patch. Objects of any depth merge
  /// without recursion, on any thread's stack.
  public mutating func merge(patch: JSON) {
    guard case .object(let changes) = patch else {
      self = patch
      return
    }
    var path = OpenPath()
    var current = self
    self = .null  // our reference to the root is its only one, so it changes in place
    Self.makeObject(&current)
    // The patch's objects being merged, outermost first, each with its next member and the
    // keys its `null`s remove: the innermost is merged into `current`, at the end of `path`.
    // Removals wait for the end of their object, to take its members out in one pass (a
    // patch's keys are unique, so no later member of the same object brings one back).
    var merging: [(changes: Object, next: Int, removals: [String])] = [(changes, 0, [])]
    while let last = merging.indices.last {
      let position = merging[last].next
      guard position < merging[last].changes.count else {
        Self.removeMembers(merging.removeLast().removals, from: &current)
        current = path.leave(with: current)
        continue
      }
      merging[last].next = position + 1
      let change = merging[last].changes.members[position]
      switch change.value {
      case .object(let inner):
        path.enter(&current, key: change.key)
        Self.makeObject(&current)
        merging.append((inner, 0, []))
      case .null:
        merging[last].removals.append(change.key)
      default:
        Self.setMember(change, in: &current)
      }
    }
    self = current
  }

  /// Makes `value` an empty object unless it is an object: what merging an object patch into
  /// anything else starts from.
  private static func makeObject(_ value: inout JSON) {
    if case .object = value { return }
    value = .object(Object())
  }

  /// Sets a member of a merge patch whose value is neither an object nor `null` in `object`.
  private static func setMember(_ change: Object.Member, in object: inout JSON) {
    guard case .object(var members) = object else { return }
    object = .null  // the object is ours alone while it changes
    members[change.key] = change.value
    object = .object(members)
  }

  /// Removes the members `keys` name from `object`: a merge patch's `null`s.
  private static func removeMembers(_ keys: [String], from object: inout JSON) {
    guard !keys.isEmpty, case .object(var members) = object else { return }
    object = .null
    members.removeValues(forKeys: keys)
    object = .object(members)
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
  /// Objects of any depth are compared without recursion, on any thread's stack.
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
    // The pairs of objects being compared, outermost first: the innermost is the one whose
    // members are compared next.
    var open = [MergeFrame(source: a, target: b, key: nil)]
    while let last = open.indices.last {
      let position = open[last].next
      guard position < open[last].target.count else {
        let done = open.removeLast()
        guard let key = done.key, !open.isEmpty else { return .object(done.patch) }
        // Nothing to change in two objects: they are identical, and their key stays out.
        if done.patch.count > 0 { open[open.count - 1].patch[key] = .object(done.patch) }
        continue
      }
      open[last].next = position + 1
      let (key, value) = (
        open[last].target.members[position].key, open[last].target.members[position].value
      )
      do {
        let old = open[last].source[key]
        if case .object(let oldMembers)? = old, case .object(let newMembers) = value {
          // Compared member by member below; an empty patch there says they are identical.
          open.append(MergeFrame(source: oldMembers, target: newMembers, key: key))
          continue
        }
        if let old, old.isIdentical(to: value) { continue }
        if case .null = value { throw JSON.Error(.unencodable, nullMessage) }
        try checkMergeable(value)
        open[last].patch[key] = value
      } catch {
        throw prefixed(JSON.Error.wrapping(error).prefixed(key: key), by: open.map(\.key))
      }
    }
    return .object(Object())  // not reached: the outermost pair returns its patch
  }

  /// Two objects ``mergePatch(from:to:)`` is comparing, the patch of their members made so
  /// far, and the key of the patch around it where that patch goes.
  private struct MergeFrame {
    let source: Object
    let target: Object
    let key: String?
    var patch: Object
    var next = 0

    init(source: Object, target: Object, key: String?) {
      self.source = source
      self.target = target
      self.key = key
      // Members the target lacks are removed: null, first, in the source's order.
      patch = Object()
      for (key, _) in source where target[key] == nil { patch[key] = .null }
    }
  }

  /// `error` prefixed by the keys of the objects it was met in, outermost first (`nil` for
  /// the outermost object, which has no key).
  private static func prefixed(_ error: JSON.Error, by keys: [String?]) -> JSON.Error {
    keys.reversed().reduce(error) { error, key in key.map { error.prefixed(key: $0) } ?? error }
  }

  private static let nullMessage =
    "a merge patch cannot set a member to null (its null removes the member)"

  /// Refuses a value that a merge patch cannot carry as a new value: one with a `null`
  /// member in an object outside arrays. Without recursion, as ``mergePatch(from:to:)``.
  private static func checkMergeable(_ value: JSON) throws {
    guard case .object(let object) = value else { return }
    // The objects being checked, outermost first, each with its key and next member.
    var open: [(members: [Object.Member], key: String?, next: Int)] = [(object.members, nil, 0)]
    while let last = open.indices.last {
      let position = open[last].next
      guard position < open[last].members.count else {
        open.removeLast()
        continue
      }
      open[last].next = position + 1
      let member = open[last].members[position]
      switch member.value {
      case .null:
        let error = JSON.Error(.unencodable, nullMessage, path: [.key(member.key)])
        throw prefixed(error, by: open.map(\.key))
      case .object(let inner): open.append((inner.members, member.key, 0))
      default: break
      }
    }
  }
}
