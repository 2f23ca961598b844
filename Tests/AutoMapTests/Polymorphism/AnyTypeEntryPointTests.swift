import AutoMap
import Foundation
import Testing

@Suite("Top-level values of any mappable type")
struct AnyTypeEntryPointTests {
  init() throws { try registerFigures() }

  let shapes = #"[{"kind": "tile", "side_length": 3}, {"kind": "disc", "radius": 2}]"#

  @Test("an array of a protocol type decodes and encodes as a property of that type does")
  func protocolArrays() throws {
    let decoded = try JSON.decode([any Figure2].self, fromJSONData: Data(shapes.utf8))
    #expect(decoded[0] as? Tile == Tile(sideLength: 3))
    #expect(decoded[1] as? Disc == Disc(radius: 2))
    let viaJSON = try JSON.decode([any Figure2].self, from: JSON(jsonString: shapes))
    #expect(
      try JSON.encode(viaJSON, as: [any Figure2].self)
        == JSON.encode(decoded, as: [any Figure2].self))
    // The same values inside a model: the top level agrees with the property.
    let canvas = try FigureCanvas(
      jsonString: #"{"main": {"kind": "disc", "radius": 1}, "shapes": \#(shapes), "byName": {}}"#)
    #expect(try JSON.encode(decoded, as: [any Figure2].self) == canvas.json["shapes"])
    let written = try JSON.jsonData(decoded, as: [any Figure2].self)
    #expect(
      String(decoding: written, as: UTF8.self)
        == #"[{"kind":"tile","side_length":3.0},{"kind":"disc","radius":2.0}]"#)
    #expect(try JSON(jsonData: written) == JSON.encode(decoded, as: [any Figure2].self))
    let again = try JSON.decode([any Figure2].self, fromJSONData: written)
    #expect(try JSON.jsonData(again, as: [any Figure2].self) == written)
  }

  @Test("the other containers of a protocol type, and nil")
  func otherShapes() throws {
    let byName = try JSON.decode(
      [String: any Figure2].self, fromJSONData: Data(#"{"a": {"kind": "disc", "radius": 1}}"#.utf8))
    #expect(byName["a"] as? Disc == Disc(radius: 1))
    let none = try JSON.decode((any Figure2)?.self, fromJSONData: Data("null".utf8))
    #expect(none == nil)
    let one = try JSON.decode((any Figure2).self, from: ["kind": "disc", "radius": 4])
    #expect(one as? Disc == Disc(radius: 4))
    let written = try JSON.encode(one, as: (any Figure2).self)
    #expect(written == ["kind": "disc", "radius": 4.0], "\(written)")
    let nested = try JSON.decode(
      [[any Figure2]].self, from: [[], [["kind": "disc", "radius": 1]]])
    #expect(nested.map(\.count) == [0, 1])
    #expect(try JSON.jsonData(none, as: (any Figure2)?.self) == Data("null".utf8))
  }

  @Test("errors name the path inside the top-level value")
  func errors() throws {
    let unknown = #"[{"kind": "disc", "radius": 1}, {"kind": "hexagon"}]"#
    for decode in [
      { try JSON.decode([any Figure2].self, fromJSONData: Data(unknown.utf8)) },
      { try JSON.decode([any Figure2].self, from: JSON(jsonString: unknown)) },
    ] {
      let error = try #require(throws: JSON.Error.self) { _ = try decode() }
      #expect(error.path == "[1].kind")
    }
    let malformed = try #require(throws: JSON.Error.self) {
      _ = try JSON.decode([any Figure2].self, fromJSONData: Data("[{".utf8))
    }
    guard case .malformed = malformed.kind else {
      Issue.record("expected malformed, got \(malformed)")
      return
    }
    let unregistered = try #require(throws: JSON.Error.self) {
      _ = try JSON.decode([any Unregistered].self, from: [])
    }
    #expect(unregistered.kind == .invalidModel)
    let notMappable = try #require(throws: JSON.Error.self) {
      _ = try JSON.decode(NSObject.self, from: [:])
    }
    #expect(notMappable.kind == .invalidModel)
    // A value of an unregistered type in a registered table's protocol cannot be written.
    #expect(throws: JSON.Error.self) { _ = try JSON.jsonData([Blob()], as: [any Figure2].self) }
    #expect(throws: JSON.Error.self) { _ = try JSON.encode([Blob()], as: [any Figure2].self) }
  }

  @Test("types that map on their own agree with their own entry points")
  func ordinaryTypes() throws {
    let text = #"{"main": {"kind": "disc", "radius": 2}, "shapes": [], "byName": {}}"#
    let canvas = try JSON.decode(FigureCanvas.self, fromJSONData: Data(text.utf8))
    #expect(canvas == (try FigureCanvas(jsonString: text)))
    #expect(try JSON.encode(canvas, as: FigureCanvas.self) == canvas.json)
    #expect(try JSON.jsonData(canvas, as: FigureCanvas.self) == canvas.jsonData())
    #expect(try JSON.decode([Int].self, fromJSONData: Data("[1, 2]".utf8)) == [1, 2])
    #expect(try JSON.decode(Int?.self, from: nil) == nil)
    #expect(try JSON.jsonData([1.5, 2], as: [Double].self) == Data("[1.5,2.0]".utf8))
    #expect(throws: JSON.Error.self) { _ = try JSON.decode([Int].self, from: ["a"]) }
    // A class encodes as its `json` does.
    let outline = Outline()
    outline.points = [1]
    #expect(try JSON.encode(outline, as: Outline.self) == outline.json)
  }
}
