import AutoMap
import Foundation

struct User: JSONCodable, Equatable {
  let id: Int64
  let name: String
  let admin: Bool
  let website: URL?
  let scores: [Double]
  let friends: [User]
}

struct Settings: JSONCodable, DefaultInitable, Equatable {
  var theme = "light"
  var fontSize = 12
  var nickname: String? = "anon"
}

class Animal: JSONCodable, DefaultInitable {
  var name = ""
  var legs = 4
  required init() {}
  class func specificOptions() -> [String: SpecificOption] { ["legs": "leg_count"] }
}

final class Dog: Animal {
  var breed = ""
  var goodBoy = true
  override class func specificOptions() -> [String: SpecificOption] {
    var options = super.specificOptions()
    options["goodBoy"] = "good_boy"
    return options
  }
}

enum Role: String, JSONCodable { case admin, guest }
enum Level: Int, JSONCodable { case low = 1, high = 2 }

struct Page<Item: JSONCodable & Equatable>: JSONCodable, Equatable {
  let items: [Item]
  let next: Int?
}

struct Account: JSONCodable, Equatable {
  let role: Role
  let level: Level?
  let tags: Set<String>
  let limits: [String: Int]
  let matrix: [[Int]]
  let meta: JSON
}

/// Hand-written both ways: AutoMap must call these, on the byte path too.
struct Celsius: JSONCodable, Equatable {
  var degrees: Double
  init(degrees: Double) { self.degrees = degrees }
  init(decode json: JSON) throws { degrees = try Double(decode: json["c"]) + 0.5 }
  var json: JSON { ["c": JSON(degrees - 0.5), "unit": "C"] }
}

struct Reading: JSONCodable, Equatable {
  let temperature: Celsius
  let history: [Celsius]
}
