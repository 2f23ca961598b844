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

@Observable
final class Reader: JSONCodable, DefaultInitable {
  var name = ""
  var pagesRead = 0
}

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
