import AutoMap
import Foundation
import Testing

// Optional codecs store `nil` by copying the bytes of one `nil` made when the codec is built.
// These models put optionals of every layout side by side (a tag byte after the payload,
// spare bits of a pointer, a string, a nested optional, a class, a model, an enum with and
// without payloads), so a copy of the wrong size or of the wrong bytes shows up as a wrong
// neighbour or a crash (under AddressSanitizer in CI).

final class NilClassBox: JSONCodable, DefaultInitable, Equatable {
  var id = 0
  init() {}
  static func == (lhs: NilClassBox, rhs: NilClassBox) -> Bool { lhs.id == rhs.id }
}

struct NilInner: JSONCodable, Equatable {
  var name: String
  var flag: Bool?
}

enum NilColor: String, JSONCodable { case red, green }

struct EveryOptionalLayout: JSONCodable, Equatable {
  var small: Int8?
  var wide: Int64?
  var double: Double?
  var text: String?
  var twice: Int??
  var box: NilClassBox?
  var inner: NilInner?
  var color: NilColor?
  var list: [Int]?
  var models: [NilInner]?
  var map: [String: Int]?
  var date: Date?
  var uuid: UUID?
  var json: JSON?
  var last: UInt8?
}

@Suite("Optionals stored as nil keep every neighbour intact")
struct StoredNilTests {
  static let keys = [
    "small", "wide", "double", "text", "twice", "box", "inner", "color", "list", "models",
    "map", "date", "uuid", "json", "last",
  ]
  static let values = [
    "-7", "9007199254740993", "2.5", #""héllo, a string past the small size""#, "3",
    #"{"id": 4}"#, #"{"name": "n", "flag": true}"#, #""green""#, "[1, 2]",
    #"[{"name": "a"}, {"name": "b", "flag": null}]"#, #"{"k": 1}"#, #""2020-01-02T03:04:05Z""#,
    #""E621E1F8-C36C-495A-93FC-0C247A3E6E5F""#,
    #"[true, {"x": null}]"#, "255",
  ]

  @Test("absent, null and present optionals of every layout, in every mix, on every path")
  func everyMix() throws {
    var generator = DiffRandom(seed: 0x6E11)
    for _ in 0..<400 {
      var members: [String] = []
      var present: Set<String> = []
      for (key, value) in zip(Self.keys, Self.values) {
        switch generator.below(3) {
        case 0: continue
        case 1: members.append("\"\(key)\": null")
        default:
          members.append("\"\(key)\": \(value)")
          present.insert(key)
        }
      }
      let text = "{" + members.joined(separator: ", ") + "}"
      guard let model = outcomeOnEveryPath(EveryOptionalLayout.self, text).value else {
        Issue.record("no value for \(text)")
        continue
      }
      let full = try EveryOptionalLayout(
        jsonString: "{"
          + zip(Self.keys, Self.values).map { "\"\($0)\": \($1)" }.joined(separator: ", ") + "}")
      // Each property is nil exactly when absent or null, and otherwise the full value.
      let mirror = Mirror(reflecting: model)
      let fullMirror = Mirror(reflecting: full)
      for (child, fullChild) in zip(mirror.children, fullMirror.children) {
        guard let label = child.label else { continue }
        let isNil = "\(child.value)" == "nil"
        #expect(isNil == !present.contains(label), "\(label) in \(text)")
        if present.contains(label) {
          #expect("\(child.value)" == "\(fullChild.value)", "\(label) in \(text)")
        }
      }
    }
  }

  @Test("an array of models with optionals missing in turn decodes each element apart")
  func arrayOfMixes() throws {
    let elements = (0..<300).map { index in
      "{"
        + zip(Self.keys, Self.values).enumerated().filter { ($0.offset + index) % 3 != 0 }
        .map { "\"\($0.element.0)\": \($0.element.1)" }.joined(separator: ", ") + "}"
    }
    let text = "[" + elements.joined(separator: ",") + "]"
    let models = try #require(outcomeOnEveryPath([EveryOptionalLayout].self, text).value)
    #expect(models.count == 300)
    for (index, model) in models.enumerated() {
      #expect((model.small == nil) == (index % 3 == 0))
      #expect((model.last == nil) == ((14 + index) % 3 == 0))
      #expect((model.twice == nil) == ((4 + index) % 3 == 0))
    }
  }
}
