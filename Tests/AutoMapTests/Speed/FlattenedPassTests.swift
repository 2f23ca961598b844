import AutoMap
import Foundation
import Testing

// Issue 19: a flattened model (`.index([])`) whose own keys are distinct is read from the
// members the enclosing object's one pass noted, instead of reading the object again. The
// `JSON` path, which hands the whole object to the flattened model, is the reference: every
// document must give the same value or the same error on both.

private struct FlatPoint: JSONCodable, DefaultInitable, Equatable {
  var lat = 0.0
  var lng = 0.0
}

private struct FlatPointMemberwise: JSONCodable, Equatable {
  let lat: Double
  let lng: Double?
}

private final class FlatBox: JSONCodable, DefaultInitable, Equatable {
  var lat = 0.0
  var label = "none"
  required init() {}
  static func == (a: FlatBox, b: FlatBox) -> Bool { a.lat == b.lat && a.label == b.label }
}

/// Refuses a latitude out of range, after decoding.
private struct FlatChecked: JSONCodable, DefaultInitable, Equatable {
  var lat = 0.0
  func didDecode() throws {
    guard abs(lat) <= 90 else { throw JSON.Error.custom("latitude \(lat) out of range") }
  }
}

/// Its own options: a default, a lossy list, another key.
private struct FlatOptions: JSONCodable, DefaultInitable, Equatable {
  var lat = 0.0
  var tags: [Int] = []
  var name = ""
  static func specificOptions() -> [String: SpecificOption] {
    ["tags": .lossy, "name": [.decodeIndex("title"), .defaultValue("untitled")]]
  }
}

/// Its own key style.
private struct FlatSnake: JSONCodable, DefaultInitable, Equatable {
  var latDegrees = 0.0
  static var keyStyle: JSON.KeyStyle { .snakeCase }
}

/// A hand-written `init(decode:)`: always given the whole object.
private struct FlatHandWritten: JSONCodable, DefaultInitable, Equatable {
  var sum = 0.0
  init() {}
  init(decode json: JSON) throws {
    sum = try Double(decode: json["lat"]) + Double(decode: json["lng"] ?? 0)
  }
}

private struct FlatHolder: JSONCodable, DefaultInitable, Equatable {
  var lat = 0.0  // shares its key with the flattened models
  var id = 0
  var point = FlatPoint()
  var strict = FlatPointMemberwise(lat: 0, lng: nil)
  var box = FlatBox()
  var checked = FlatChecked()
  var options = FlatOptions()
  var snake = FlatSnake()
  var hand = FlatHandWritten()
  var nested: [String: Int]? = nil
  static func specificOptions() -> [String: SpecificOption] {
    [
      "point": .index([]), "strict": .index([]), "box": .index([]), "checked": .index([]),
      "options": .index([]), "snake": .index([]), "hand": .index([]), "nested": "n.inner",
    ]
  }
}

/// Only a flattened model with a key style of its own: the enclosing plan for `.exact` serves
/// calls with no style (the flattened model then reads snake case) and calls with `.exact`.
private struct FlatStyled: JSONCodable, DefaultInitable, Equatable {
  var snake = FlatSnake()
  var id = 0
  static func specificOptions() -> [String: SpecificOption] { ["snake": .index([])] }
}

@Suite("Flattened models read from the enclosing object's one pass")
struct FlattenedPassTests {
  static let documents = [
    #"{"lat": 1.5, "lng": 2.5, "id": 1, "label": "x", "tags": [1, 2], "lat_degrees": 3}"#,
    #"{"id": 1, "lat": 1.5}"#,
    #"{"lng": 2, "lat": 1, "lat": 4, "title": "t"}"#,
    #"{"lat": 1, "lng": null, "label": null}"#,
    #"{"lat": "north", "lng": 2}"#,
    #"{"lat": 1, "lng": "east"}"#,
    #"{"lat": 95, "lng": 2}"#,
    #"{"lat": 1, "tags": [1, "two", 3], "title": null}"#,
    #"{"lat": 1, "tags": {}, "n": {"inner": {"a": 1}}, "lat_degrees": "x"}"#,
    #"{"lat": 1, "\u006cng": 7, "label": "\u00e9"}"#,
    #"{"lat": 1, "n": {"inner": {"a": 1}, "inner": null}}"#,
    #"{"id": 2}"#,
    #"{}"#,
    #"{"lat": 1, "lng": 2, "box": {"lat": 9}}"#,
    #"[]"#,
  ]

