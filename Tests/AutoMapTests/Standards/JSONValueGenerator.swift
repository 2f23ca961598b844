import AutoMap

/// Random JSON values, and values changed from them, for the patch properties (seeded with
/// the differential test's `DiffRandom`, so a failing case names its seed).
enum JSONValueGenerator {
  static let keys = ["a", "b", "0", "1", "-", "a/b", "m~n", "", "é", "key"]

  static func value(_ random: inout DiffRandom, depth: Int) -> JSON {
    switch Int.random(in: 0..<(depth > 0 ? 8 : 5), using: &random) {
    case 0: return nil
    case 1: return .bool(Bool.random(using: &random))
    case 2: return JSON(integerLiteral: Int64.random(in: -3...3, using: &random))
    case 3: return JSON(floatLiteral: Double(Int.random(in: -8...8, using: &random)) / 4)
    case 4: return .string(keys.randomElement(using: &random) ?? "")
    case 5, 6:
      var object = JSON.Object()
      for _ in 0..<Int.random(in: 0...4, using: &random) {
        object[keys.randomElement(using: &random) ?? ""] = value(&random, depth: depth - 1)
      }
      return .object(object)
    default:
      return .array(
        (0..<Int.random(in: 0...4, using: &random)).map { _ in value(&random, depth: depth - 1) })
    }
  }

  /// `value` with a few members and elements added, removed or changed, at any depth.
  static func mutated(_ value: JSON, _ random: inout DiffRandom, depth: Int) -> JSON {
    switch value {
    case .object(var object):
      for key in object.keys where Int.random(in: 0..<4, using: &random) == 0 {
        object[key] = nil
      }
      for key in object.keys {
        if let member = object[key] { object[key] = mutated(member, &random, depth: depth - 1) }
      }
      if Bool.random(using: &random) {
        object[keys.randomElement(using: &random) ?? ""] = Self.value(&random, depth: depth - 1)
      }
      return .object(object)
    case .array(var array):
      if !array.isEmpty, Bool.random(using: &random) {
        array.remove(at: Int.random(in: 0..<array.count, using: &random))
      }
      array = array.map { mutated($0, &random, depth: depth - 1) }
      if Bool.random(using: &random) {
        array.insert(
          Self.value(&random, depth: depth - 1),
          at: Int.random(in: 0...array.count, using: &random))
      }
      return .array(array)
    default:
      return Int.random(in: 0..<3, using: &random) == 0 ? Self.value(&random, depth: depth) : value
    }
  }
}
