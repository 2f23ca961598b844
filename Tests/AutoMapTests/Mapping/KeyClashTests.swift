import AutoMap
import Testing

// Two properties written at one place: encoding would keep one value and drop the other
// without a word. It is an error, on every output, when both are there; reading both from
// one key stays allowed.

struct ClashInner: JSONCodable, DefaultInitable { var id = 0 }

struct ClashFlattened: JSONCodable, DefaultInitable {
  var id = 1
  var inner = ClashInner()
  static func specificOptions() -> [String: SpecificOption] { ["inner": .index([])] }
}

struct ClashStyled: JSONCodable, DefaultInitable {
  static let keyStyle = JSON.KeyStyle.snakeCase
  var userID = 1
  var userId = 2
}

struct ClashIndexed: JSONCodable, DefaultInitable {
  var a = 1
  var b = 2
  static func specificOptions() -> [String: SpecificOption] { ["b": "a"] }
}

struct ClashPaths: JSONCodable, DefaultInitable {
  var p = 1
  var q = 2
  static func specificOptions() -> [String: SpecificOption] { ["q": .index(["p", "q"])] }
}

/// What the model does not map, kept: decoding fills it from the whole object.
struct ClashCatchAll: JSONCodable, DefaultInitable {
  var id = 0
  var extras: [String: JSON] = [:]
  static func specificOptions() -> [String: SpecificOption] { ["extras": .index([])] }
}

struct ClashMeta: JSONCodable, DefaultInitable { var id = 0 }

/// A path into a model declared after it: the two objects merge.
struct ClashMerged: JSONCodable, DefaultInitable {
  var extra = 2
  var meta = ClashMeta()
  static func specificOptions() -> [String: SpecificOption] {
    ["extra": .index(["meta", "extra"])]
  }
}

/// A path into an optional model: its `nil` (`null`) yields, in either order.
struct ClashIntoOptional: JSONCodable, DefaultInitable {
  var city = "Oslo"
  var address: ClashMeta?
  var zip = 1
  static func specificOptions() -> [String: SpecificOption] {
    ["city": .index(["address", "city"]), "zip": .index(["address", "zip"])]
  }
}

/// One of the two at a time: nothing is lost, so it is written.
struct ClashEither: JSONCodable, DefaultInitable {
  var name: String?
  var legacyName: String?
  static func specificOptions() -> [String: SpecificOption] {
    ["name": .ignoreIfNull, "legacyName": [.index("name"), .ignoreIfNull]]
  }
}

struct FlattenedOptional: JSONCodable, DefaultInitable {
  var x = 0
  var inner: ClashInner?
  static func specificOptions() -> [String: SpecificOption] { ["inner": .index([])] }
}

@Suite("Two properties written at one place")
struct KeyClashTests {
  func refused<T: JSONCodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) {
    for (entry, encode) in [
      ("json", { _ = try value.json }), ("jsonData", { _ = try value.jsonData() }),
      ("sorted", { _ = try value.jsonString(options: [.sortedKeys]) }),
    ] {
      let error = #expect(throws: JSON.Error.self, "\(entry)", sourceLocation: sourceLocation) {
        try encode()
      }
      #expect(error?.kind == .unencodable, "\(entry)", sourceLocation: sourceLocation)
      #expect(
        error?.message.contains("would be lost") == true, "\(entry): \(String(describing: error))",
        sourceLocation: sourceLocation)
    }
  }

  @Test("a flattened member's key, a key style, an explicit key, a path through a value")
  func clashes() throws {
    refused(ClashFlattened())
    refused(ClashStyled())
    refused(ClashIndexed())
    refused(ClashPaths())
    // Reading both from one key is not a clash.
    let read = try ClashIndexed(jsonString: #"{"a":5}"#)
    #expect(read.a == 5 && read.b == 5)
  }

  @Test("a flattened optional's nil writes no members, on every output")
  func flattenedNil() throws {
    var value = FlattenedOptional()
    #expect(try value.jsonString() == #"{"x":0}"#)
    #expect(try value.json == ["x": 0])
    value.inner = ClashInner(id: 3)
    #expect(try value.jsonString() == #"{"x":0,"id":3}"#)
  }

  @Test("a flattened dictionary yields to the model's own properties")
  func catchAll() throws {
    var value = try ClashCatchAll(jsonString: #"{"id":1,"z":2}"#)
    #expect(value.extras == ["id": 1, "z": 2])
    value.id = 3
    #expect(try value.jsonString() == #"{"id":3,"z":2}"#)
    #expect(try value.json == ["id": 3, "z": 2])
  }

  @Test("a path into another property's object merges into it, in either order")
  func merged() throws {
    #expect(try ClashMerged().jsonString(options: [.sortedKeys]) == #"{"meta":{"extra":2,"id":0}}"#)
    #expect(try ClashMerged().json == ["meta": ["extra": 2, "id": 0]])
  }

  @Test("a null yields to a path through its place, and to a value there")
  func nullYields() throws {
    var value = ClashIntoOptional()
    #expect(try value.jsonString() == #"{"address":{"city":"Oslo","zip":1}}"#)
    #expect(try value.json == ["address": ["city": "Oslo", "zip": 1]])
    value.address = ClashMeta(id: 4)
    #expect(try value.jsonString() == #"{"address":{"city":"Oslo","id":4,"zip":1}}"#)
  }

  @Test("one property at a time at a shared key is written")
  func either() throws {
    var value = ClashEither()
    value.legacyName = "old"
    #expect(try value.jsonString() == #"{"name":"old"}"#)
    value.name = "new"
    refused(value)
  }
}
