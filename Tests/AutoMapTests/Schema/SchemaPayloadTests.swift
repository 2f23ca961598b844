import AutoMap
import Foundation
import Testing

/// Schemas of enums with payloads (each case layout) and of registered protocol types,
/// against the decoder and encoder.
@Suite("JSON Schema of enums with payloads and protocol types")
struct SchemaPayloadTests {
  enum Setting: JSONCodable, Codable, Equatable {
    case flag(Bool)
    case number(Int)
    case range(Int, Int)
    case named(name: String, value: Int?)
    case off
    static let caseLayout = JSON.CaseLayout.untagged(["flag", "number", "range", "named", "off"])
  }

  struct Panel: JSONCodable, Equatable {
    var settings: [Setting]
    var main: Setting
    var extra: Setting?
  }

  enum External: JSONCodable, Codable, Equatable {
    case circle(radius: Double)
    case point(Double, Double)
    case none
  }

  enum Internal: JSONCodable, Codable, Equatable {
    case circle(radius: Double)
    case point(Double, Double)
    case none
    static let caseLayout = JSON.CaseLayout.internalTag("type")
  }

  enum Adjacent: JSONCodable, Codable, Equatable {
    case circle(radius: Double)
    case point(Double, Double)
    case none
    static let caseLayout = JSON.CaseLayout.adjacentTag("type", content: "value")
  }

  struct Tagged: JSONCodable {
    var external: External
    var `internal`: Internal
    var adjacent: Adjacent
  }

  @Test("untagged: one branch per listed case, both ways on generated documents", arguments: 0..<8)
  func untagged(seed: Int) throws {
    let counts = try SchemaDocumentTests.check(Panel.self, seed: seed)
    #expect(counts.decoded > 5 && counts.rejected > 5, "\(counts)")
  }

  @Test("untagged: each case's branch is the shape of its payload")
  func untaggedBranches() throws {
    let schema = try JSON.schema(for: Setting.self)
    #expect(
      schema["anyOf"]
        == [
          ["type": "boolean"],
          ["type": "integer", "minimum": JSON(Int.min), "maximum": JSON(Int.max)],
          [
            "type": "array", "minItems": 2, "maxItems": 2,
            "prefixItems": [
              ["type": "integer", "minimum": JSON(Int.min), "maximum": JSON(Int.max)],
              ["type": "integer", "minimum": JSON(Int.min), "maximum": JSON(Int.max)],
            ],
          ],
          [
            "type": "object", "required": ["name"],
            "properties": [
              "name": ["type": "string"],
              "value": [
                "anyOf": [
                  ["type": "integer", "minimum": JSON(Int.min), "maximum": JSON(Int.max)],
                  ["type": "null"],
                ]
              ],
            ],
          ],
          ["const": "off"],
        ], "\(schema)")
    let validator = SchemaValidator(root: schema)
    for refused: JSON in ["on", [1], [1, 2, 3], ["value": 1], 1.5, nil] {
      #expect(!validator.isValid(refused), "\(refused)")
      #expect(throws: (any Error).self, "\(refused)") { try Setting(decode: refused) }
    }
  }

  /// Random values of the tagged enums.
  static func tagged(_ random: inout DiffRandom) -> Tagged {
    let radius = Double(random.below(100)) / 4
    let (x, y) = (Double(random.below(10)), Double(random.below(10)) / 2)
    switch random.below(3) {
    case 0:
      return Tagged(external: .circle(radius: radius), internal: .point(x, y), adjacent: .none)
    case 1:
      return Tagged(external: .point(x, y), internal: .none, adjacent: .circle(radius: radius))
    default:
      return Tagged(external: .none, internal: .circle(radius: radius), adjacent: .point(x, y))
    }
  }

  @Test("tagged layouts: what encoding writes validates; broken tags are refused by both")
  func taggedLayouts() throws {
    let schema = try JSON.schema(for: Tagged.self)
    let validator = SchemaValidator(root: schema)
    var random = DiffRandom(seed: 9)
    for _ in 0..<40 {
      let written = try JSON(jsonData: Self.tagged(&random).jsonData())
      #expect(validator.problems(written).isEmpty, "\(written): \(validator.problems(written))")
    }
    let good = try JSON(jsonData: Self.tagged(&random).jsonData())
    let broken: [(JSON.Index, JSON)] = [
      (["external"], ["circle": ["radius": 1], "none": [:]]),  // two cases at once
      (["external"], ["circle": 1]),  // a payload that is not an object
      (["external"], 5),
      (["internal"], ["radius": 1]),  // no tag
      (["internal"], ["type": 3]),
      (["internal"], "circle"),
      (["adjacent"], ["value": ["radius": 1]]),  // no tag
      (["adjacent"], ["type": "circle", "value": 2]),
      (["adjacent"], ["type": true]),
    ]
    for (index, value) in broken {
      var document = good
      document[index] = value
      #expect(!validator.isValid(document), "\(index) = \(value)")
      #expect(throws: (any Error).self, "\(index) = \(value)") { try Tagged(decode: document) }
    }
  }
}

