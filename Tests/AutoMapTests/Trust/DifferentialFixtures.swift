import AutoMap
import Foundation

// The models of the differential test (DifferentialTests.swift). Swift types cannot be made at
// run time, so this fixed set is chosen to reach, together, every mapping feature: each rule
// then meets generated documents on every entry point.

enum DiffColor: String, JSONCodable { case red, green, blue }
enum DiffLevel: Int, JSONCodable { case low = 1, mid = 2, high = 3 }

/// Every integer width and the Foundation leaves, memberwise.
struct DiffScalars: JSONCodable, Equatable {
  var int: Int
  var int8: Int8
  var int16: Int16
  var int32: Int32
  var int64: Int64
  var uint: UInt
  var uint8: UInt8
  var uint16: UInt16
  var uint32: UInt32
  var uint64: UInt64
  var bool: Bool
  var string: String
  var date: Date
  var url: URL
  var uuid: UUID
  var data: Data
  var maybe: Int8?
  var maybeMaybe: Int??
}

/// The non-integer numbers. Compared by bit pattern, so that `-0` and `0` differ.
struct DiffFloats: JSONCodable, Equatable {
  var float: Float
  var double: Double
  var maybeDouble: Double?
  var floats: [Float]

  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.float.bitPattern == rhs.float.bitPattern && lhs.double.bitPattern == rhs.double.bitPattern
      && lhs.maybeDouble.map(\.bitPattern) == rhs.maybeDouble.map(\.bitPattern)
      && lhs.floats.map(\.bitPattern) == rhs.floats.map(\.bitPattern)
  }
}

/// Decimals, apart: they do not round-trip until the number rewrite lands (see
/// `DifferentialTests.decimalWritesEveryDigit`).
struct DiffDecimal: JSONCodable, Equatable {
  var decimal: Decimal
  var maybe: Decimal?
  var decimals: [Decimal]
}

struct DiffPart: JSONCodable, Equatable, Hashable {
  var code: UInt8
  var label: String?
}

/// Nested models in arrays, with a validation hook that fails for some values.
struct DiffItem: JSONCodable, Equatable {
  var id: Int
  var name: String
  var parts: [DiffPart]
  var tags: [String]?

  mutating func didDecode() throws {
    guard id >= 0 else { throw JSON.Error.custom("id must not be negative") }
  }
}

struct DiffCollections: JSONCodable, Equatable {
  var numbers: [Int]
  var names: Set<String>
  var byKey: [String: DiffItem]
  var matrix: [[Int]]
  var meta: JSON
  var items: [DiffItem]
  var counts: [String: Int?]
  var color: DiffColor
  var levels: [DiffLevel]
  var maybeLevel: DiffLevel?
}

/// Declared defaults survive absent keys (and `null` for non-optionals).
struct DiffDefaults: JSONCodable, DefaultInitable, Equatable {
  var name = "anon"
  var count = 7
  var ratio = 0.5
  var flags: [Bool] = [true]
  var note: String? = "note"
  var level = DiffLevel.mid
  var summary = ""
  var extras: [Int] = []
  var cache: [Int] = [1]
  var initials = ""

  static func specificOptions() -> [String: SpecificOption] {
    ["summary": .ignoreIfEmpty, "extras": .ignoreIfEmpty, "cache": .ignore, "initials": .ignore]
  }

  mutating func didDecode() throws {
    guard count >= 0 else { throw JSON.Error.custom("count must not be negative") }
    initials = String(name.prefix(1))
  }
}

class DiffAnimal: JSONCodable, DefaultInitable, Equatable {
  var name = ""
  var legs = 4
  var weight: Double?
  required init() {}

  class func specificOptions() -> [String: SpecificOption] { ["legs": "leg_count"] }

  func didDecode() throws {
    guard legs <= 100 else { throw JSON.Error.custom("too many legs") }
  }

  func isEqual(to other: DiffAnimal) -> Bool {
    type(of: self) == type(of: other) && name == other.name && legs == other.legs
      && weight == other.weight
  }

  static func == (lhs: DiffAnimal, rhs: DiffAnimal) -> Bool { lhs.isEqual(to: rhs) }
}

final class DiffDog: DiffAnimal {
  var breed = "mixed"
  var goodBoy = true
  var toys: [String] = []

  override class func specificOptions() -> [String: SpecificOption] {
    var options = super.specificOptions()
    options["goodBoy"] = "good_boy"
    options["toys"] = .nonNil
    return options
  }

  override func didDecode() throws {
    try super.didDecode()
    guard !breed.isEmpty else { throw JSON.Error.custom("breed must not be empty") }
  }

  override func isEqual(to other: DiffAnimal) -> Bool {
    guard let other = other as? DiffDog else { return false }
    return super.isEqual(to: other) && breed == other.breed && goodBoy == other.goodBoy
      && toys == other.toys
  }
}

final class DiffCounter: JSONCodable, DefaultInitable, Equatable {
  var hits: UInt16 = 0
  var label: String? = "counter"
  required init() {}

  static func == (lhs: DiffCounter, rhs: DiffCounter) -> Bool {
    lhs.hits == rhs.hits && lhs.label == rhs.label
  }
}

struct DiffPage<Item: JSONCodable & Equatable>: JSONCodable, Equatable {
  var items: [Item]
  var next: Int?
  var total: UInt32
}

struct DiffZoo: JSONCodable, Equatable {
  var animals: [DiffAnimal]
  var star: DiffDog
  var keeper: DiffCounter?
  var visitors: DiffPage<DiffItem>
}

struct DiffLocation: JSONCodable, Equatable {
  var lat: Double
  var lng: Double
}

