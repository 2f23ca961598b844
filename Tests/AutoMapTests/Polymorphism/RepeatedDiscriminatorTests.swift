import AutoMap
import Testing

// A discriminator repeated in one object: the `JSON` path takes its last occurrence, as for any
// repeated key, and every byte path must agree, whatever the chosen type's plan (one that
// streams, one read by routes for a nested path or an alternative) and whether the type was
// decoded before.

class RepeatedPet: JSONCodable, DefaultInitable, JSONPolymorphic {
  var name = ""
  required init() {}
  class var subclasses: [String: RepeatedPet.Type] {
    ["dog": RepeatedDog.self, "cat": RepeatedCat.self]
  }
  class func specificOptions() -> [String: SpecificOption] { [:] }
}

/// Read by routes: a nested path.
final class RepeatedDog: RepeatedPet {
  var barks = false
  override class func specificOptions() -> [String: SpecificOption] {
    ["barks": .index(["info", "barks"])]
  }
}

final class RepeatedCat: RepeatedPet {
  var lives = 0
}

protocol RepeatedShape: JSONCodable {}
struct RepeatedCircle: RepeatedShape { var r = 0.0 }
/// Read by routes: an alternative key.
struct RepeatedSquare: RepeatedShape {
  var side = 0.0
  static func specificOptions() -> [String: SpecificOption] {
    ["side": .alternativeIndex("length")]
  }
}
struct RepeatedTriangle: RepeatedShape { var base = 0.0 }
struct RepeatedHolder: JSONCodable { var shape: any RepeatedShape }

@Suite("A repeated discriminator chooses by its last occurrence on every path")
struct RepeatedDiscriminatorTests {
  static let registered: Bool = {
    (try? JSON.registerPolymorphic(
      (any RepeatedShape).self, discriminator: "kind",
      types: [
        "circle": RepeatedCircle.self, "square": RepeatedSquare.self,
        "triangle": RepeatedTriangle.self,
      ])) != nil
  }()

  /// The dynamic type each entry point gives, or its error's kind.
  func outcomes<T>(_ entries: [(String, () throws -> T)]) -> [String: String] {
    var seen: [String: String] = [:]
    for (entry, decode) in entries {
      do { seen[entry] = "\(type(of: try decode() as Any))" } catch let error as JSON.Error {
        seen[entry] = "\(error.kind)"
      } catch { seen[entry] = "\(error)" }
    }
    return seen
  }

  @Test("class hierarchies, a subclass read by routes")
  func classes() throws {
    let text = #"{"type":"dog","type":"cat"}"#
    // Twice: the first use of each type takes the `JSON` path, the later ones bytes.
    for _ in 0..<2 {
      let pets = outcomes([
        ("JSON", { try RepeatedPet(decode: JSON(jsonString: text)) }),
        ("string", { try RepeatedPet(jsonString: text) }),
        ("array", { try [RepeatedPet](jsonString: "[" + text + "]")[0] }),
      ])
      #expect(Set(pets.values) == ["RepeatedCat"], "\(pets)")
      let dogs = outcomes([
        ("JSON", { try RepeatedDog(decode: JSON(jsonString: text)) }),
        ("string", { try RepeatedDog(jsonString: text) }),
      ])
      #expect(Set(dogs.values).count == 1, "\(dogs)")
    }
  }

  @Test("protocol types, a type read by routes and a type not decoded before")
  func protocols() throws {
    #expect(Self.registered)
    for text in [
      #"{"shape":{"kind":"square","side":1,"kind":"circle","r":2}}"#,
      #"{"shape":{"kind":"triangle","base":1,"kind":"circle","r":2}}"#,
    ] {
      // The bytes first: the triangle's first use is then the byte path's.
      for _ in 0..<2 {
        let shapes = outcomes([
          ("string", { try RepeatedHolder(jsonString: text).shape }),
          ("JSON", { try RepeatedHolder(decode: JSON(jsonString: text)).shape }),
        ])
        #expect(Set(shapes.values) == ["RepeatedCircle"], "\(text): \(shapes)")
      }
    }
  }
}
