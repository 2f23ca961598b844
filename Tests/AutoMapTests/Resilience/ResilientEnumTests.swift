import AutoMap
import Foundation
import Testing

@Suite("Resilient enums: fallback cases and aliases")
struct ResilientEnumTests {
  static let base = #"""
    {"plan": PLAN, "history": ["free", "pro"], "byRegion": {"eu": "pro"}, "next": null,
     "level": 1, "day": "monday", "nested": [["free", null]]}
    """#

  func subscription(_ plan: String) -> String {
    Self.base.replacingOccurrences(of: "PLAN", with: plan)
  }

  @Test("an unknown value is the fallback case wherever the enum appears")
  func fallbackEverywhere() throws {
    let text = #"""
      {"plan": "enterprise", "history": ["free", "trial", ""], "byRegion": {"eu": "gold"},
       "next": "later", "level": 7, "day": "friday", "nested": [["x", null, "pro"]]}
      """#
    let decoded = try #require(outcomeOnEveryPath(Subscription.self, text).value)
    #expect(decoded.plan == .unknown)
    #expect(decoded.history == [.free, .unknown, .unknown])
    #expect(decoded.byRegion == ["eu": .unknown])
    #expect(decoded.next == .unknown)
    #expect(decoded.level == .other)
    #expect(decoded.day == .someday)
    #expect(decoded.nested == [[.unknown, nil, .pro]])
    #expect(outcomeOnEveryPath(Plan.self, #""nope""#).value == .unknown)
    #expect(
      outcomeOnEveryPath([Tier].self, "[2, -5, 0, 9223372036854775807]").value
        == [.high, .other, .other, .other])
  }

  @Test("values are case-sensitive and exact: near misses are unknown, not aliases")
  func nearMisses() {
    for text in [#""Pro""#, #"" pro""#, #""pro ""#, #""canceled ""#, #""Canceled""#, #""ｐｒｏ""#] {
      #expect(outcomeOnEveryPath(Plan.self, text).value == .unknown, "\(text)")
    }
    #expect(outcomeOnEveryPath(Plan.self, #""pro""#).value == .pro)
    #expect(outcomeOnEveryPath(Plan.self, #""\u0070ro""#).value == .pro)  // escapes are decoded first
  }

  @Test(
    "a value of the wrong JSON type, or one the raw value type cannot hold, is still an error",
    arguments: [
      ("5", "at plan: expected String, found number 5"),
      ("{}", "at plan: expected String, found object of 0 members"),
      (#"["pro"]"#, #"at plan: expected String, found array of 1"#),
      ("true", "at plan: expected String, found bool true"),
      ("null", "at plan: expected Plan for Subscription.plan, found null"),
    ])
  func wrongJSONType(plan: String, message: String) {
    let outcome = outcomeOnEveryPath(Subscription.self, subscription(#"\#(plan)"#))
    #expect(outcome.kind == .typeMismatch || outcome.kind == .missingValue)
    #expect(outcome.description == message)
  }

  @Test(
    "Int raw values: only integers an Int holds reach the fallback",
    arguments: ["1.5", "1e30", "-9223372036854775809", #""1""#, "true"])
  func intRawWrongType(level: String) {
    let outcome = outcomeOnEveryPath([Tier].self, "[\(level)]")
    #expect(outcome.kind == .typeMismatch, "\(level): \(outcome)")
    #expect(outcome.description?.hasPrefix("at [0]:") == true, "\(outcome)")
  }

  @Test("integral numbers in any spelling are raw values: 2.0, 2e0, -0")
  func intRawSpellings() {
    #expect(
      outcomeOnEveryPath([Tier].self, "[2.0, 2e0, 20e-1, -0, 1]").value
        == [.high, .high, .high, .other, .low])
  }

  @Test("absent and null stay errors for a fallback enum; an optional reads null as nil")
  func nullAndAbsent() throws {
    var missing = subscription(#""pro""#)
    missing = missing.replacingOccurrences(of: #""day": "monday", "#, with: "")
    let outcome = outcomeOnEveryPath(Subscription.self, missing)
    #expect(outcome.kind == .missingValue)
    #expect(outcome.description?.hasPrefix("at day:") == true, "\(outcome)")
    let decoded = try #require(outcomeOnEveryPath(Subscription.self, subscription(#""pro""#)).value)
    #expect(decoded.next == nil)
    #expect(
      outcomeOnEveryPath([Plan?].self, #"[null, "x", "pro"]"#).value == [nil, .unknown, .pro])
    #expect(outcomeOnEveryPath([Plan].self, "[null]").kind == .missingValue)
  }

  @Test("aliases decode to their case, and encoding writes the raw value")
  func aliases() throws {
    #expect(
      outcomeOnEveryPath([Plan].self, #"["canceled", "CANCELLED", "cancelled"]"#).value
        == [.cancelled, .cancelled, .cancelled])
    #expect(
      outcomeOnEveryPath([Weekday].self, #"["Mon", "Tues", "Tue", "tuesday", "Sun"]"#).value
        == [.monday, .tuesday, .tuesday, .tuesday, .someday])
    #expect(
      outcomeOnEveryPath([SelfAlias].self, #"["canceled", "cancelled"]"#).value
        == [.cancelled, .cancelled])
    #expect(
      try textOnEveryPath([Plan.cancelled, .unknown, .pro]) == #"["cancelled","unknown","pro"]"#)
    #expect(try textOnEveryPath([Weekday.monday, .someday]) == #"["monday","someday"]"#)
    #expect(try textOnEveryPath([Tier.other, .high]) == "[0,2]")
  }

  @Test("aliases without a fallback: an unknown value is still an error")
  func aliasesOnly() {
    #expect(
      outcomeOnEveryPath([Shipping].self, #"["plane", "air", "ground"]"#).value
        == [.air, .air, .ground])
    let outcome = outcomeOnEveryPath([Shipping].self, #"["air", "boat"]"#)
    #expect(outcome.description == #"at [1]: "boat" is not a raw value of Shipping"#)
    #expect(
      outcomeOnEveryPath([StrictPlan].self, #"["a", "c"]"#).description
        == #"at [1]: "c" is not a raw value of StrictPlan"#)
  }

  @Test("the fallback makes a value usable: .defaultValue covers absent, null and wrong types")
  func precedenceWithDefaultValue() {
    let cases: [(String, Preferences)] = [
      ("{}", Preferences(plan: .free, shipping: .ground)),
      (#"{"plan": null, "shipping": null}"#, Preferences(plan: .free, shipping: .ground)),
      (#"{"plan": 3, "shipping": 3}"#, Preferences(plan: .free, shipping: .ground)),
      (#"{"plan": "gold", "shipping": "boat"}"#, Preferences(plan: .unknown, shipping: .ground)),
      (
        #"{"plan": "canceled", "shipping": "plane"}"#, Preferences(plan: .cancelled, shipping: .air)
      ),
    ]
    for (text, expected) in cases {
      #expect(outcomeOnEveryPath(Preferences.self, text).value == expected, "\(text)")
    }
  }

  @Test(".lossy keeps unknown values as the fallback, and drops what has none")
  func lossy() {
    let text = #"{"plans": ["gold", 1, "pro"], "shipping": ["boat", "plane", null]}"#
    #expect(
      outcomeOnEveryPath(LossyPlans.self, text).value
        == LossyPlans(plans: [.unknown, .pro], shipping: [.air]))
  }

  @Test("declaration mistakes are reported whichever value is looked up")
  func declarationMistakes() {
    let wrongType = outcomeOnEveryPath([AliasOfWrongType].self, #"["a", "z"]"#)
    #expect(wrongType.kind == .invalidModel)
    #expect(
      wrongType.description?.contains("declare the aliases as [AliasOfWrongType: [String]]") == true
    )
    let shadow = outcomeOnEveryPath([ShadowingAlias].self, #"["zz"]"#)
    #expect(shadow.kind == .invalidModel)
    #expect(shadow.description?.contains(#"lists "b" for .a, but it already names .b"#) == true)
    let twice = outcomeOnEveryPath([AliasForTwoCases].self, #"["y"]"#)
    #expect(twice.kind == .invalidModel)
    #expect(twice.description?.contains(#"lists "x" for both .a and .b"#) == true, "\(twice)")
    // A raw value never consults the aliases.
    #expect(outcomeOnEveryPath([ShadowingAlias].self, #"["a", "b"]"#).value == [.a, .b])
  }

  @Test("round trip: decoded values encode to their raw values and decode back equal")
  func roundTrip() throws {
    let text = #"""
      {"plan": "canceled", "history": ["x"], "byRegion": {"eu": "CANCELLED"}, "next": "pro",
       "level": 3, "day": "Tues", "nested": [[null]]}
      """#
    let decoded = try #require(outcomeOnEveryPath(Subscription.self, text).value)
    let written = try textOnEveryPath(decoded)
    #expect(
      written
        == #"{"byRegion":{"eu":"cancelled"},"day":"tuesday","history":["unknown"],"level":0,"nested":[[null]],"next":"pro","plan":"cancelled"}"#
    )
    #expect(outcomeOnEveryPath(Subscription.self, written).value == decoded)
  }
}
