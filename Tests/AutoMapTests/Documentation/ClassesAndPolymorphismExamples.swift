import AutoMap
import Foundation
import Testing

// The code of Sources/AutoMap/AutoMap.docc/ClassesAndPolymorphism.md (see
// GettingStartedExamples.swift).

enum ClassesArticle {
  // docc:begin
  class Vehicle: JSONCodable, DefaultInitable {  // classes: `required init()`
    var name = ""
    required init() {}
    class func specificOptions() -> [String: SpecificOption] { ["name": "vehicle_name"] }
  }

  final class Truck: Vehicle {  // inherits the mapping, adds its fields
    var payload = 0
    override class func specificOptions() -> [String: SpecificOption] {
      var options = super.specificOptions()
      options["payload"] = "max_payload"
      return options
    }
  }
  // docc:end

  // docc:begin
  class Animal: JSONCodable, DefaultInitable, JSONPolymorphic {
    var name = ""
    required init() {}
    static let discriminator = "type"  // the default; the key is never styled
    static let subclasses: [String: Animal.Type] = ["dog": Dog.self, "cat": Cat.self]
  }
  final class Dog: Animal { var barks = true }
  final class Cat: Animal { var lives = 9 }
  // docc:end

  // docc:begin
  protocol Shape: JSONCodable { var area: Double { get } }
  struct Circle: Shape { var radius = 0.0; var area: Double { .pi * radius * radius } }
  struct Square: Shape { var side = 0.0; var area: Double { side * side } }

  struct Drawing: JSONCodable { var shapes: [any Shape] }
  // docc:end

  static func registerShapes() throws {
    // docc:begin
    try JSON.registerPolymorphic(  // once, at start-up
      (any Shape).self, discriminator: "kind",
      types: ["circle": Circle.self, "square": Square.self])
    // docc:end
  }
}

extension ClassesArticle {
  @Suite("Documentation: Classes and polymorphism")
  struct Examples {
    init() throws { try registerShapes() }

    @Test("A subclass inherits its base's mapping and adds its own fields")
    func inheritance() throws {
      let truck = try Truck(jsonString: #"{"vehicle_name": "Volvo", "max_payload": 18}"#)
      #expect(truck.name == "Volvo" && truck.payload == 18)
      #expect(try truck.jsonString() == #"{"vehicle_name":"Volvo","max_payload":18}"#)
    }

    @Test("A discriminator chooses the subclass")
    func discriminator() throws {
      // docc:begin
      let pets = try [Animal](jsonString: #"[{"type": "dog", "name": "Rex"}, {"type": "cat"}]"#)
      let isDog = pets[0] is Dog  // true; also in Animal?, [String: Animal] and properties
      let text = try pets.jsonString()
      // [{"type":"dog","name":"Rex","barks":true},{"type":"cat","name":"","lives":9}]
      // docc:end
      #expect(isDog && pets[1] is Cat)
      #expect(
        text
          == #"[{"type":"dog","name":"Rex","barks":true},{"type":"cat","name":"","lives":9}]"#)
      let error = #expect(throws: JSON.Error.self) {
        // docc:begin
        try Animal(jsonString: #"{"type": "parrot"}"#)
        // at type: unknown Animal discriminator string "parrot": expected one of "cat", "dog"
        // docc:end
      }
      #expect(error?.path == "type")
      #expect(
        error?.description.contains(#"discriminator string "parrot": expected one of "cat", "dog""#)
          == true)
    }

    @Test("A protocol type, once registered, maps wherever it is used")
    func protocolTypes() throws {
      // docc:begin
      let drawing = try Drawing(jsonString: #"{"shapes": [{"kind": "square", "side": 2}]}"#)
      let area = drawing.shapes[0].area  // 4.0
      let text = try drawing.jsonString()  // {"shapes":[{"kind":"square","side":2.0}]}
      // docc:end
      #expect(area == 4)
      #expect(text == #"{"shapes":[{"kind":"square","side":2.0}]}"#)
    }

    @Test("At the top level, the JSON entry points take the protocol type")
    func topLevel() throws {
      let data = Data(#"[{"kind": "circle", "radius": 1}, {"kind": "square", "side": 3}]"#.utf8)
      // docc:begin
      let shapes = try JSON.decode([any Shape].self, fromJSONData: data)
      let text = try JSON.jsonData(shapes, as: [any Shape].self)
      let one = try JSON.encode(shapes[1], as: (any Shape).self)  // {"kind": "square", …}
      // docc:end
      #expect(shapes.count == 2 && shapes[1].area == 9)
      #expect(String(decoding: text, as: UTF8.self).hasPrefix(#"[{"kind":"circle""#))
      #expect(one == ["kind": "square", "side": 3.0])
    }
  }
}
