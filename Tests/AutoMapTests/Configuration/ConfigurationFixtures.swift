import AutoMap
import Foundation

struct Stamped: JSONCodable, Equatable {
  var createdAt: Date
  var seen: [Date]
  var expiresAt: Date?
  var fixed: Date  // its own transform wins over the call's

  static func specificOptions() -> [String: SpecificOption] {
    ["fixed": .transform(DateTransform.secondsSince1970)]
  }
}

struct StyledAccount: JSONCodable, Equatable {
  var userID: Int
  var displayName: String
  var avatar: Data
}

/// Floating-point values compared by bits, so that NaN equals NaN.
struct Sample: JSONCodable, Equatable {
  var value: Double
  var maybe: Double?
  var values: [Double]
  var ratio: Float

  static func == (lhs: Sample, rhs: Sample) -> Bool {
    lhs.value.bitPattern == rhs.value.bitPattern
      && lhs.maybe?.bitPattern == rhs.maybe?.bitPattern
      && lhs.values.map(\.bitPattern) == rhs.values.map(\.bitPattern)
      && lhs.ratio.bitPattern == rhs.ratio.bitPattern
  }
}

/// A model whose Double has a fallback, and a lossy array of models: places where the byte
/// path steps over an unusable value, so both paths must agree on what is usable.
struct Gauge: JSONCodable, Equatable {
  var level: Double
  var samples: [Sample]
  var spare: Double

  static func specificOptions() -> [String: SpecificOption] {
    ["samples": .lossy, "spare": .defaultValue(-1.0)]
  }

  static func == (lhs: Gauge, rhs: Gauge) -> Bool {
    lhs.level.bitPattern == rhs.level.bitPattern && lhs.samples == rhs.samples
      && lhs.spare.bitPattern == rhs.spare.bitPattern
  }
}

/// A `Codable` type (not JSONCodable) inside a model: its doubles and dates go through
/// AutoMap's own `Decoder` and `Encoder`.
struct LabMeasurement: Codable, Equatable {
  var amount: Double
  var at: Date

  static func == (lhs: LabMeasurement, rhs: LabMeasurement) -> Bool {
    lhs.amount.bitPattern == rhs.amount.bitPattern && lhs.at == rhs.at
  }
}

struct Lab: JSONCodable, Equatable {
  var measurement: LabMeasurement
}

let epoch = Date(timeIntervalSince1970: 0)
let mayDay = Date(timeIntervalSince1970: 1_714_566_600)  // 2024-05-01T12:30:00Z
