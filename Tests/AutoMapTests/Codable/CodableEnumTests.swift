@_spi(Testing) import AutoMap
import Foundation
import Testing

/// The default layout: external tag, as synthesized Codable writes it.
enum Figure: JSONCodable, Codable, Equatable {
  case circle(radius: Double)
  case rect(width: Double, height: Double)
  case point(Double, Double)
  case none
}

enum TaggedFigure: JSONCodable, Codable, Equatable {
  case circle(radius: Double)
  case point(Double, Double)
  case none
  static let caseLayout = JSON.CaseLayout.internalTag("type")
}

enum AdjacentFigure: JSONCodable, Codable, Equatable {
  case circle(radius: Double)
  case none
  static let caseLayout = JSON.CaseLayout.adjacentTag("type", content: "value")
}

/// Recursive and generic.
indirect enum Expression<Value: Codable & Equatable>: JSONCodable, Codable, Equatable {
  case constant(Value)
  case sum(Expression, Expression)
  case list([Expression])
}

/// An internal tag that a payload field also uses: refused when encoding.
enum Clash: JSONCodable, Codable {
  case item(type: String)
  static let caseLayout = JSON.CaseLayout.internalTag("type")
}

/// Codable through AutoMap, which has no way to build its cases.
enum Bridged: CodableByMapping {
  case a(Int)
}

struct Drawing: JSONCodable, Equatable {
  var shapes: [Figure]
  var focus: Figure?
}

@Suite("Enums with payloads, through synthesized Codable", .serialized)
struct CodableEnumTests {
  @Test(
    "external tag: each case round-trips, and reads as synthesized Codable writes it",
    arguments: [
      Figure.circle(radius: 1.5), .rect(width: 2, height: 3), .point(-1, 1e300), .none,
    ])
  func externalTag(shape: Figure) throws {
    let text = try shape.jsonString()
    let foundation = try JSON(jsonData: JSONEncoder().encode(shape))
    #expect(try JSON(jsonString: text) == foundation)
    #expect(agreedDecoding(Figure.self, text) == .success(shape))
    #expect(try JSONDecoder().decode(Figure.self, from: Data(text.utf8)) == shape)
  }

