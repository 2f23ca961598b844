import AutoMap
import Testing

// A member whose key is only canonically equal to the discriminator's ("Kind" with a Kelvin
// sign, U+212A, for "Kind") is another key, as JSON compares keys by their bytes: encoding
// keeps it beside the discriminator, on every path.

private let kelvinKind = "\u{212A}ind"

class KelvinPet: JSONCodable, DefaultInitable, JSONPolymorphic {
  var name = ""
  /// Every member of the document, the model's own included: a catch-all.
  var rest: JSON = [:]
  required init() {}
  class var discriminator: String { "Kind" }
  class var subclasses: [String: KelvinPet.Type] { ["dog": KelvinDog.self, "cat": KelvinCat.self] }
  class func specificOptions() -> [String: SpecificOption] { ["rest": .index([])] }
}

final class KelvinDog: KelvinPet {
  var barks = false
  var unit = ""
  override class func specificOptions() -> [String: SpecificOption] {
    ["rest": .index([]), "unit": .index(.key(kelvinKind))]
  }
}

/// No field of its own at the Kelvin key: the catch-all writes the member it read.
final class KelvinCat: KelvinPet {}

protocol KelvinShape: JSONCodable {}

struct KelvinSquare: KelvinShape {
  var side = 0.0
  var unit = ""
  static func specificOptions() -> [String: SpecificOption] { ["unit": .index("\u{212A}ind")] }
}

struct KelvinHolder: JSONCodable {
  var shape: any KelvinShape
}

@Suite("A key only canonically equal to the discriminator's is another key")
struct DiscriminatorSpellingTests {
  static let registered: Bool = {
    (try? JSON.registerPolymorphic(
      (any KelvinShape).self, discriminator: "Kind", types: ["square": KelvinSquare.self])) != nil
  }()

  @Test("a class hierarchy's catch-all keeps it")
  func classCatchAll() throws {
    let text = #"{"Kind": "dog", "name": "Rex", "barks": true, "\#(kelvinKind)": "kelvin"}"#
    let pet = try KelvinPet(jsonString: text)
    let dog = try #require(pet as? KelvinDog)
    #expect(dog.unit == "kelvin")
    dog.unit = "changed"
    for (path, json) in [("json", try pet.json), ("bytes", try JSON(jsonData: pet.jsonData()))] {
      #expect(json[.key("Kind")] == "dog", "\(path)")
      #expect(json[.key(kelvinKind)] == "changed", "\(path): the Kelvin field was left out")
      #expect(json.count == 4, "\(path): \(json)")
    }
    // Without the field, the catch-all writes the member it read.
    let cat = try KelvinPet(jsonString: #"{"Kind": "cat", "name": "Tom", "\#(kelvinKind)": "k"}"#)
    #expect(cat is KelvinCat)
    for json in [try cat.json, try JSON(jsonData: cat.jsonData())] {
      #expect(json[.key(kelvinKind)] == "k" && json[.key("Kind")] == "cat" && json.count == 3)
    }
  }

  @Test("a protocol type's field keeps it")
  func protocolField() throws {
    try #require(Self.registered)
    let holder = KelvinHolder(shape: KelvinSquare(side: 2, unit: "cm"))
    for (path, json) in [
      ("json", try holder.json), ("bytes", try JSON(jsonData: holder.jsonData())),
    ] {
      #expect(json["shape", "Kind"] == "square", "\(path)")
      #expect(json["shape", .key(kelvinKind)] == "cm", "\(path): the field was dropped")
    }
    let back = try KelvinHolder(jsonData: holder.jsonData())
    #expect((back.shape as? KelvinSquare)?.unit == "cm")
  }
}
