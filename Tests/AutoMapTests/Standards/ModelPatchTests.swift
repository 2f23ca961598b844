import AutoMap
import Testing

/// A model whose keys are not its property names: a key style, a nested path, an ignored
/// property, a default and an optional.
private struct PatchedProfile: JSONCodable, Equatable, DefaultInitable {
  static let keyStyle = JSON.KeyStyle.snakeCase
  var displayName = ""
  var nickname: String?
  var loginCount = 0
  var city = ""
  var tags: [String] = []
  var scratch = "kept"

  static func specificOptions() -> [String: SpecificOption] {
    ["city": .index(["address", "city"]), "scratch": .ignore, "loginCount": .defaultValue(7)]
  }
}

private final class PatchedAccount: JSONCodable, DefaultInitable {
  var owner = ""
  var balance = 0
  required init() {}
}

@Suite("JSON Patch and Merge Patch on models")
struct ModelPatchTests {
  private var profile: PatchedProfile {
    var profile = PatchedProfile()
    profile.displayName = "Grace"
    profile.nickname = "amazing"
    profile.loginCount = 3
    profile.city = "Arlington"
    profile.tags = ["navy"]
    profile.scratch = "local"
    return profile
  }

  @Test("a patch addresses the keys the model writes: key style and nested paths")
  func patchThroughMapping() throws {
    let patched = try profile.applying([
      .replace(["display_name"], "Ada"), .replace(["address", "city"], "London"),
      .add(["tags", "-"], "math"),
    ])
    var expected = profile
    expected.displayName = "Ada"
    expected.city = "London"
    expected.tags = ["navy", "math"]
    #expect(patched == expected)
    #expect(patched.scratch == "local", "what the mapping does not write keeps its value")
  }

  @Test("a removed property is updated from null: nil, its .defaultValue, or kept when covered")
  func removal() throws {
    let patched = try profile.applying([
      .remove(["nickname"]), .remove(["login_count"]), .remove(["address"]),
    ])
    #expect(patched.nickname == nil)
    #expect(patched.loginCount == 7, "its .defaultValue")
    #expect(patched.city == "Arlington", "a DefaultInitable model's property keeps its value")
  }

  @Test("a patch that fails, or gives a document that does not decode, changes nothing")
  func atomicOnModels() throws {
    var profile = self.profile
    let before = profile
    #expect(throws: JSON.Error.self) {
      try profile.apply([.replace(["display_name"], "Ada"), .remove(["missing"])])
    }
    #expect(throws: JSON.Error.self) { try profile.apply([.replace(["tags"], "many")]) }
    #expect(profile == before)
    try profile.apply([.replace(["login_count"], 4)])
    #expect(profile.loginCount == 4)
    try profile.apply([.replace(["login_count"], "many")])
    #expect(profile.loginCount == 7, "an unusable value takes the .defaultValue, as decoding does")
  }

  @Test("a call's key style overrides the model's")
  func keyStyleOverride() throws {
    let patched = try profile.applying([.replace(["displayName"], "Ada")], keyStyle: .exact)
    #expect(patched.displayName == "Ada")
    #expect(throws: JSON.Error.self) {
      try profile.applying([.replace(["displayName"], "Ada")])  // snake_case: no such key
    }
  }

  @Test("a merge patch merges nested objects, and null makes an optional nil")
  func mergeThroughMapping() throws {
    let merged = try profile.merging(patch: ["nickname": nil, "address": ["city": "Paris"]])
    #expect(merged.nickname == nil)
    #expect(merged.city == "Paris")
    #expect(merged.displayName == "Grace")
    var profile = self.profile
    try profile.merge(patch: ["tags": ["a", "b"]])
    #expect(profile.tags == ["a", "b"])
    #expect(throws: JSON.Error.self) { try profile.merge(patch: ["display_name": 5]) }
    #expect(profile.tags == ["a", "b"])
  }

  @Test("a class is patched in place by apply, and applying gives a new object")
  func classes() throws {
    let account = PatchedAccount()
    account.owner = "Ada"
    try account.apply([.replace(["balance"], 12)])
    #expect(account.balance == 12)
    let copy = try account.applying([.replace(["owner"], "Grace")])
    #expect(copy !== account)
    #expect(copy.owner == "Grace" && copy.balance == 12)
    #expect(account.owner == "Ada")
    try account.merge(patch: ["owner": "Grace"])
    #expect(account.owner == "Grace")
  }
}