  @Test("the layouts write what the table in the docs says")
  func layouts() throws {
    #expect(try Figure.circle(radius: 1).jsonString() == #"{"circle":{"radius":1.0}}"#)
    #expect(try Figure.point(1, 2).jsonString() == #"{"point":{"_0":1.0,"_1":2.0}}"#)
    #expect(try Figure.none.jsonString() == #"{"none":{}}"#)
    #expect(try TaggedFigure.circle(radius: 1).jsonString() == #"{"type":"circle","radius":1.0}"#)
    #expect(try TaggedFigure.point(1, 2).jsonString() == #"{"type":"point","_0":1.0,"_1":2.0}"#)
    #expect(try TaggedFigure.none.jsonString() == #"{"type":"none"}"#)
    #expect(
      try AdjacentFigure.circle(radius: 1).jsonString()
        == #"{"type":"circle","value":{"radius":1.0}}"#)
    #expect(try AdjacentFigure.none.jsonString() == #"{"type":"none"}"#)
    for shape in [TaggedFigure.circle(radius: 1), .point(1, 2), .none] {
      #expect(agreedDecoding(TaggedFigure.self, try shape.jsonString()) == .success(shape))
    }
    for shape in [AdjacentFigure.circle(radius: 1), .none] {
      #expect(agreedDecoding(AdjacentFigure.self, try shape.jsonString()) == .success(shape))
    }
    // Leniencies: a payload-free case as a string, an adjacent tag without its content.
    #expect(agreedDecoding(Figure.self, #""none""#) == .success(Figure.none))
    #expect(agreedDecoding(AdjacentFigure.self, #"{"type": "none"}"#) == .success(.none))
    #expect(
      agreedDecoding(AdjacentFigure.self, #"{"value": {}, "type": "none"}"#) == .success(.none))
  }

  @Test("errors name the case and the payload field, at the document's path")
  func errors() throws {
    let cases: [(text: String, path: String, message: String)] = [
      (
        #"{"shapes": [{"circle": {"radius": "x"}}]}"#, "shapes[0].circle.radius",
        #"expected Double, found string "x" (in Figure.circle)"#
      ),
      (
        #"{"shapes": [{"rect": {"width": 1}}]}"#, "shapes[0].rect.height",
        #"missing key "height" (in Figure.rect)"#
      ),
      (
        #"{"shapes": [{"point": {"_0": 1}}]}"#, "shapes[0].point._1",
        #"missing key "_1" (in Figure.point)"#
      ),
      (#"{"shapes": [{"square": {}}]}"#, "shapes[0]", #""square" is not a case of Figure"#),
      (
        #"{"shapes": [{"circle": {"radius": 1}, "none": {}}]}"#, "shapes[0]",
        "2 keys name no single case of Figure"
      ),
      (#"{"shapes": [{}]}"#, "shapes[0]", "0 keys name no single case of Figure"),
      (
        #"{"shapes": [[]]}"#, "shapes[0]",
        "expected Figure (an object naming its case), found array of 0"
      ),
      (
        #"{"shapes": [], "focus": "circle"}"#, "focus.circle.radius",
        #"missing key "radius" (in Figure.circle)"#
      ),
      (
        #"{"shapes": [null]}"#, "shapes[0]",
        "expected Figure (an object naming its case), found null"
      ),
    ]
    expectDecodingErrors(Drawing.self, cases)
    struct Tagged: JSONCodable, Equatable { var shape: TaggedFigure }
    let tagged: [(text: String, path: String, message: String)] = [
      (
        #"{"shape": {"type": "circle", "radius": "x"}}"#, "shape.radius",
        #"expected Double, found string "x" (in TaggedFigure.circle)"#
      ),
      (
        #"{"shape": {"radius": 1}}"#, "shape.type",
        #"missing key "type" naming the case of TaggedFigure"#
      ),
      (
        #"{"shape": {"type": 1}}"#, "shape.type",
        "expected a case name of TaggedFigure, found number 1"
      ),
      (#"{"shape": {"type": "square"}}"#, "shape", #""square" is not a case of TaggedFigure"#),
    ]
    expectDecodingErrors(Tagged.self, tagged)
    struct Adjacent: JSONCodable, Equatable { var shape: AdjacentFigure }
    let adjacent = agreedDecoding(
      Adjacent.self, #"{"shape": {"type": "circle", "value": {"radius": []}}}"#)
    guard case .failure(let error) = adjacent else {
      Issue.record("decoded")
      return
    }
    #expect(error.path == "shape.value.radius")
  }

  @Test("recursive and generic enums; deep nesting is an error, not a crash")
  func recursiveAndGeneric() throws {
    let expression = Expression<Int>.sum(
      .constant(1), .list([.constant(2), .sum(.constant(3), .constant(4))]))
    let text = try expression.jsonString()
    #expect(
      text
        == #"{"sum":{"_0":{"constant":{"_0":1}},"_1":{"list":{"_0":[{"constant":{"_0":2}},{"sum":{"_0":{"constant":{"_0":3}},"_1":{"constant":{"_0":4}}}}]}}}}"#
    )
    #expect(agreedDecoding(Expression<Int>.self, text) == .success(expression))
    #expect(try Expression<String>(jsonString: #"{"constant": {"_0": "x"}}"#) == .constant("x"))
    var deep: JSON = ["constant": ["_0": 1]]
    for _ in 0..<400 { deep = ["list": ["_0": [deep]]] }
    let error = #expect(throws: JSON.Error.self) { try Expression<Int>(decode: deep) }
    #expect(error?.kind == .tooDeep(limit: JSON.maximumDepth))
  }

  @Test("key styles apply to case names and payload labels, as JSONEncoder's strategies do")
  func keyStyles() throws {
    enum Event: JSONCodable, Codable, Equatable {
      case userSignedUp(userID: Int, displayName: String)
    }
    let event = Event.userSignedUp(userID: 1, displayName: "Ada")
    let json = try event.json(keyStyle: .snakeCase)
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    #expect(try json == JSON(jsonData: encoder.encode(event)))
    #expect(json == ["user_signed_up": ["user_id": 1, "display_name": "Ada"]])
  }

  @Test("a tag clash, update(from:) and CodableByMapping enums are refused with errors")
  func refusals() throws {
    let error = #expect(throws: JSON.Error.self) { try Clash.item(type: "x").jsonData() }
    #expect(error?.message.contains("tag") == true)
    // Wherever the value sits: the byte encoder gives the tag's key to the object's keys, so
    // the payload's field of the same name fails its session, and the reference refuses.
    struct Holder: JSONCodable { var clash = Clash.item(type: "x") }
    for write in [
      { try [Clash.item(type: "x")].jsonData() }, { try Holder().jsonData() },
      { try [Clash.item(type: "x")].jsonData(options: .omitNulls) },
    ] {
      let nested = #expect(throws: JSON.Error.self) { try write() }
      #expect(nested?.message.contains("tag") == true)
    }
    // A CodableByMapping enum's init(from:) calls back into AutoMap: refused, never a loop.
    let bridged = #expect(throws: JSON.Error.self) { try Bridged(jsonString: #"{"a": {"_0": 1}}"#) }
    #expect(bridged?.kind == .invalidModel)
    // Through JSONDecoder: the same refusal, as the underlying error of a DecodingError.
    let foreign = #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(Bridged.self, from: Data("{}".utf8))
    }
    guard case .dataCorrupted(let context)? = foreign else {
      Issue.record("expected dataCorrupted, got \(String(describing: foreign))")
      return
    }
    let underlying = context.underlyingError as? JSON.Error
    #expect(underlying?.kind == .invalidModel)
    #expect(underlying?.message == bridged?.message)
    #expect(context.debugDescription == bridged?.description)
    var shape = Figure.none
    #expect(throws: JSON.Error.self) { try shape.update(from: ["circle": ["radius": 1]]) }
    #expect(shape == .none)
  }
}

/// An internal tag spelled with a combining accent, and a hand-written `init(from:)` that lists
/// the payload's keys: the tag is left out of them by its bytes, as the reference removes it,
/// so a key `==` takes for the tag (the accent precomposed) is still listed.
private enum AccentTagged: JSONCodable, Codable, Equatable {
  case item(keys: [String])
  static let caseLayout = JSON.CaseLayout.internalTag("e\u{301}")

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: AnyKey.self)
    guard let key = container.allKeys.first else {
      throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no case"))
    }
    let payload = try container.nestedContainer(keyedBy: AnyKey.self, forKey: key)
    self = .item(keys: payload.allKeys.map(\.stringValue))
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: AnyKey.self)
    guard case .item(let keys) = self else { return }
    var payload = container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("item"))
    for key in keys { try payload.encode(1, forKey: AnyKey(key)) }
  }
}

extension CodableEnumTests {
  @Test("an internal tag is left out of the payload by its bytes, on every path")
  func tagBytes() throws {
    let text = "{\"e\u{301}\": \"item\", \"\u{E9}\": 1, \"x\": 2}"
    let decoded = try #require(try agreedDecoding(AccentTagged.self, text)?.get())
    guard case .item(let keys) = decoded else { return }
    #expect(keys.map { Array($0.utf8) } == [Array("\u{E9}".utf8), Array("x".utf8)])
  }
}
