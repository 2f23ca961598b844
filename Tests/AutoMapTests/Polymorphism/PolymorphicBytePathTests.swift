import AutoMap
import Foundation
import Testing

/// A registered protocol whose types hold a member under the discriminator key, in every
/// position a writer may put it.
protocol Badge: JSONCodable {}
struct StarBadge: Badge, Equatable {
  var kind = "stored"  // the discriminator's own key: decoded, replaced when written
  var points = 0
}
struct RingBadge: Badge, Equatable { var size = 0.0 }

struct BadgeCase: JSONCodable, Equatable {
  var badges: [any Badge]
  static func == (lhs: BadgeCase, rhs: BadgeCase) -> Bool {
    guard let left = try? lhs.json, let right = try? rhs.json else { return false }
    return left == right
  }
}

/// A registered protocol whose registered class has subclasses, one registered and one not:
/// the byte path chooses a writer by the instance's exact type.
protocol Sketchable: JSONCodable {}
class Sketch: Sketchable, DefaultInitable {
  var strokes = 1
  required init() {}
}
final class Scribble: Sketch { var ink = "blue" }
/// Not registered: not a `Sketch` when written, though it is one.
final class Doodle: Sketch { var color = "red" }
struct SketchBook: JSONCodable { var items: [any Sketchable] }

/// The byte path finds a polymorphic object's discriminator in its bytes and reads the object
/// in place (issue 19). What it cannot decide exactly (a repeated discriminator, a value
/// naming nothing, a hand-written `subclass(for:)`) must come out as the `JSON` path decides.
@Suite("Polymorphism on the byte path: the discriminator found in place")
struct PolymorphicBytePathTests {
  init() throws {
    try registerFigures()
    try JSON.registerPolymorphic(
      (any Badge).self, discriminator: "kind",
      types: ["star": StarBadge.self, "ring": RingBadge.self])
    try JSON.registerPolymorphic(
      (any Sketchable).self, discriminator: "kind",
      types: ["sketch": Sketch.self, "scribble": Scribble.self])
  }

  @Test("a subclass writes its own discriminator, and an unregistered one writes as JSON does")
  func subclassesWritten() throws {
    func written(_ items: [any Sketchable]) -> [String] {
      let book = SketchBook(items: items)
      let outcomes: [Result<String, any Error>] = [
        Result { try book.json.jsonString() }, Result { try book.jsonString() },
        Result { String(decoding: try book.jsonData(), as: UTF8.self) },
        Result { try JSON.encode(items, as: [any Sketchable].self).jsonString() },
        Result {
          String(decoding: try JSON.jsonData(items, as: [any Sketchable].self), as: UTF8.self)
        },
      ]
      return outcomes.map { outcome in
        switch outcome {
        case .success(let text): text
        case .failure(let error): "error: \(error)"
        }
      }
    }
    // Through a model (three entry points), and as a value of the array type (two).
    func agree(_ outcomes: [String]) {
      #expect(Set(outcomes[0..<3]).count == 1, "\(outcomes)")
      #expect(outcomes[3] == outcomes[4], "\(outcomes)")
    }
    let registered = written([Sketch(), Scribble(), Sketch()])
    agree(registered)
    #expect(
      registered[0].contains(
        #"{"items":[{"kind":"sketch","strokes":1},{"kind":"scribble","strokes":1,"ink":"blue"}"#),
      "\(registered[0])")
    // The unregistered subclass: whatever the reference writes (or refuses), every path does.
    let unregistered = written([Scribble(), Doodle()])
    agree(unregistered)
    #expect(unregistered[0].contains("Doodle cannot be encoded as any Sketchable"))
  }

  @Test(
    "class hierarchies: the discriminator anywhere, repeated, escaped, null or of another kind",
    arguments: [
      #"{"pets": [{"name": "a", "type": "dog", "barks": false}]}"#,
      #"{"pets": [{"type": "cat", "name": "b", "type": "dog"}]}"#,  // the last one counts
      #"{"pets": [{"type": "dog", "name": "b", "type": "cat", "lives": 3}]}"#,
      #"{"pets": [{"ty\u0070e": "dog", "barks": false}]}"#,
      #"{"pets": [{"type": "\u0064og", "barks": false}]}"#,
      #"{"pets": [{"type": "puppy", "age": 2, "friend": {"type": "cat"}}]}"#,
      #"{"pets": [{"type": null}]}"#,
      #"{"pets": [{"type": 7}]}"#,
      #"{"pets": [{"type": "parrot"}]}"#,
      #"{"pets": [{"name": "no type"}]}"#,
      #"{"pets": [{"type": "cat", "lives": "many"}]}"#,
      #"{"pets": [ { "type" : "cat" , "type" : "cat" } ]}"#,
      #"{"pets": [{"type": "cat", "type": "dog", "barks": 1}]}"#,
      #"{"pets": [{"type": "dog"}], "star": {"type": "hound", "barks": false}}"#,
    ])
  func classes(document: String) {
    let full = document.replacingOccurrences(of: "{\"pets\"", with: "{\"byName\": {}, \"pets\"")
    outcomeOnEveryPath(PetShelter.self, full)
  }

