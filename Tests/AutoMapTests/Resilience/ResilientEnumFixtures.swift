import AutoMap

enum Plan: String, JSONCodable, JSONFallbackCase, JSONCaseAliases {
  case free, pro, cancelled, unknown
  static let fallbackCase = Plan.unknown
  static let aliases: [Plan: [String]] = [.cancelled: ["canceled", "CANCELLED"]]
}

enum Tier: Int, JSONCodable, JSONFallbackCase {
  case other = 0, low = 1, high = 2
  static var fallbackCase: Tier { .other }
}

/// Maps by case name.
enum Weekday: JSONCodable, CaseIterable, JSONFallbackCase, JSONCaseAliases {
  case monday, tuesday, someday
  static let fallbackCase = Weekday.someday
  static let aliases: [Weekday: [String]] = [.monday: ["Mon"], .tuesday: ["Tue", "Tues"]]
}

/// Aliases only: an unknown value is still an error.
enum Shipping: String, JSONCodable, CaseIterable, JSONCaseAliases {
  case ground, air
  static let aliases: [Shipping: [String]] = [.air: ["plane"]]
}

/// No resilience at all.
enum StrictPlan: String, JSONCodable { case a, b }

// Declaration mistakes.
enum AliasOfWrongType: String, JSONCodable, JSONCaseAliases {
  case a, b
  static let aliases: [AliasOfWrongType: [Int]] = [.a: [1]]
}

enum ShadowingAlias: String, JSONCodable, JSONCaseAliases {
  case a, b
  static let aliases: [ShadowingAlias: [String]] = [.a: ["b"]]
}

enum AliasForTwoCases: String, JSONCodable, JSONCaseAliases {
  case a, b
  static let aliases: [AliasForTwoCases: [String]] = [.a: ["x"], .b: ["y", "x"]]
}

/// An alias that repeats the case's own raw value is harmless.
enum SelfAlias: String, JSONCodable, JSONCaseAliases {
  case cancelled
  static let aliases: [SelfAlias: [String]] = [.cancelled: ["canceled", "cancelled"]]
}

struct Subscription: JSONCodable, Equatable {
  var plan: Plan
  var history: [Plan]
  var byRegion: [String: Plan]
  var next: Plan?
  var level: Tier
  var day: Weekday
  var nested: [[Plan?]]
}

/// `.defaultValue` on a fallback enum: absent, null and the wrong JSON type.
struct Preferences: JSONCodable, Equatable {
  var plan = Plan.free
  var shipping = Shipping.ground
  static func specificOptions() -> [String: SpecificOption] {
    ["plan": .defaultValue(Plan.free), "shipping": .defaultValue(Shipping.ground)]
  }
}

struct LossyPlans: JSONCodable, Equatable {
  var plans: [Plan]
  var shipping: [Shipping]
  static func specificOptions() -> [String: SpecificOption] {
    ["plans": .lossy, "shipping": .lossy]
  }
}
