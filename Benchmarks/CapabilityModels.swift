import AutoMap
import Foundation

// Models for the capability rows (CapabilityBenchmark.swift): each capability as a user
// would model it, with Foundation given what its users write for the same documents (the
// compiler's synthesized `Codable` where it can, a box that reads the tag by hand where it
// cannot).

// MARK: A class hierarchy chosen by a discriminator

class Pet: Codable, JSONCodable, DefaultInitable, JSONPolymorphic {
  var name = ""
  var age = 0
  var weight = 0.0
  required init() {}
  static let subclasses: [String: Pet.Type] = ["dog": Dog.self, "cat": Cat.self, "bird": Bird.self]

  private enum Keys: String, CodingKey { case type, name, age, weight }
  required init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Keys.self)
    name = try container.decode(String.self, forKey: .name)
    age = try container.decode(Int.self, forKey: .age)
    weight = try container.decode(Double.self, forKey: .weight)
  }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(tag, forKey: .type)
    try container.encode(name, forKey: .name)
    try container.encode(age, forKey: .age)
    try container.encode(weight, forKey: .weight)
  }
  var tag: String { "pet" }
}

final class Dog: Pet {
  var breed = ""
  var barks = true
  required init() { super.init() }
  private enum Keys: String, CodingKey { case breed, barks }
  required init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Keys.self)
    breed = try container.decode(String.self, forKey: .breed)
    barks = try container.decode(Bool.self, forKey: .barks)
    try super.init(from: decoder)
  }
  override func encode(to encoder: any Encoder) throws {
    try super.encode(to: encoder)
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(breed, forKey: .breed)
    try container.encode(barks, forKey: .barks)
  }
  override var tag: String { "dog" }
}

final class Cat: Pet {
  var lives = 9
  var indoor = false
  required init() { super.init() }
  private enum Keys: String, CodingKey { case lives, indoor }
  required init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Keys.self)
    lives = try container.decode(Int.self, forKey: .lives)
    indoor = try container.decode(Bool.self, forKey: .indoor)
    try super.init(from: decoder)
  }
  override func encode(to encoder: any Encoder) throws {
    try super.encode(to: encoder)
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(lives, forKey: .lives)
    try container.encode(indoor, forKey: .indoor)
  }
  override var tag: String { "cat" }
}

final class Bird: Pet {
  var wingspan = 0.0
  var song = ""
  required init() { super.init() }
  private enum Keys: String, CodingKey { case wingspan, song }
  required init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Keys.self)
    wingspan = try container.decode(Double.self, forKey: .wingspan)
    song = try container.decode(String.self, forKey: .song)
    try super.init(from: decoder)
  }
  override func encode(to encoder: any Encoder) throws {
    try super.encode(to: encoder)
    var container = encoder.container(keyedBy: Keys.self)
    try container.encode(wingspan, forKey: .wingspan)
    try container.encode(song, forKey: .song)
  }
  override var tag: String { "bird" }
}

/// What a `Codable` user writes to decode `[Pet]`: read the tag, then the class it names.
struct PetBox: Decodable {
  let pet: Pet
  private enum Keys: String, CodingKey { case type }
  init(from decoder: any Decoder) throws {
    switch try decoder.container(keyedBy: Keys.self).decode(String.self, forKey: .type) {
    case "dog": pet = try Dog(from: decoder)
    case "cat": pet = try Cat(from: decoder)
    case "bird": pet = try Bird(from: decoder)
    case let other:
      throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unknown \(other)"))
    }
  }
}

// MARK: Protocol types chosen by a discriminator

protocol Figure: JSONCodable, Codable {}

struct Circle: Figure {
  var x: Double
  var y: Double
  var radius: Double
  var label: String
}

struct Rectangle: Figure {
  var x: Double
  var y: Double
  var width: Double
  var height: Double
  var label: String
}

struct Polygon: Figure {
  var points: [Double]
  var closed: Bool
  var label: String
}

enum Figures {
  static let table: [String: any Figure.Type] = [
    "circle": Circle.self, "rectangle": Rectangle.self, "polygon": Polygon.self,
  ]
  static func register() throws {
    try JSON.registerPolymorphic((any Figure).self, discriminator: "kind", types: table)
  }
}

