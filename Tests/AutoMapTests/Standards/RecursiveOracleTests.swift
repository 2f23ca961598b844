import AutoMap
import Testing

/// `==`, `test`, the subscript's setter, merge patches and `patch(from:to:)` walk values
/// without recursion, so that any depth fits any stack. Each must give exactly what its
/// recursive definition gives (written here, from the public API, as it was before), key
/// order included, on random values and random changes to them.
@Suite("JSON walks agree with their recursive definitions")
struct RecursiveOracleTests {
  static let seeds = 0..<300

  /// A value, and another: the same rebuilt (own storage), its members in another order, or
  /// changed.
  static func pair(_ seed: Int) -> (JSON, JSON) {
    var random = DiffRandom(seed: UInt64(seed))
    let value = JSONValueGenerator.value(&random, depth: 4)
    switch seed % 3 {
    case 0: return (value, rebuilt(value, reversingMembers: false))
    case 1: return (value, rebuilt(value, reversingMembers: true))
    default: return (value, JSONValueGenerator.mutated(value, &random, depth: 4))
    }
  }

  @Test("==, hashing and test", arguments: seeds)
  func equality(seed: Int) throws {
    let (a, b) = Self.pair(seed)
    #expect((a == b) == Self.equal(a, b, byCodePoints: false), "\(a) \(b)")
    #expect((b == a) == Self.equal(b, a, byCodePoints: false), "\(a) \(b)")
    // Equal values hash alike, whatever their members' order.
    if a == b { #expect(a.hashValue == b.hashValue, "\(a) \(b)") }
    let tested = (try? a.applying([.test([], b)])) != nil
    #expect(tested == Self.equal(a, b, byCodePoints: true), "\(a) \(b)")
  }

  @Test("merge(patch:) and mergePatch(from:to:)", arguments: seeds)
  func mergePatches(seed: Int) throws {
    let (a, b) = Self.pair(seed)
    #expect(try a.merging(patch: b).jsonString() == Self.merged(a, b).jsonString(), "\(a) \(b)")
    let patch = Result { try JSON.mergePatch(from: a, to: b) }
    let expected = Result { try Self.mergePatch(a, b) }
    switch (patch, expected) {
    case (.success(let patch), .success(let expected)):
      #expect(try patch.jsonString() == expected.jsonString(), "\(a) \(b)")
    case (.failure(let error as JSON.Error), .failure(let expected as OracleError)):
      #expect(error.pointer == expected.pointer && error.message == Self.nullMessage, "\(a) \(b)")
    default: Issue.record("\(patch) against \(expected), for \(a) \(b)")
    }
  }

  @Test("patch(from:to:)", arguments: seeds)
  func diffs(seed: Int) throws {
    let (a, b) = Self.pair(seed)
    var expected: [JSON.Patch.Operation] = []
    Self.diff(a, b, at: [], into: &expected)
    #expect(try JSON.patch(from: a, to: b).jsonString() == JSON.Patch(expected).jsonString())
  }

  @Test("setting through a pointer", arguments: seeds)
  func setting(seed: Int) throws {
    var random = DiffRandom(seed: UInt64(seed) &+ 1_000)
    let (a, _) = Self.pair(seed)
    let tokens = JSONValueGenerator.keys + ["2", "3", "01", "-"]
    let path = (0..<Int.random(in: 0...4, using: &random)).map { _ in
      tokens.randomElement(using: &random) ?? ""
    }
    var set = a
    set[try JSON.Index(pointer: path.map { "/" + escaped($0) }.joined())] = "new"
    #expect(try set.jsonString() == Self.set(a, "new", along: path[...]).jsonString(), "\(path)")
  }

  // MARK: The recursive definitions

  static func equal(_ a: JSON, _ b: JSON, byCodePoints: Bool) -> Bool {
    switch (a, b) {
    case (.string(let a), .string(let b)):
      return byCodePoints ? a.unicodeScalars.elementsEqual(b.unicodeScalars) : a == b
    case (.array(let a), .array(let b)):
      return a.count == b.count
        && zip(a, b).allSatisfy { equal($0, $1, byCodePoints: byCodePoints) }
    case (.object(let a), .object(let b)):
      return a.count == b.count
        && a.allSatisfy { key, value in
          b[key].map { equal(value, $0, byCodePoints: byCodePoints) } ?? false
        }
    case (.null, .null), (.missing, .missing): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.number(let a), .number(let b)): return a == b
    default: return false
    }
  }

  static func merged(_ value: JSON, _ patch: JSON) -> JSON {
    guard case .object(let changes) = patch else { return patch }
    var object = value.object ?? JSON.Object()
    for (key, change) in changes {
      switch change {
      case .null: object.removeValue(forKey: key)
      case .object: object[key] = merged(object[key] ?? .null, change)
      default: object[key] = change
      }
    }
    return .object(object)
  }

