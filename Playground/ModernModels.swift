import AutoMap
import Observation

// Models for the tour's last sections: resilient enums, keys that are not strings, and
// modern Swift models.

enum OrderStatus: String, JSONCodable, JSONFallbackCase, JSONCaseAliases {
  case placed, shipped, cancelled, unknown
  static let fallbackCase = OrderStatus.unknown
  static let aliases: [OrderStatus: [String]] = [.cancelled: ["canceled"]]
}

enum Warehouse: String, JSONCodable, JSONKeyRepresentable { case north, south }

struct Stock: JSONCodable {
  var byShelf: [Int: String]
  var byWarehouse: [Warehouse: Int]
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@Observable
final class Reader: JSONCodable, DefaultInitable {
  var name = ""
  var pagesRead = 0
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
struct Ledger: JSONCodable {
  var total: UInt128
  var balance: Int128
}

class Animal: JSONCodable, DefaultInitable, JSONPolymorphic {
  var name = ""
  required init() {}
  static let subclasses: [String: Animal.Type] = ["dog": Dog.self, "cat": Cat.self]
}

final class Dog: Animal { var barks = true }
final class Cat: Animal { var lives = 9 }

/// Untagged: the payload alone, the first listed case that maps.
enum Setting: JSONCodable, Codable {
  case flag(Bool)
  case number(Int)
  case range(Int, Int)
  case named(name: String, value: Int)
  case off
  case text(String)
  static let caseLayout = JSON.CaseLayout.untagged([
    "flag", "number", "range", "named", "off", "text",
  ])
}

/// A protocol type, mapped once its table is registered.
protocol Figure: JSONCodable { var area: Double { get } }
struct Circle: Figure {
  var radius = 0.0
  var area: Double { 3 * radius * radius }
}
struct Square: Figure {
  var side = 0.0
  var area: Double { side * side }
}
struct Drawing: JSONCodable { var figures: [any Figure] }
