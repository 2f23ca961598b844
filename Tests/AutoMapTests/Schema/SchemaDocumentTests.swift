import AutoMap
import Foundation
import Testing

/// The schema against the mapping, on generated documents: whatever `jsonData()` writes is
/// valid, and a document the schema accepts decodes (so one the decoder refuses, the schema
/// refuses too).
@Suite("JSON Schema against the decoder and encoder")
struct SchemaDocumentTests {
  struct Counts {
    var accepted = 0
    var rejected = 0
    var decoded = 0
  }

  /// Generates documents for `T`'s schema, valid and mutated, and checks both directions.
  static func check<T: JSONCodable>(_: T.Type, seed: Int, documents: Int = 60) throws -> Counts {
    let schema = try JSON.schema(for: T.self)
    let validator = SchemaValidator(root: schema)
    var generator = SchemaDocumentGenerator(root: schema, random: DiffRandom(seed: UInt64(seed)))
    var counts = Counts()
    for round in 0..<documents {
      var document = generator.document(schema)
      if round % 2 == 1 { document = generator.mutated(document) }
      let valid = validator.isValid(document)
      let decoded = Result { try T(decode: document) }
      if valid { counts.accepted += 1 } else { counts.rejected += 1 }
      switch decoded {
      case .success(let value):
        counts.decoded += 1
        let written = try JSON(jsonData: try value.jsonData())
        let problems = validator.problems(written)
        #expect(problems.isEmpty, "\(T.self) wrote \(written), invalid: \(problems)")
      case .failure(let error):
        #expect(!valid, "\(T.self): the schema accepts \(document), the decoder refuses: \(error)")
      }
    }
    return counts
  }

  @Test("SchemaOrder: every shape the schema describes", arguments: 0..<8)
  func order(seed: Int) throws {
    let counts = try Self.check(SchemaOrder.self, seed: seed)
    #expect(counts.decoded > 5 && counts.rejected > 5, "both kinds are met: \(counts)")
  }

  @Test("polymorphic classes in every container", arguments: 0..<8)
  func shelter(seed: Int) throws {
    let counts = try Self.check(PetShelter.self, seed: seed)
    #expect(counts.decoded > 5 && counts.rejected > 5, "both kinds are met: \(counts)")
  }

  @Test("generic recursive models and DefaultInitable models", arguments: 0..<4)
  func recursiveAndDefaults(seed: Int) throws {
    let trees = try Self.check([SchemaTree<Int8>].self, seed: seed)
    let settings = try Self.check(SchemaSettings.self, seed: seed)
    #expect(trees.decoded > 5 && trees.rejected > 5, "\(trees)")
    #expect(settings.decoded > 5, "\(settings)")
  }

  @Test("values written by hand validate, and documents refused for each rule are refused")
  func handWritten() throws {
    let schema = try JSON.schema(for: SchemaOrder.self)
    let validator = SchemaValidator(root: schema)
    let order = try SchemaOrder(
      jsonString: #"""
        {"order_id": 4000000000, "small": -128, "total": 12.50, "ratio": 0.5,
         "placed_at": "2024-05-01T12:30:00Z", "paid_at": 1714566600, "payload": "AAEC",
         "uuid": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "site": "https://example.org",
         "role": "admin", "level": 7, "color": "crimson", "tags": ["a", "b"],
         "counts": {"-3": 9}, "by_role": {"member": true}, "shipping": {"address": {"street": "Main"}},
         "version": 2, "inner": "{\"street\": \"Side\"}", "anything": [1, {"x": null}],
         "retries": null, "price": "12.30", "hex": "00ff", "grid": [null, 5]}
        """#)
    let written = try JSON(jsonData: order.jsonData())
    #expect(validator.problems(written).isEmpty, "\(validator.problems(written))")
    // Each change breaks one rule the decoder enforces; the schema says no as well.
    let breaks: [(JSON.Index, JSON)] = [
      (["order_id"], -1), (["small"], 128), (["placed_at"], "yesterday"), (["role"], "owner"),
      (["color"], "blue"), (["uuid"], "not-a-uuid"), (["counts"], ["x": 1]),
      (["by_role"], ["owner": true]), (["shipping", "address"], ["zip": "1"]), (["version"], 1.5),
      (["inner"], "{\"zip\": 3}"), (["price"], "12"), (["grid"], [nil]),
    ]
    for (index, value) in breaks {
      var broken = written
      broken[index] = value
      #expect(!validator.isValid(broken), "\(index) = \(value)")
      #expect(throws: (any Error).self, "\(index) = \(value)") { try SchemaOrder(decode: broken) }
    }
  }
}

extension SchemaDocumentTests {
  struct Payment: JSONCodable {
    let paid: Date?
    static func specificOptions() -> [String: SpecificOption] {
      ["paid": .transform(DateTransform.secondsSince1970)]
    }
  }

  @Test("an optional Date with a DateTransform: the schema allows the null that encoding writes")
  func optionalTransformedDate() throws {
    let schema = try JSON.schema(for: Payment.self)
    #expect(schema["properties", "paid"] == ["anyOf": [["type": "number"], ["type": "null"]]])
    let written = try JSON(jsonData: Payment(jsonString: "{}").jsonData())
    #expect(written == ["paid": nil])
    #expect(SchemaValidator(root: schema).isValid(written))
    #expect(try Payment(decode: written).paid == nil)
    #expect(try Payment(jsonData: Payment(paid: nil).jsonData()).paid == nil)
  }
}