/// What a `Codable` user writes for `[any Figure]`: a box that reads and writes the tag.
struct FigureBox: Codable {
  let figure: any Figure
  init(figure: any Figure) { self.figure = figure }
  private enum Keys: String, CodingKey { case kind }
  init(from decoder: any Decoder) throws {
    let kind = try decoder.container(keyedBy: Keys.self).decode(String.self, forKey: .kind)
    guard let type = Figures.table[kind] else {
      throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unknown \(kind)"))
    }
    figure = try type.init(from: decoder)
  }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Keys.self)
    let kind = Figures.table.first { $0.value == type(of: figure) }?.key ?? "?"
    try container.encode(kind, forKey: .kind)
    try figure.encode(to: encoder)
  }
}

// MARK: Codable types as properties

/// A type from another package: `Codable` only.
struct Money: Codable {
  var amount: Double
  var currency: String
}

struct Invoice: Codable, JSONCodable {
  var id: Int
  var customer: String
  var total: Money
  var lines: [Money]
  var discount: Money?
}

/// The same shape with a `JSONCodable` amount: what AutoMap's plain models cost.
struct MappedMoney: Codable, JSONCodable {
  var amount: Double
  var currency: String
}

struct MappedInvoice: Codable, JSONCodable {
  var id: Int
  var customer: String
  var total: MappedMoney
  var lines: [MappedMoney]
  var discount: MappedMoney?
}

// MARK: Enums with payloads, in every case layout

protocol LayoutChoice: Sendable { static var layout: JSON.CaseLayout { get } }
enum ExternalTag: LayoutChoice { static var layout: JSON.CaseLayout { .externalTag } }
enum InternalTag: LayoutChoice { static var layout: JSON.CaseLayout { .internalTag("type") } }
enum AdjacentTag: LayoutChoice {
  static var layout: JSON.CaseLayout { .adjacentTag("type", content: "value") }
}
enum Untagged: LayoutChoice {
  static var layout: JSON.CaseLayout { .untagged(["tap", "swipe", "pinch", "press"]) }
}

/// One enum, its layout a type parameter: the same cases in each layout.
enum Gesture<Layout: LayoutChoice>: Codable, JSONCodable {
  case tap(x: Int, y: Int)
  case swipe(dx: Double, dy: Double, fingers: Int)
  case pinch(scale: Double)
  case press(seconds: Double, force: Double)
  static var caseLayout: JSON.CaseLayout { Layout.layout }
}

/// The same cases in a plain enum, as users write one: `Gesture` is generic (one type for every
/// layout), and generic synthesized `Codable` code looks up the metadata of its coding keys on
/// every call, on both sides.
enum Stroke: Codable, JSONCodable {
  case tap(x: Int, y: Int)
  case swipe(dx: Double, dy: Double, fingers: Int)
  case pinch(scale: Double)
  case press(seconds: Double, force: Double)

  init(_ gesture: Gesture<ExternalTag>) {
    switch gesture {
    case .tap(let x, let y): self = .tap(x: x, y: y)
    case .swipe(let dx, let dy, let fingers): self = .swipe(dx: dx, dy: dy, fingers: fingers)
    case .pinch(let scale): self = .pinch(scale: scale)
    case .press(let seconds, let force): self = .press(seconds: seconds, force: force)
    }
  }
}

/// What a `Codable` user writes for the layouts synthesized `Codable` does not have.
struct GestureBox<Layout: LayoutChoice>: Codable {
  let gesture: Gesture<Layout>
  init(_ gesture: Gesture<Layout>) { self.gesture = gesture }

  private struct Key: CodingKey {
    let stringValue: String
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
  }
  private static func key(_ name: String) -> Key { Key(name) }

  init(from decoder: any Decoder) throws {
    switch Layout.layout {
    case .internalTag(let tag):
      let container = try decoder.container(keyedBy: Key.self)
      gesture = try Self.payload(try container.decode(String.self, forKey: Key(tag)), container)
    case .adjacentTag(let tag, let content):
      let container = try decoder.container(keyedBy: Key.self)
      let name = try container.decode(String.self, forKey: Key(tag))
      gesture = try Self.payload(
        name, try container.nestedContainer(keyedBy: Key.self, forKey: Key(content)))
    default:  // untagged: the first case whose fields are all there
      let container = try decoder.container(keyedBy: Key.self)
      for name in ["tap", "swipe", "pinch", "press"] {
        if let gesture = try? Self.payload(name, container) {
          self.gesture = gesture
          return
        }
      }
      throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no case"))
    }
  }