protocol SchemaFigure: JSONCodable {}
struct SchemaCircle: SchemaFigure, Equatable { var radius: Double }
struct SchemaSquare: SchemaFigure, Equatable {
  var side: Int
  var label: String?
}
protocol SchemaBadge: JSONCodable {}
struct SchemaStar: SchemaBadge { var points: UInt8 }
struct SchemaPlain: SchemaBadge { var text: String }

struct SchemaCanvas: JSONCodable {
  var figures: [any SchemaFigure]
  var main: any SchemaFigure
  var badges: [String: any SchemaBadge]

  static let registered: Bool = {
    do {
      try JSON.registerPolymorphic(
        (any SchemaFigure).self, discriminator: "kind",
        types: ["circle": SchemaCircle.self, "square": SchemaSquare.self, "box": SchemaSquare.self])
      try JSON.registerPolymorphic(
        (any SchemaBadge).self, types: ["star": SchemaStar.self], defaultType: SchemaPlain.self)
      return true
    } catch {
      return false
    }
  }()
}

extension SchemaPayloadTests {
  @Test("registered protocol types: oneOf with the discriminator's const", arguments: 0..<8)
  func protocolTypes(seed: Int) throws {
    #expect(SchemaCanvas.registered)
    let counts = try SchemaDocumentTests.check(SchemaCanvas.self, seed: seed)
    #expect(counts.decoded > 5 && counts.rejected > 5, "\(counts)")
  }

  @Test("registered protocol types: values encoded validate, unknown or missing tags are refused")
  func protocolValues() throws {
    #expect(SchemaCanvas.registered)
    let schema = try JSON.schema(for: SchemaCanvas.self)
    let validator = SchemaValidator(root: schema)
    let canvas = SchemaCanvas(
      figures: [SchemaCircle(radius: 1), SchemaSquare(side: 2, label: nil)],
      main: SchemaSquare(side: 3, label: "x"),
      badges: ["a": SchemaStar(points: 5), "b": SchemaPlain(text: "hi")])
    let written = try JSON(jsonData: canvas.jsonData())
    #expect(validator.problems(written).isEmpty, "\(written): \(validator.problems(written))")
    let broken: [(JSON.Index, JSON)] = [
      (["main"], ["radius": 1]),  // no discriminator, no default type
      (["main"], ["kind": "triangle", "radius": 1]),
      (["main"], ["kind": 1, "radius": 1]),
      (["main"], ["kind": "square", "radius": 1]),  // the square's own fields are missing
      (["badges"], ["a": ["type": "star"]]),
      (["badges"], ["a": ["type": 2, "text": "x"]]),
    ]
    for (index, value) in broken {
      var document = written
      document[index] = value
      #expect(!validator.isValid(document), "\(index) = \(value)")
      #expect(throws: (any Error).self, "\(index) = \(value)") {
        try SchemaCanvas(decode: document)
      }
    }
    // The default type stands in for an absent or unknown discriminator: both accept it.
    for badge: JSON in [
      ["text": "x"], ["type": "ribbon", "text": "x"], ["type": nil, "text": "x"],
    ] {
      var document = written
      document["badges"] = ["c": badge]
      #expect(validator.isValid(document), "\(badge)")
      #expect(throws: Never.self) { try SchemaCanvas(decode: document) }
    }
  }
}
