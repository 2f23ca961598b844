import AutoMap
import Foundation

// The models the tour maps. None of them has mapping code unless the tour says so.

struct User: JSONCodable {
  let id: Int
  let name: String
  let email: String?
  let tags: [String]
}

struct Preferences: JSONCodable, DefaultInitable {
  var theme = "light"
  var fontSize = 12
}

class Vehicle: JSONCodable, DefaultInitable {
  var wheels = 4
  var maker = ""
  required init() {}
  class func specificOptions() -> [String: SpecificOption] { ["maker": "manufacturer"] }
}

final class Bike: Vehicle {
  var gears = 1
  required init() {
    super.init()
    wheels = 2
  }
}

enum Status: String, JSONCodable { case active, banned }
enum Priority: Int, JSONCodable { case low = 1, high = 3 }

struct Page<Item: JSONCodable>: JSONCodable {
  let items: [Item]
  let next: Int?
}

struct Member: JSONCodable {
  var id = 0
  var city = ""
  var nickname = ""
  var status = Status.active
  var friends: [Int] = []
  var homepage: URL?
  var bio: String?
  var session: String?
  var location = Location()

  struct Location: JSONCodable, DefaultInitable {
    var lat = 0.0
    var lng = 0.0
  }

  static let web = CustomTransform<String, URL>.both(
    fromJSON: { host in
      guard let url = URL(string: "https://\(host)") else {
        throw JSON.Error.custom("bad host \(host)")
      }
      return url
    },
    toJSON: { $0.host ?? "" })

  static func specificOptions() -> [String: SpecificOption] {
    [
      "id": "member_id",
      "city": .index(["address", "city"]),
      "nickname": [.alternativeIndex("nick"), .defaultValue("anonymous")],
      "status": .defaultValue(Status.active),
      "friends": .nonNil,
      "homepage": [.transform(web), .ignoreIfNull],
      "bio": .ignoreIfNull,
      "session": .ignore,
      "location": .index([]),
    ]
  }
}

struct Event: JSONCodable {
  let title: String
  let start: Date
  let end: Date

  static func specificOptions() -> [String: SpecificOption] {
    ["end": .transform(DateTransform.secondsSince1970)]
  }
}

/// Hand-written both ways: AutoMap calls these wherever a Temperature appears.
struct Temperature: JSONCodable {
  var celsius: Double
  init(celsius: Double) { self.celsius = celsius }
  init(decode json: JSON) throws { celsius = (try Double(decode: json["f"]) - 32) * 5 / 9 }
  var json: JSON { ["f": JSON(celsius * 9 / 5 + 32)] }
}

struct Forecast: JSONCodable {
  let city: String
  let high: Temperature
}

// Models for the capabilities beyond FxJSON.

struct Feed: JSONCodable {
  var items: [Item]
  var views: Int
  var title: String
  struct Item: JSONCodable { let id: Int }

  static func specificOptions() -> [String: SpecificOption] {
    ["items": .lossy, "views": .lossless, "title": .lossless]
  }
}

struct GitHubUser: JSONCodable {
  static let keyStyle = JSON.KeyStyle.snakeCase
  var login: String
  var avatarURL: String
  var publicRepos: Int
}

struct Signup: JSONCodable {
  var email: String
  var age: Int
  var referrer: String?

  static func specificOptions() -> [String: SpecificOption] { ["referrer": .emptyAsNil] }

  mutating func didDecode() throws {
    guard email.contains("@") else { throw JSON.Error.custom("email must contain @") }
  }
}

struct Draft: JSONCodable, DefaultInitable {
  var title = ""
  var tags: [String] = []
  var editor: String?

  static func specificOptions() -> [String: SpecificOption] { ["tags": .ignoreIfEmpty] }
}

/// The API renamed `user_name` to `username`: read the old key, write the new one.
struct Login: JSONCodable {
  var username: String
  var token: String?

  static func specificOptions() -> [String: SpecificOption] {
    ["username": [.decodeIndex("user_name"), .encodeIndex("username")], "token": .decodeOnly]
  }
}

enum Weekday: JSONCodable, CaseIterable { case monday, tuesday, wednesday }

// Section 11: what reflection refuses, and what it leaves alone.

@propertyWrapper
struct Percent: JSONPropertyWrapper {
  private var value: Int
  init(wrappedValue: Int) { value = min(max(wrappedValue, 0), 100) }
  var wrappedValue: Int {
    get { value }
    set { value = min(max(newValue, 0), 100) }
  }
}

final class Player: JSONCodable, DefaultInitable {
  weak var team: Team?  // never read or written by AutoMap
  @Percent var volume = 50
  var name = ""
  required init() {}
}

final class Team {}

enum Move: JSONCodable {  // payloads, no raw value: nothing to build it from
  case step(Int)
  case jump(height: Double)
}

final class Node: JSONCodable, DefaultInitable {
  var next: Node?
  required init() {}
}

// MARK: Codable, both ways

/// A `Codable` type from another package: it knows nothing of AutoMap.
struct Money: Codable {
  var amount: Int
  var currency: String
}

struct Invoice: JSONCodable {
  static let keyStyle = JSON.KeyStyle.snakeCase  // reaches Money's keys too
  var invoiceID: Int
  var lineTotals: [Money]
  var grandTotal: Money
}

/// `Codable` through its AutoMap mapping, for `JSONEncoder` and any other Codable API.
struct Profile: CodableByMapping {
  var userID: Int
  var displayName: String
  static func specificOptions() -> [String: SpecificOption] { ["userID": "user_id"] }
}

/// An enum with payloads: built by its synthesized `Codable`, laid out with an internal tag.
enum Shape: JSONCodable, Codable {
  case circle(radius: Double)
  case rect(width: Double, height: Double)
  case none
  static let caseLayout = JSON.CaseLayout.internalTag("type")
  static let schemaCases = ["circle", "rect", "none"]  // for JSON.schema(for:)
}

struct LogEntry: JSONCodable {
  var level: String
  var message: String
}

/// Section 25: a model described as a JSON Schema.
struct WeatherQuery: JSONCodable {
  static let keyStyle = JSON.KeyStyle.snakeCase
  enum Unit: String, JSONCodable, CaseIterable { case celsius, fahrenheit }
  let city: String
  let days: UInt8
  let unit: Unit?
}