  @Test("a hand-written subclass(for:) still sees every object, as JSON")
  func handWrittenChoice() throws {
    let events = try [Event](jsonString: #"[{"id": 1, "x": 3}, {"id": 2, "code": "k"}]"#)
    #expect(events.map { String(describing: type(of: $0)) } == ["ClickEvent", "KeyEvent"])
    outcomeOnEveryPath([Event].self, #"[{"id": 1, "x": 3}, {"boom": true}]"#)
  }

  @Test(
    "protocol types: the discriminator anywhere, repeated, escaped, unknown or missing",
    arguments: [
      #"[{"radius": 2, "kind": "disc"}]"#,
      #"[{"kind": "tile", "side_length": 1, "kind": "disc", "radius": 3}]"#,
      #"[{"k\u0069nd": "disc", "radius": 1}, {"kind": "di\u0073c"}]"#,
      #"[{"kind": "hexagon"}]"#,
      #"[{"radius": 1}]"#,
      #"[{"kind": ["disc"]}]"#,
      #"[{"kind": "outline", "points": [1, "two"]}]"#,
      #"[{"kind": "disc", "radius": 1, "radius": 2}]"#,
    ])
  func protocols(document: String) {
    let canvas =
      #"{"main": {"kind": "disc"}, "byName": {"x": \#(document.dropFirst().dropLast())}, "shapes": \#(document)}"#
    outcomeOnEveryPath(FigureCanvas.self, canvas)
  }

  @Test("unknown and missing discriminators build the default type on every path")
  func defaults() throws {
    let map = try MarkerMap(
      jsonString: #"{"markers": [{"type": "pin", "label": "a"}, {"type": "x"}, {}]}"#)
    #expect(map.markers[0] as? Pin == Pin(label: "a"))
    #expect(map.markers[1] is UnknownMarker)
    #expect(map.markers[2] is UnknownMarker)
  }

  @Test("a member under the discriminator key is read, and written over by the discriminator")
  func memberUnderTheKey() throws {
    let value = try #require(
      outcomeOnEveryPath(
        BadgeCase.self, #"{"badges": [{"points": 3, "kind": "star"}, {"kind": "ring", "size": 1}]}"#
      ).value)
    #expect((value.badges[0] as? StarBadge)?.kind == "star")
    let written = BadgeCase(badges: [StarBadge(kind: "stored", points: 2), RingBadge(size: 2)])
    #expect(
      try textOnEveryPath(written)
        == #"{"badges":[{"kind":"star","points":2},{"kind":"ring","size":2.0}]}"#)
    #expect(
      try written.jsonString()
        == #"{"badges":[{"kind":"star","points":2},{"kind":"ring","size":2.0}]}"#)
  }

  @Test("protocol values encode alike on every path, key styles and sorted keys included")
  func encoding() throws {
    let canvas = try FigureCanvas(
      jsonString:
        #"{"main": {"kind": "tile", "side_length": 2}, "shapes": [{"kind": "outline", "points": [1]}, {"kind": "disc", "radius": 1}], "byName": {"b": {"kind": "disc", "radius": 2}}}"#
    )
    _ = try textOnEveryPath(canvas)
    #expect(try canvas.jsonString().hasPrefix(#"{"main":{"kind":"tile","side_length":2.0}"#))
    let shapes = canvas.shapes
    let data = try JSON.jsonData(shapes, as: [any Figure2].self)
    #expect(try JSON(jsonData: data) == JSON.encode(shapes, as: [any Figure2].self))
    let back = try JSON.decode([any Figure2].self, fromJSONData: data)
    #expect(
      try JSON.encode(back, as: [any Figure2].self) == JSON.encode(shapes, as: [any Figure2].self))
  }
}
