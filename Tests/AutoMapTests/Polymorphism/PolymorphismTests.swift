import AutoMap
import Foundation
import Testing

@Suite struct PolymorphismTests {
  // MARK: Choosing the class

  @Test func theBaseBuildsTheSubclassTheDiscriminatorNames() throws {
    let dog = outcomeOnEveryPath(Pet.self, #"{"type":"dog","name":"Rex","barks":false}"#).value
    let rex = try #require(dog as? PetDog)
    #expect(rex.name == "Rex" && rex.barks == false)
    let cat = outcomeOnEveryPath(Pet.self, #"{"name":"Tom","lives":3,"type":"cat"}"#).value
    let tom = try #require(cat as? PetCat)
    #expect(tom.lives == 3 && tom.type == "cat")
    // A subclass of a subclass, and a second value naming the same class.
    #expect(outcomeOnEveryPath(Pet.self, #"{"type":"puppy","age":1}"#).value is PetPuppy)
    let hound = outcomeOnEveryPath(Pet.self, #"{"type":"hound"}"#).value
    #expect(hound.map { type(of: $0) } == PetDog.self)
  }

  @Test func everyContainerHoldsTheChosenSubclasses() throws {
    let text = #"""
      {"star": {"type":"cat","name":"Tom"},
       "pets": [{"type":"dog","name":"Rex"}, {"type":"puppy","name":"Bit","age":2},
                {"type":"cat","name":"Kit","lives":7, "friend": {"type":"dog","name":"Pal"}}],
       "byName": {"rex": {"type":"dog","name":"Rex","barks":false}},
       "favourite": {"type":"puppy","name":"Bit"}}
      """#
    let shelter = try #require(outcomeOnEveryPath(PetShelter.self, text).value)
    #expect(shelter.star is PetCat)
    #expect(shelter.pets.map { "\(type(of: $0))" } == ["PetDog", "PetPuppy", "PetCat"])
    #expect(shelter.pets[2].friend is PetDog)
    #expect((shelter.byName["rex"] as? PetDog)?.barks == false)
    #expect(shelter.favourite is PetPuppy)
    let pets = try #require(
      outcomeOnEveryPath([Pet].self, #"[{"type":"cat"},{"type":"dog"}]"#).value)
    #expect(pets[0] is PetCat && pets[1] is PetDog)
    #expect(
      outcomeOnEveryPath([String: Pet]?.self, #"{"a":{"type":"cat"}}"#).value??["a"] is PetCat)
  }

  @Test func aSubclassAskedForByNameAcceptsItselfAndItsSubclassesOnly() throws {
    #expect(outcomeOnEveryPath(PetDog.self, #"{"type":"puppy","age":4}"#).value is PetPuppy)
    let plain = outcomeOnEveryPath(PetDog.self, #"{"name":"Rex"}"#).value
    #expect(plain.map { type(of: $0) } == PetDog.self)  // no discriminator: the class asked for
    let wrong = outcomeOnEveryPath(PetDog.self, #"{"type":"cat","name":"Tom"}"#)
    #expect(wrong.kind == .typeMismatch)
    #expect(
      wrong.description
        == #"at type: discriminator "cat" chooses PetCat, which is not a PetDog"#)
    let inField = outcomeOnEveryPath(
      PetShelter.self, #"{"pets":[],"byName":{},"favourite":{"type":"cat"}}"#)
    #expect(inField.description?.hasPrefix("at favourite.type: ") == true)
  }

  // MARK: Bad discriminators

  @Test func anUnknownDiscriminatorNamesThePathAndTheValue() {
    let outcome = outcomeOnEveryPath(
      PetShelter.self, #"{"pets":[{"type":"dog"},{"type":"parrot"}],"byName":{}}"#)
    #expect(outcome.kind == .typeMismatch)
    #expect(
      outcome.description
        == #"at pets[1].type: unknown Pet discriminator string "parrot": expected one of "cat", "dog", "hound", "puppy""#
    )
    // The class not in the table is never built, even when its name is used.
    #expect(outcomeOnEveryPath(Pet.self, #"{"type":"PetParrot"}"#).kind == .typeMismatch)
  }

  @Test func aMissingOrNullDiscriminatorOnTheBaseNamesTheKey() {
    for text in [#"{"name":"Rex"}"#, #"{"type":null}"#, "{}"] {
      let outcome = outcomeOnEveryPath(Pet.self, text)
      #expect(outcome.kind == .missingValue, "\(text)")
      #expect(
        outcome.description
          == #"at type: missing the discriminator that chooses the Pet subclass: one of "cat", "dog", "hound", "puppy""#
      )
    }
    let nested = outcomeOnEveryPath([String: Pet].self, #"{"a":{"type":"cat"},"b":{}}"#)
    #expect(nested.description?.hasPrefix("at b.type: missing the discriminator") == true)
  }

  @Test func aDiscriminatorThatIsNotAStringIsAnErrorEvenWithADefault() {
    for (text, found) in [
      (#"{"type":3}"#, "number 3"), (#"{"type":true}"#, "bool true"),
      (#"{"type":["dog"]}"#, "array of 1"), (#"{"type":{"dog":1}}"#, "object of 1 members"),
    ] {
      let outcome = outcomeOnEveryPath(Pet.self, text)
      #expect(outcome.kind == .typeMismatch)
      #expect(outcome.description?.hasPrefix("at type: expected a string naming the Pet") == true)
      #expect(outcome.description?.hasSuffix("found \(found)") == true, "\(outcome)")
      let shape = outcomeOnEveryPath(
        Shape2D.self, text.replacingOccurrences(of: "type", with: "kind"))
      #expect(shape.description?.hasPrefix("at kind: expected a string") == true, "\(shape)")
    }
  }

  @Test func valuesThatAreNotObjectsAreReportedByTheRequestedClass() {
    for text in [#""dog""#, "[]", "3", "null"] {
      let outcome = outcomeOnEveryPath(Pet.self, text)
      #expect(outcome.value == nil, "\(text)")
      #expect(outcome.description?.hasPrefix("at the root: ") == true, "\(outcome)")
    }
    #expect(outcomeOnEveryPath(Pet?.self, "null").value == .some(nil))
  }

  @Test func aWrongFieldInsideTheSubclassHasItsPath() {
    let outcome = outcomeOnEveryPath(
      PetShelter.self, #"{"pets":[{"type":"dog","barks":"loud"}],"byName":{}}"#)
    #expect(outcome.kind == .typeMismatch)
    #expect(outcome.description?.hasPrefix("at pets[0].barks: ") == true, "\(outcome)")
    #expect(outcomeOnEveryPath(Pet.self, #"{"type":"dog"#).value == nil)  // malformed
  }

  @Test func deepInputIsAnErrorNotACrash() {
    let depth = 3000
    let text =
      String(repeating: #"{"type":"dog","friend":"#, count: depth) + "null"
      + String(repeating: "}", count: depth)
    let outcome = outcomeOnEveryPath(Pet.self, text)
    #expect(outcome.value == nil)
    #expect(outcome.kind == .tooDeep(limit: JSON.maximumDepth), "\(outcome)")
  }

  // MARK: Defaults and closures

  @Test func theDefaultClassTakesUnknownAndMissingDiscriminators() throws {
    for text in [
      #"{"kind":"hexagon","label":"h"}"#, #"{"label":"h"}"#, #"{"kind":null,"label":"h"}"#,
    ] {
      let shape = try #require(outcomeOnEveryPath(Shape2D.self, text).value)
      #expect(type(of: shape) == Shape2D.self && shape.label == "h")
    }
    let circle = try #require(
      outcomeOnEveryPath(Shape2D.self, #"{"kind":"circle","radius":2}"#).value as? Circle2D)
    #expect(circle.radius == 2 && circle.shapeKind == "circle")
    // Asked for by name, the default (a superclass) does not fit: the class asked for.
    let byName = outcomeOnEveryPath(Circle2D.self, #"{"radius":1}"#).value
    #expect(byName?.radius == 1)
    #expect(outcomeOnEveryPath(Circle2D.self, #"{"kind":"square"}"#).kind == .typeMismatch)
  }

  @Test func aClosureChoosesBeforeTheDiscriminator() {
    #expect(outcomeOnEveryPath(Event.self, #"{"id":1,"x":5}"#).value is ClickEvent)
    #expect(outcomeOnEveryPath(Event.self, #"{"id":1,"code":"k"}"#).value is KeyEvent)
    #expect(outcomeOnEveryPath(Event.self, #"{"type":"key"}"#).value is KeyEvent)
    let thrown = outcomeOnEveryPath([Event].self, #"[{"boom":1}]"#)
    #expect(thrown.kind == .custom)
    #expect(thrown.description == "at [0]: boom is not an event")
    let unfit = outcomeOnEveryPath(KeyEvent.self, #"{"x":1}"#)
    #expect(
      unfit.description
        == "at the root: Event.subclass(for:) chose ClickEvent, which is not a KeyEvent")
  }

  // MARK: Encoding

  @Test func encodingWritesTheDiscriminatorFirstAndOnce() throws {
    let cat = PetCat()
    cat.name = "Tom"
    cat.type = "ignored"  // mapped to the discriminator key: never written
    let dog: Pet = PetDog()
    dog.name = "Rex"
    let pets: [Pet] = [cat, dog]
    #expect(
      try pets.jsonString()
        == #"[{"type":"cat","name":"Tom","friend":null,"lives":9},{"type":"dog","name":"Rex","friend":null,"barks":true}]"#
    )
    #expect(try pets.json.jsonString() == pets.jsonString())
    #expect(
      try textOnEveryPath(pets)
        == #"[{"friend":null,"lives":9,"name":"Tom","type":"cat"},{"barks":true,"friend":null,"name":"Rex","type":"dog"}]"#
    )
    // "hound" and "dog" both name PetDog: the first in key order is written.
    #expect(try PetDog().jsonString().hasPrefix(#"{"type":"dog","#))
    let circle = Circle2D()
    circle.shapeKind = "square"
    #expect(try textOnEveryPath(circle) == #"{"kind":"circle","label":"","radius":0.0}"#)
  }

  @Test func decodeEncodeDecodeGivesTheSameObjects() throws {
    let text = #"""
      {"star": {"type":"cat","name":"Tom","lives":2},
       "pets": [{"type":"puppy","name":"Bit","age":2,"friend":{"type":"cat","name":"Kit"}},
                {"type":"hound","name":"Rex","barks":false}],
       "byName": {"k": {"type":"cat"}}, "favourite": null}
      """#
    let shelter = try PetShelter(jsonString: text)
    let written = try textOnEveryPath(shelter)
    let again = try #require(outcomeOnEveryPath(PetShelter.self, written).value)
    #expect(again == shelter)
    #expect(try textOnEveryPath(again) == written)
    // The cat's own `type` property reads the discriminator back.
    #expect((again.star as? PetCat)?.type == "cat")
    let circle = Circle2D()
    circle.shapeKind = "circle"  // what decoding reads back from the discriminator
    let shapes: [Shape2D] = [Shape2D(), circle]
    let shapeText = try textOnEveryPath(shapes)
    #expect(shapeText == #"[{"label":""},{"kind":"circle","label":"","radius":0.0}]"#)
    #expect(try [Shape2D](jsonString: shapeText) == shapes)
  }

  @Test func aClassTheTableDoesNotNameCannotBeEncoded() throws {
    let parrot: Pet = PetParrot()
    let expected = "PetParrot cannot be encoded: Pet.subclasses has no discriminator for it."
    for encode in [
      { try parrot.jsonString() }, { try parrot.json.jsonString() },
      { try [parrot].jsonString() }, { try PetShelter(pets: [parrot], byName: [:]).jsonString() },
      { try PetShelter(pets: [parrot], byName: [:]).json.jsonString() },
    ] {
      let error = #expect(throws: JSON.Error.self) { try encode() }
      #expect(error?.kind == .invalidModel)
      #expect(error?.message.hasPrefix(expected) == true, "\(String(describing: error))")
    }
    // The base with no default is not in its table either.
    #expect(throws: JSON.Error.self) { try Pet().jsonString() }
  }

  @Test func cyclesAreAnErrorWhenEncoding() {
    let dog = PetDog()
    dog.friend = dog
    for encode in [{ try dog.jsonString() }, { try dog.json.jsonString() }] {
      let error = #expect(throws: JSON.Error.self) { try encode() }
      #expect(error?.kind == .unencodable)
    }
    dog.friend = nil
  }

  @Test func aPropertyWrittenInsideTheDiscriminatorIsRefused() {
    let error = #expect(throws: JSON.Error.self) { try Clashing().jsonString() }
    #expect(error?.kind == .invalidModel)
    #expect(
      error?.message.hasPrefix("Clashing.inner is written at") == true,
      "\(String(describing: error))")
  }
}