/// JSON holds `"v12"`, the property `12`; negative versions cannot be written.
let diffVersion = CustomTransform<String, Int>.both(
  fromJSON: { text in
    guard text.hasPrefix("v"), let number = Int(text.dropFirst()) else {
      throw JSON.Error.custom("not a version: \(text)")
    }
    return number
  },
  toJSON: { number in
    guard number >= 0 else { throw JSON.Error.custom("negative version \(number)") }
    return "v\(number)"
  })

/// The options that map both ways, so that its values round-trip.
struct DiffOptions: JSONCodable, Equatable {
  var id: Int
  var city: String
  var first: Int
  var location: DiffLocation
  var nickname: String
  var color: DiffColor
  var tags: [String]
  var cache: [Int]?
  var scores: [Int]
  var maybePart: DiffPart?
  var partsByName: [String: DiffPart]
  var count: Int
  var label: String
  var flag: Bool
  var ratios: [Double]
  var subtitle: String?
  var note: String?
  var version: Int
  var joined: Date

  static func specificOptions() -> [String: SpecificOption] {
    [
      "id": "user.id", "city": .index(["address", "city"]), "first": .index(["a", "b", 0]),
      "location": .index([]), "nickname": [.alternativeIndex("nick"), .defaultValue("none")],
      "color": .defaultValue(DiffColor.red), "tags": .nonNil, "cache": .ignore,
      "scores": .lossy, "maybePart": .lossy, "partsByName": .lossy, "count": .lossless,
      "label": .lossless, "flag": .lossless, "ratios": .lossless, "subtitle": .emptyAsNil,
      "note": .ignoreIfNull, "version": .transform(diffVersion),
      "joined": .transform(DateTransform.secondsSince1970),
    ]
  }
}

/// One-way mappings: values do not round-trip by design.
struct DiffOneWay: JSONCodable, Equatable {
  var username: String
  var password: String?
  var serverID: Int?
  var secret: String?
  var level: DiffLevel

  static func specificOptions() -> [String: SpecificOption] {
    [
      "username": [.decodeIndex("user_name"), .encodeIndex("username")], "password": .encodeOnly,
      "serverID": [.decodeOnly, "server_id"], "secret": .ignore,
      "level": [.decodeIndex(["meta", "level"]), .defaultValue(DiffLevel.low)],
    ]
  }
}

/// The model's own key style.
struct DiffSnake: JSONCodable, Equatable {
  static var keyStyle: JSON.KeyStyle { .snakeCase }
  var avatarURL: URL?
  var displayName: String
  var userID: Int
  var version2Name: String?
  var item: DiffItem
}

/// Decoded with call-site key styles; one property name is not ASCII.
struct DiffStyled: JSONCodable, Equatable {
  var firstName: String
  var age: Int
  var größe: Int?
  var homeURL: URL?
  var part: DiffPart
}

/// Two keys that differ only in ASCII case: one key each, unless the call matches keys
/// whatever their case (then both read the last of them).
struct DiffFolded: JSONCodable, Equatable {
  var name: String?
  var Name: String?
  var count: Int
}

/// Hand-written both ways, nested in a reflected model.
struct DiffCelsius: JSONCodable, Equatable {
  var degrees: Double

  init(degrees: Double) { self.degrees = degrees }

  init(decode json: JSON) throws {
    degrees = try Double(decode: json["c"])
    guard degrees >= -273.15 else { throw JSON.Error.custom("below absolute zero") }
  }

  var json: JSON {
    get throws {
      guard degrees < 1000 else { throw JSON.Error.custom("too hot to write") }
      return ["c": JSON(degrees), "unit": "C"]
    }
  }
}

struct DiffReading: JSONCodable, Equatable {
  var temperature: DiffCelsius
  var history: [DiffCelsius]
  var peak: DiffCelsius?
  var station: String
}

// MARK: The capabilities of issues 10 and 11

/// A `Codable` type inside models: the Codable bridge.
struct DiffCodablePart: Codable, Equatable {
  var code: Int
  var label: String?
  var weights: [Double]?
}

struct DiffBridged: JSONCodable, Equatable {
  var id: Int
  var part: DiffCodablePart
  var parts: [DiffCodablePart]?
  var byName: [String: DiffCodablePart]?
}

/// Enums with payloads: the external tag, and the untagged layout.
enum DiffPayload: JSONCodable, Codable, Equatable {
  case point(x: Int, y: Int)
  case label(String)
  case none
}

enum DiffLoose: JSONCodable, Codable, Equatable {
  case number(Int)
  case word(String)
  case pair(Int, Int)
  static var caseLayout: JSON.CaseLayout { .untagged(["number", "word", "pair"]) }
}

struct DiffEnums: JSONCodable, Equatable {
  var payload: DiffPayload
  var loose: [DiffLoose]
  var maybe: DiffPayload?
}

/// A protocol type chosen by a discriminator.
protocol DiffShape {}

struct DiffSquare: DiffShape, JSONCodable, Equatable {
  var side: Int
}

struct DiffRound: DiffShape, JSONCodable, Equatable {
  var radius: Double
  var label: String?
}

struct DiffShapes: JSONCodable, Equatable {
  var shapes: [any DiffShape]
  var main: (any DiffShape)?

  static let registered: Bool = {
    (try? JSON.registerPolymorphic(
      (any DiffShape).self, types: ["square": DiffSquare.self, "round": DiffRound.self])) != nil
  }()

  static func == (lhs: Self, rhs: Self) -> Bool {
    (try? lhs.json) == (try? rhs.json)
  }
}
