import AutoMap
import Foundation

// Models of the reporting tests: plain fields that fail, nested models, collections, and
// every option that can stand in for a value.

struct RPoint: JSONCodable, Equatable {
  var x: Int
  var y: Int
}

struct RShape: JSONCodable, Equatable {
  var name: String
  var points: [RPoint]
  var origin: RPoint
  var tags: [String: Int]
}

enum RStatus: String, JSONCodable, JSONFallbackCase {
  case active, cancelled, unknown
  static let fallbackCase = RStatus.unknown
}

enum RRegion: String, JSONCodable, JSONKeyRepresentable, JSONFallbackCase {
  case eu, us, other
  static let fallbackCase = RRegion.other
}

struct RMember: JSONCodable, Equatable {
  var id: Int
  var nickname: String
  var status: RStatus
  var friends: [Int]
  var scores: [Int]
  var best: RPoint?
  var byRegion: [RRegion: Int]
  var limits: [String: Int]
  var ratio: Double

  static func specificOptions() -> [String: SpecificOption] {
    [
      "nickname": [.alternativeIndex("nick"), .defaultValue("anonymous")],
      "friends": .nonNil, "scores": .lossy, "best": .lossy, "limits": .lossy,
      "ratio": .defaultValue(1.0),
    ]
  }
}

struct RTeam: JSONCodable, Equatable {
  var title: String
  var members: [RMember]
  var lead: RMember?
}

/// Validation that runs only when every field decoded.
struct RChecked: JSONCodable, Equatable {
  var low: Int
  var high: Int
  mutating func didDecode() throws {
    guard low <= high else { throw JSON.Error.custom("low must not exceed high") }
  }
}

/// A model whose second property cannot be mapped: an error at first use.
struct RBroken: JSONDecodable {
  var id: Int
  var callback: () -> Void = {}
}

struct RHolder: JSONDecodable {
  var first: Int
  var broken: [RBroken]
  var last: Int
}
