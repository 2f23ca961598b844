import AutoMap

/// A hierarchy with no default: unknown and missing discriminators are errors.
class Pet: JSONCodable, DefaultInitable, JSONPolymorphic, Equatable {
  var name = ""
  var friend: Pet?
  required init() {}

  static let subclasses: [String: Pet.Type] = [
    "dog": PetDog.self, "cat": PetCat.self, "puppy": PetPuppy.self, "hound": PetDog.self,
  ]

  static func == (lhs: Pet, rhs: Pet) -> Bool { lhs.isEqual(rhs) }

  func isEqual(_ other: Pet) -> Bool {
    type(of: self) == type(of: other) && name == other.name && friend == other.friend
  }
}

class PetDog: Pet {
  var barks = true
  override func isEqual(_ other: Pet) -> Bool {
    super.isEqual(other) && barks == (other as? PetDog)?.barks
  }
}

/// In the table under "puppy": a subclass of a subclass.
final class PetPuppy: PetDog {
  var age = 0
  override func isEqual(_ other: Pet) -> Bool {
    super.isEqual(other) && age == (other as? PetPuppy)?.age
  }
}

/// Has its own property named like the discriminator key: it is decoded, never written twice.
final class PetCat: Pet {
  var lives = 9
  var type = ""
  override func isEqual(_ other: Pet) -> Bool {
    guard let other = other as? PetCat else { return false }
    return super.isEqual(other) && lives == other.lives && type == other.type
  }
}

/// Not in the table: decoding never makes one, encoding one is an error naming it.
final class PetParrot: Pet {
  var words = 0
}

/// A model holding the base in every container.
struct PetShelter: JSONCodable, Equatable {
  var star: Pet?
  var pets: [Pet]
  var byName: [String: Pet]
  var favourite: PetDog?
}

/// A hierarchy with a default (the base itself, not in the table) and its own key.
class Shape2D: JSONCodable, DefaultInitable, JSONPolymorphic, Equatable {
  var label = ""
  required init() {}

  static let discriminator = "kind"
  static let subclasses: [String: Shape2D.Type] = ["circle": Circle2D.self]
  static var defaultSubclass: Shape2D.Type? { Shape2D.self }

  static func == (lhs: Shape2D, rhs: Shape2D) -> Bool { lhs.isEqual(rhs) }

  func isEqual(_ other: Shape2D) -> Bool {
    type(of: self) == type(of: other) && label == other.label
  }

  class func specificOptions() -> [String: SpecificOption] { [:] }
}

final class Circle2D: Shape2D {
  var radius = 0.0
  /// Mapped to the discriminator key: decoded, and left out of encoding.
  var shapeKind = ""
  override class func specificOptions() -> [String: SpecificOption] { ["shapeKind": "kind"] }
  override func isEqual(_ other: Shape2D) -> Bool {
    guard let other = other as? Circle2D else { return false }
    return super.isEqual(other) && radius == other.radius && shapeKind == other.shapeKind
  }
}

/// Chooses by a closure over the object before looking at its (absent) discriminator.
class Event: JSONCodable, DefaultInitable, JSONPolymorphic, Equatable {
  var id = 0
  required init() {}
  static let subclasses: [String: Event.Type] = ["click": ClickEvent.self, "key": KeyEvent.self]

  static func subclass(for object: JSON) throws -> Event.Type? {
    if !object["x"].isMissing { return ClickEvent.self }
    if !object["code"].isMissing { return KeyEvent.self }
    if !object["boom"].isMissing { throw JSON.Error.custom("boom is not an event") }
    return nil
  }

  static func == (lhs: Event, rhs: Event) -> Bool {
    type(of: lhs) == type(of: rhs) && lhs.id == rhs.id
  }
}

final class ClickEvent: Event { var x = 0 }
final class KeyEvent: Event { var code = "" }

/// A property mapped *through* the discriminator key cannot be written: refused at first use.
class Clashing: JSONCodable, DefaultInitable, JSONPolymorphic {
  var inner = 0
  required init() {}
  static let subclasses: [String: Clashing.Type] = ["clashing": Clashing.self]
  class func specificOptions() -> [String: SpecificOption] { ["inner": .index(["type", "x"])] }
}