  static func mergePatch(_ source: JSON, _ target: JSON) throws -> JSON {
    guard case .object(let b) = target else { return target }
    guard case .object(let a) = source else {
      try checkMergeable(target)
      return target
    }
    var patch = JSON.Object()
    for (key, _) in a where b[key] == nil { patch[key] = .null }
    for (key, value) in b {
      do {
        if let old = a[key], equal(old, value, byCodePoints: true) { continue }
        if case .null = value { throw OracleError(path: []) }
        if let old = a[key] {
          patch[key] = try mergePatch(old, value)
        } else {
          try checkMergeable(value)
          patch[key] = value
        }
      } catch let error as OracleError {
        throw error.at(key)
      }
    }
    return .object(patch)
  }

  static func checkMergeable(_ value: JSON) throws {
    guard case .object(let object) = value else { return }
    for (key, member) in object {
      if case .null = member { throw OracleError(path: [key]) }
      do { try checkMergeable(member) } catch let error as OracleError { throw error.at(key) }
    }
  }

  static func diff(
    _ source: JSON, _ target: JSON, at path: [JSON.Index],
    into operations: inout [JSON.Patch.Operation]
  ) {
    switch (source, target) {
    case (.object(let a), .object(let b)):
      for (key, _) in a where b[key] == nil {
        operations.append(.remove(.path(path + [.key(key)])))
      }
      for (key, value) in b {
        if let old = a[key] {
          diff(old, value, at: path + [.key(key)], into: &operations)
        } else {
          operations.append(.add(.path(path + [.key(key)]), value))
        }
      }
    case (.array(let a), .array(let b)):
      // Keep the common start and end; change the shared middle in place, remove the rest of
      // the old middle (last first) or add the rest of the new one.
      var start = 0
      while start < a.count, start < b.count, equal(a[start], b[start], byCodePoints: true) {
        start += 1
      }
      var (endA, endB) = (a.count, b.count)
      while endA > start, endB > start, equal(a[endA - 1], b[endB - 1], byCodePoints: true) {
        endA -= 1
        endB -= 1
      }
      let shared = min(endA, endB) - start
      for position in start..<(start + shared) {
        diff(a[position], b[position], at: path + [.position(position)], into: &operations)
      }
      for position in stride(from: endA - 1, through: start + shared, by: -1) {
        operations.append(.remove(.path(path + [.position(position)])))
      }
      for position in (start + shared)..<max(endB, start + shared) {
        operations.append(.add(.path(path + [.position(position)]), b[position]))
      }
    default:
      if !equal(source, target, byCodePoints: true) {
        operations.append(.replace(.path(path), target))
      }
    }
  }

  static func set(_ value: JSON, _ new: JSON, along tokens: ArraySlice<String>) -> JSON {
    guard let token = tokens.first else { return new }
    let rest = tokens.dropFirst()
    let digits = !token.isEmpty && token.allSatisfy(\.isASCII) && token.allSatisfy(\.isNumber)
    let position = digits && (token == "0" || !token.hasPrefix("0")) ? Int(token) : nil
    if case .object(var object) = value {
      object[token] = set(object[token] ?? .null, new, along: rest)
      return .object(object)
    }
    if case .array(var array) = value, token == "-" {
      array.append(set(.null, new, along: rest))
      return .array(array)
    }
    if let position {
      var array = value.array ?? []
      while array.count <= position { array.append(.null) }
      array[position] = set(array[position], new, along: rest)
      return .array(array)
    }
    var object = JSON.Object()
    object[token] = set(.null, new, along: rest)
    return .object(object)
  }

  /// `value` built again, its containers in storage of their own (and their members in
  /// reverse order).
  static func rebuilt(_ value: JSON, reversingMembers: Bool) -> JSON {
    switch value {
    case .array(let elements):
      return .array(elements.map { rebuilt($0, reversingMembers: reversingMembers) })
    case .object(let object):
      let members = object.map { ($0.key, rebuilt($0.value, reversingMembers: reversingMembers)) }
      return .object(JSON.Object(reversingMembers ? members.reversed() : members))
    default: return value
    }
  }

  static let nullMessage = "a merge patch cannot set a member to null (its null removes the member)"
}

/// The oracle's merge patch error: the path of the member, outermost first.
private struct OracleError: Error {
  var path: [String]
  func at(_ key: String) -> Self { Self(path: [key] + path) }
  var pointer: String { path.map { "/" + escaped($0) }.joined() }
}

/// A key as a JSON Pointer's reference token writes it.
private func escaped(_ key: String) -> String {
  key.replacing("~", with: "~0").replacing("/", with: "~1")
}