  private static func payload(_ name: String, _ c: KeyedDecodingContainer<Key>) throws
    -> Gesture<Layout>
  {
    switch name {
    case "tap":
      return .tap(
        x: try c.decode(Int.self, forKey: key("x")), y: try c.decode(Int.self, forKey: key("y")))
    case "swipe":
      return .swipe(
        dx: try c.decode(Double.self, forKey: key("dx")),
        dy: try c.decode(Double.self, forKey: key("dy")),
        fingers: try c.decode(Int.self, forKey: key("fingers")))
    case "pinch": return .pinch(scale: try c.decode(Double.self, forKey: key("scale")))
    case "press":
      return .press(
        seconds: try c.decode(Double.self, forKey: key("seconds")),
        force: try c.decode(Double.self, forKey: key("force")))
    default:
      throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unknown \(name)"))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    let (name, fields): (String, [(String, Double)]) =
      switch gesture {
      case .tap(let x, let y): ("tap", [("x", Double(x)), ("y", Double(y))])
      case .swipe(let dx, let dy, let fingers):
        ("swipe", [("dx", dx), ("dy", dy), ("fingers", Double(fingers))])
      case .pinch(let scale): ("pinch", [("scale", scale)])
      case .press(let seconds, let force): ("press", [("seconds", seconds), ("force", force)])
      }
    func write(_ target: inout KeyedEncodingContainer<Key>) throws {
      for (key, value) in fields {
        // Integers as integers, as synthesized `Codable` writes them.
        if key == "x" || key == "y" || key == "fingers" {
          try target.encode(Int(value), forKey: Key(key))
        } else {
          try target.encode(value, forKey: Key(key))
        }
      }
    }
    switch Layout.layout {
    case .internalTag(let tag):
      try container.encode(name, forKey: Key(tag))
      try write(&container)
    case .adjacentTag(let tag, let content):
      try container.encode(name, forKey: Key(tag))
      var nested = container.nestedContainer(keyedBy: Key.self, forKey: Key(content))
      try write(&nested)
    default:
      try write(&container)
    }
  }
}

// MARK: Options that look elsewhere in the document

struct RowAddress: Codable, JSONCodable {
  let street: String
  let city: String
  let zip: String
}

struct RowGeo: Codable, JSONCodable {
  let lat: Double
  let lng: Double
}

/// The plain model of the option rows' documents: every value where the document has it.
struct PlainRow: Codable, JSONCodable {
  let id: Int
  let name: String
  let nickname: String?
  let nick: String?
  let address: RowAddress
  let lat: Double
  let lng: Double
}

/// The address's fields read through nested paths.
struct NestedIndexRow: JSONCodable {
  var id = 0
  var name = ""
  var nickname: String?
  var nick: String?
  var street = ""
  var city = ""
  var zip = ""
  var lat = 0.0
  var lng = 0.0
  static func specificOptions() -> [String: SpecificOption] {
    [
      "street": .index(["address", "street"]), "city": .index(["address", "city"]),
      "zip": .index(["address", "zip"]),
    ]
  }
}

/// One nickname, under either key.
struct AlternativeIndexRow: JSONCodable {
  var id = 0
  var name = ""
  var nickname = ""
  var address = RowAddress(street: "", city: "", zip: "")
  var lat = 0.0
  var lng = 0.0
  static func specificOptions() -> [String: SpecificOption] {
    ["nickname": .alternativeIndex("nick")]
  }
}

/// The coordinates as one nested value, read from the enclosing object.
struct FlattenedRow: JSONCodable {
  var id = 0
  var name = ""
  var nickname: String?
  var nick: String?
  var address = RowAddress(street: "", city: "", zip: "")
  var geo = RowGeo(lat: 0, lng: 0)
  static func specificOptions() -> [String: SpecificOption] { ["geo": .index([])] }
}

/// Every property read under another key than its name.
struct DecodeIndexRow: JSONCodable {
  var identifier = 0
  var title = ""
  var nickname: String?
  var nick: String?
  var address = RowAddress(street: "", city: "", zip: "")
  var lat = 0.0
  var lng = 0.0
  static func specificOptions() -> [String: SpecificOption] {
    ["identifier": .decodeIndex("id"), "title": .decodeIndex("name")]
  }
}