  @Test("bytes and JSON values give one value or one error, on the first use and later")
  func oneSemantics() throws {
    var outcomes: Set<String> = []
    for round in 0..<2 {
      for text in Self.documents {
        let bytes = Result { try FlatHolder(jsonString: text) }
        let tree = Result { try FlatHolder(decode: JSON(jsonString: text)) }
        switch (bytes, tree) {
        case (.success(let a), .success(let b)):
          #expect(a == b, "\(text), round \(round)")
          outcomes.insert("ok")
        case (.failure(let a as JSON.Error), .failure(let b as JSON.Error)):
          #expect(a.kind == b.kind && a.path == b.path, "\(text): \(a) / \(b)")
          #expect(a.message == b.message, "\(text)")
          outcomes.insert(a.path.isEmpty ? "root" : a.path)
        default:
          Issue.record("\(text), round \(round): bytes \(bytes), JSON values \(tree)")
        }
      }
    }
    // The documents do reach values, and errors inside the flattened models.
    #expect(outcomes.isSuperset(of: ["ok", "lat", "lng"]), "\(outcomes)")
  }

  @Test("the call's key style, then none, then its own: each read with the keys of its style")
  func styleChanges() throws {
    let text = #"{"lat_degrees": 1, "latDegrees": 2, "id": 3}"#
    for _ in 0..<2 {
      // One enclosing plan serves no style and `.exact`; its pass is laid out at its first
      // byte read (the first use goes through `JSON`: here, the `.exact` call), for the style
      // of that read. Without one the flattened model reads snake case, its own style.
      #expect(try FlatStyled(jsonString: text).snake.latDegrees == 1)
      #expect(try FlatStyled(jsonString: text, keyStyle: .exact).snake.latDegrees == 2)
      #expect(try FlatStyled(jsonData: Data(text.utf8), keyStyle: .exact).snake.latDegrees == 2)
      #expect(try FlatStyled(jsonString: text, keyStyle: .snakeCase).snake.latDegrees == 1)
      for style in [JSON.KeyStyle.exact, .snakeCase] {
        let tree = try FlatStyled(decode: JSON(jsonString: text), keyStyle: style)
        #expect(try FlatStyled(jsonString: text, keyStyle: style) == tree)
      }
    }
  }

  @Test("the values read are the enclosing object's members")
  func values() throws {
    let holder = try FlatHolder(
      jsonString:
        #"{"lat": 45, "lng": 7, "id": 3, "label": "a", "tags": [1, "x"], "title": "t", "lat_degrees": 2}"#
    )
    #expect(holder.lat == 45 && holder.id == 3)
    #expect(holder.point == FlatPoint(lat: 45, lng: 7))
    #expect(holder.strict == FlatPointMemberwise(lat: 45, lng: 7))
    #expect(holder.box.lat == 45 && holder.box.label == "a")
    #expect(holder.checked.lat == 45)
    #expect(holder.options == FlatOptions(lat: 45, tags: [1], name: "t"))
    #expect(holder.snake.latDegrees == 2)
    #expect(holder.hand.sum == 52)
    // The last occurrence of a repeated key counts, for the flattened models too.
    let repeated = try FlatHolder(jsonString: #"{"lat": 1, "lng": 2, "lat": 3}"#)
    #expect(repeated.point == FlatPoint(lat: 3, lng: 2) && repeated.lat == 3)
  }

  @Test("an array of them: every element read alike")
  func elements() throws {
    let one = #"{"lat": 1, "lng": 2, "label": "p"}"#
    let many = "[" + Array(repeating: one, count: 50).joined(separator: ",") + "]"
    let values = try [FlatHolder](jsonString: many)
    #expect(values.count == 50)
    #expect(Set(values.map { $0.point.lng }) == [2])
    #expect(try [FlatHolder](decode: JSON(jsonString: many)) == values)
  }
}
