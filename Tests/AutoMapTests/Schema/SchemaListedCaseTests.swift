import AutoMap
import Foundation
import Testing

/// Tagged enums that list their cases (`schemaCases`): one branch per case in the schema.
@Suite("JSON Schema of tagged enums that list their cases")
struct SchemaListedCaseTests {
  enum External: JSONCodable, Codable, Equatable {
    case circle(radius: Double)
    case point(Double, Double)
    case note(text: String?)
    case none
    static let schemaCases = ["circle", "point", "note", "none"]
  }

  enum Internal: JSONCodable, Codable, Equatable {
    case bigCircle(outerRadius: Double)
    case point(Double, Double)
    case note(text: String?)
    case none
    static let caseLayout = JSON.CaseLayout.internalTag("type")
    static let keyStyle = JSON.KeyStyle.snakeCase
    static let schemaCases = ["bigCircle", "point", "note", "none"]
  }

  enum Adjacent: JSONCodable, Codable, Equatable {
    case circle(radius: Double)
    case point(Double, Double)
    case note(text: String?)
    case none
    static let caseLayout = JSON.CaseLayout.adjacentTag("type", content: "value")
    static let schemaCases = ["circle", "point", "note", "none"]
  }

  struct Drawing: JSONCodable {
    var external: External
    var `internal`: Internal
    var adjacent: Adjacent
    var layers: [Internal]
  }

  /// Lists a name that is not one of its cases.
  enum Misspelled: JSONCodable, Codable {
    case circle(radius: Double)
    static let caseLayout = JSON.CaseLayout.internalTag("type")
    static let schemaCases = ["cirle"]
  }

  @Test("generated documents: the schema and the mapping agree both ways", arguments: 0..<8)
  func generated(seed: Int) throws {
    let counts = try SchemaDocumentTests.check(Drawing.self, seed: seed)
    #expect(counts.decoded > 5 && counts.rejected > 5, "\(counts)")
  }

  @Test("internal tag: the tag's const beside the payload's fields, keys in the enum's style")
  func internalBranches() throws {
    let schema = try JSON.schema(for: Internal.self)
    let number: JSON = ["type": "number"]
    #expect(
      schema["oneOf"]
        == [
          [
            "type": "object", "required": ["type", "outer_radius"],
            "properties": ["type": ["const": "big_circle"], "outer_radius": number],
          ],
          [
            "type": "object", "required": ["type", "_0", "_1"],
            "properties": ["type": ["const": "point"], "_0": number, "_1": number],
          ],
          [
            "type": "object", "required": ["type"],
            "properties": [
              "type": ["const": "note"], "text": ["anyOf": [["type": "string"], ["type": "null"]]],
            ],
          ],
          ["type": "object", "required": ["type"], "properties": ["type": ["const": "none"]]],
        ], "\(schema)")
  }

  @Test("every layout: an unknown case or a missing payload field is refused by both")
  func refusals() throws {
    let refused: [(any JSONCodable.Type, JSON)] = [
      (External.self, ["square": ["side": 1]]),
      (External.self, "circle"),  // a case with a required field is not its name alone
      (External.self, ["circle": [:]]),
      (External.self, "square"),
      (Internal.self, ["type": "square"]),
      (Internal.self, ["type": "big_circle"]),
      (Internal.self, ["type": "point", "_0": 1]),
      (Adjacent.self, ["type": "square", "value": [:]]),
      (Adjacent.self, ["type": "circle"]),
      (Adjacent.self, ["type": "circle", "value": ["radius": "1"]]),
    ]
    for (type, document) in refused {
      let validator = SchemaValidator(root: try JSON.schema(for: type))
      #expect(!validator.isValid(document), "\(type): \(document)")
      #expect(throws: (any Error).self, "\(type): \(document)") { try type.init(decode: document) }
    }
    let accepted: [(any JSONCodable.Type, JSON)] = [
      (External.self, "none"), (External.self, "note"), (External.self, ["note": [:]]),
      (Internal.self, ["type": "note"]), (Adjacent.self, ["type": "none"]),
      (Adjacent.self, ["type": "note"]),
      (Adjacent.self, ["type": "point", "value": ["_0": 1, "_1": 2]]),
    ]
    for (type, document) in accepted {
      let validator = SchemaValidator(root: try JSON.schema(for: type))
      #expect(validator.isValid(document), "\(type): \(document)")
      #expect(throws: Never.self, "\(type): \(document)") { try type.init(decode: document) }
    }
  }

  /// Lists a case twice.
  enum Twice: JSONCodable, Codable {
    case circle(radius: Double)
    case none
    static let caseLayout = JSON.CaseLayout.adjacentTag("type", content: "value")
    static let schemaCases = ["circle", "none", "circle"]
  }

  @Test("a listed name that is not a case, or a case listed twice: invalidModel")
  func misspelled() {
    let twice = #expect(throws: JSON.Error.self) { try JSON.schema(for: Twice.self) }
    #expect(twice?.kind == .invalidModel)
    #expect(twice?.message.contains("twice") == true, "\(String(describing: twice))")
    let error = #expect(throws: JSON.Error.self) { try JSON.schema(for: Misspelled.self) }
    #expect(error?.kind == .invalidModel)
    #expect(error?.message.contains("\"cirle\"") == true, "\(String(describing: error))")
    #expect(throws: Never.self) { try Misspelled(jsonString: #"{"type": "circle", "radius": 1}"#) }
  }
}
