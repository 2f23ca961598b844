import AutoMap
import Testing

@Suite("update(from:) on polymorphic classes")
struct PolymorphicUpdateTests {
  @Test("an instance keeps its class: a discriminator naming another is an error at its key")
  func otherClass() throws {
    let dog = PetDog()
    dog.name = "Rex"
    let error = #expect(throws: JSON.Error.self) {
      try dog.update(from: ["type": "cat", "name": "Tom", "lives": 3])
    }
    #expect(error?.path == "type")
    #expect(
      error?.message
        == #"discriminator "cat" chooses PetCat, but update(from:) cannot change this PetDog into another class: decode a new value instead"#
    )
    #expect(dog.name == "Rex")  // nothing changed
    // Through a variable of the base type, and from text: the same.
    let pet: Pet = dog
    #expect(throws: JSON.Error.self) { try pet.update(fromJSONString: #"{"type": "cat"}"#) }
    // A subclass of the named class is another class too.
    #expect(throws: JSON.Error.self) { try dog.update(from: ["type": "puppy"]) }
    #expect(dog.name == "Rex")
  }

  @Test("its own discriminator, none, or null: the update goes on")
  func sameClass() throws {
    let dog = PetDog()
    try dog.update(from: ["type": "dog", "name": "Rex"])
    try dog.update(from: ["type": "hound", "barks": false])  // another value naming PetDog
    try dog.update(from: ["name": "Max"])
    try dog.update(from: ["type": nil, "name": "Bo"])
    #expect(dog.name == "Bo")
    #expect(dog.barks == false)
    // The default subclass answers for unknown values when it is the instance's class.
    let shape = Shape2D()
    try shape.update(from: ["kind": "square", "label": "s"])
    #expect(shape.label == "s")
    let circle = Circle2D()
    let error = #expect(throws: JSON.Error.self) { try circle.update(from: ["kind": "square"]) }
    #expect(error?.message.contains("chooses Shape2D") == true)
  }

  @Test("a value the table does not hold is asked of subclass(for:), as decoding asks it")
  func chosenByClosure() throws {
    let click = ClickEvent()
    try click.update(from: ["type": "pointer", "x": 3])  // subclass(for:) says ClickEvent
    #expect(click.x == 3)
    #expect(try ClickEvent(decode: ["type": "pointer", "x": 4]).x == 4)  // as decoding does
    let error = #expect(throws: JSON.Error.self) {
      try click.update(from: ["type": "pointer", "code": "k"])  // it says KeyEvent
    }
    #expect(error?.path == "type")
    #expect(click.x == 3)
  }

  @Test("unknown and non-string discriminators are errors naming the path")
  func badDiscriminators() throws {
    let cat = PetCat()
    let unknown = #expect(throws: JSON.Error.self) { try cat.update(from: ["type": "parrot"]) }
    #expect(unknown?.path == "type")
    #expect(unknown?.message.hasPrefix(#"unknown Pet discriminator string "parrot""#) == true)
    let number = #expect(throws: JSON.Error.self) { try cat.update(from: ["type": 1]) }
    #expect(number?.path == "type")
  }

  @Test("a polymorphic property of an updated model is replaced by the class its value names")
  func property() throws {
    var shelter = try PetShelter(
      jsonString: #"{"star": {"type": "dog"}, "pets": [], "byName": {}}"#)
    try shelter.update(from: ["star": ["type": "cat", "name": "Tom"]])
    #expect(shelter.star is PetCat)
    #expect(shelter.star?.name == "Tom")
  }
}
