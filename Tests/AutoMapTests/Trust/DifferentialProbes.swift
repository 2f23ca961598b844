import AutoMap
import Foundation

// The valid document of each model the differential test mutates, and hand-built values for
// what decoding cannot produce (subclass instances in base-class arrays, non-finite numbers,
// values a transform or a hand-written `json` refuses to write).

// Computed rather than stored: `Doc` is an indirect enum, and a global holding one keeps its
// box behind a tagged pointer that LeakSanitizer cannot see, so it reports the box as leaked.
enum DiffProbes {
  static var part: Doc { ["code": 1, "label": "a"] }
  static var item: Doc {
    [
      "id": 1, "name": "one", "parts": [part, ["code": 2, "label": nil]], "tags": ["t", "u"],
    ]
  }
  static var item2: Doc { ["id": 2, "name": "caf\u{e9}", "parts": [], "tags": nil] }
  static var animal: Doc { ["name": "Tom", "leg_count": 4, "weight": .number("3.5")] }
  static var dog: Doc {
    [
      "name": "Rex", "leg_count": 3, "weight": nil, "breed": "lab", "good_boy": false,
      "toys": ["ball"],
    ]
  }
  static var counter: Doc { ["hits": 3, "label": "c"] }
  static var scalars: Doc {
    [
      "int": 1, "int8": -8, "int16": 300, "int32": 70000, "int64": 5_000_000_000, "uint": 7,
      "uint8": 200, "uint16": 60000, "uint32": 4_000_000_000,
      "uint64": .number("18000000000000000000"), "bool": true, "string": "caf\u{e9} \"q\"",
      "date": "2024-02-29T12:30:15.250Z", "url": "https://example.com/x",
      "uuid": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "data": "AQID", "maybe": 5, "maybeMaybe": 6,
    ]
  }
  static var floats: Doc {
    [
      "float": .number("1.5"), "double": .number("0.1"), "maybeDouble": .number("2.5e-3"),
      "floats": [.number("0.25"), 1, .number("3.4e38")],
    ]
  }
  static var collections: Doc {
    [
      "numbers": [1, 2, 3], "names": ["a", "b"], "byKey": ["x": item],
      "matrix": [[1, 2], [], [3]],
      "meta": ["any": [1, "two", nil], "deep": ["x": true]], "items": [item, item2],
      "counts": ["a": 1, "b": nil], "color": "green", "levels": [1, 3], "maybeLevel": 2,
    ]
  }
  static var defaults: Doc {
    [
      "name": "Ada", "count": 3, "ratio": .number("0.75"), "flags": [false, true], "note": nil,
      "level": 3, "summary": "s", "extras": [1], "cache": [9], "initials": "zz",
    ]
  }
  static var zoo: Doc {
    [
      "animals": [animal, ["name": "Kit"]], "star": dog, "keeper": counter,
      "visitors": ["items": [item], "next": 2, "total": 10],
    ]
  }
  static var options: Doc {
    [
      "user.id": 7, "address": ["city": "Paris", "zip": "75001"], "a": ["b": [5, 6]],
      "lat": .number("48.8"), "lng": .number("2.3"), "nickname": "p", "nick": "q",
      "color": "blue", "tags": ["x"], "cache": [1], "scores": [1, 2], "maybePart": part,
      "partsByName": ["p": part], "count": "42", "label": 12, "flag": "true",
      "ratios": ["1.5", 2], "subtitle": "", "note": "n", "version": "v3", "joined": 86400,
    ]
  }
  static var oneWay: Doc {
    [
      "user_name": "ada", "password": "pw", "server_id": 7, "secret": "s", "meta": ["level": 2],
    ]
  }
  static var snake: Doc {
    [
      "avatar_url": "https://example.com/a.png", "display_name": "Ada", "user_id": 1,
      "version2_name": "v2", "item": item,
    ]
  }
  static var snakeAsNamed: Doc {
    [
      "avatarURL": "https://example.com/a.png", "displayName": "Ada", "userID": 1,
      "version2Name": "v2", "item": item,
    ]
  }
  static var styled: Doc {
    [
      "firstName": "Ada", "age": 36, "größe": 170, "homeURL": "https://example.com", "part": part,
    ]
  }
  static var styledSnake: Doc {
    [
      "first_name": "Ada", "age": 36, "größe": 170, "home_url": "https://example.com", "part": part,
    ]
  }
  static var styledUpper: Doc {
    [
      "FirstName": "Ada", "Age": 36, "Größe": 170, "HomeURL": "https://example.com",
      "Part": ["Code": 1, "Label": "a"],
    ]
  }
  static var reading: Doc {
    [
      "temperature": ["c": 20, "unit": "C"], "history": [["c": -5], ["c": .number("12.5")]],
      "peak": ["c": 30], "station": "Oslo",
    ]
  }
  static var folded: Doc { ["name": "a", "Name": "b", "count": 1] }

  static var all: [DiffProbe] {
    [
      .of(DiffScalars.self, scalars), .of(DiffFloats.self, floats), decimals(roundTrips: false),
      .of(DiffCollections.self, collections), .of(DiffDefaults.self, defaults),
      .of(DiffDefaults.self, defaults, style: .caseInsensitive), .of(DiffAnimal.self, animal),
      .of(DiffDog.self, dog), .of(DiffDog.self, dog, style: .caseInsensitive),
      .of(DiffCounter.self, counter), .of(DiffZoo.self, zoo),
      .of(DiffPage<DiffItem>.self, ["items": [item, item2], "next": nil, "total": 2]),
      .of(DiffPage<DiffDog>.self, ["items": [dog], "next": 3, "total": 1]),
      .of(DiffOptions.self, options), .of(DiffOptions.self, options, style: .caseInsensitive),
      .of(DiffOneWay.self, oneWay, roundTrips: false),
      .of(DiffOneWay.self, oneWay, style: .snakeCase, roundTrips: false),
      .of(DiffSnake.self, snake), .of(DiffSnake.self, snakeAsNamed, style: .caseInsensitive),
      .of(DiffStyled.self, styled), .of(DiffStyled.self, styled, style: .caseInsensitive),
      .of(DiffStyled.self, styledSnake, style: .snakeCase),
      .of(DiffStyled.self, styledUpper, style: .upperCamelCase),
      .of(DiffFolded.self, folded), .of(DiffFolded.self, folded, style: .caseInsensitive),
      .of(DiffReading.self, reading), .of([DiffItem].self, [item, item2]),
      .of([String: DiffPart].self, ["a": part, "b": ["code": 2]]), .of(DiffItem?.self, item),
      .of(Set<DiffPart>.self, [part, ["code": 9]]),
      // Issues 10 and 11: the Codable bridge, payload enums, polymorphic protocol types.
      .of(DiffBridged.self, bridged), .of(DiffBridged.self, bridged, style: .caseInsensitive),
      .of(DiffEnums.self, enums), .of(DiffShapes.self, shapes),
    ]
  }

  static var bridged: Doc {
    [
      "id": 1, "part": ["code": 2, "label": "a", "weights": [1, .number("2.5")]],
      "parts": [["code": 3], ["code": 4, "label": nil]], "byName": ["x": ["code": 5]],
    ]
  }
  static var enums: Doc {
    [
      "payload": ["point": ["x": 1, "y": 2]], "loose": [3, "w", [4, 5]],
      "maybe": ["label": ["_0": "l"]],
    ]
  }
  static var shapes: Doc {
    precondition(DiffShapes.registered)
    return [
      "shapes": [["type": "square", "side": 2], ["type": "round", "radius": 1, "label": "r"]],
      "main": ["type": "round", "radius": .number("0.5")],
    ]
  }

  static func decimals(roundTrips: Bool) -> DiffProbe {
    .of(
      DiffDecimal.self,
      [
        "decimal": .number("12.345"), "maybe": .number("-0.5"),
        "decimals": [1, .number("0.1"), .number("123456789.987654321")],
      ], roundTrips: roundTrips)
  }

  typealias Encode = (String, inout DiffLedger) -> Void

  static func encode<T: JSONEncodable>(_ value: T, style: JSON.KeyStyle? = nil) -> Encode {
    { name, ledger in
      ledger.context = name
      DiffProbe.encodeAllWays(value, style: style, name, &ledger)
    }
  }

  static func item(_ id: Int, _ name: String) -> DiffItem {
    DiffItem(id: id, name: name, parts: [DiffPart(code: 1, label: nil)], tags: nil)
  }

  static func floats(_ double: Double, _ float: Float = 1) -> DiffFloats {
    DiffFloats(float: float, double: double, maybeDouble: nil, floats: [float])
  }

  static var handBuilt: [(String, Encode)] {
    let dog = DiffDog()
    dog.name = "Rex"
    dog.toys = ["a", "b"]
    let cat = DiffAnimal()
    cat.name = "Tom"
    let zoo = DiffZoo(
      animals: [cat, dog], star: dog, keeper: nil,
      visitors: DiffPage(items: [item(1, "a")], next: nil, total: 1))
    let scalars = DiffScalars(
      int: -1, int8: .min, int16: .max, int32: .min, int64: .max, uint: .max, uint8: .max,
      uint16: .max, uint32: .max, uint64: .max, bool: false,
      string: "\u{0}\u{1F}\u{7F}\u{2028} \"\\/ \u{1F600} é",
      date: Date(timeIntervalSince1970: -1.5),
      url: URL(string: "https://example.com/a%20b?x=1&y=\u{e9}") ?? URL(fileURLWithPath: "/"),
      uuid: UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)),
      data: Data([0, 255, 1]), maybe: nil, maybeMaybe: .some(nil))
    var options = DiffOptions(
      id: 1, city: "c", first: 2, location: DiffLocation(lat: 1, lng: -2), nickname: "n",
      color: .red, tags: [], cache: [1], scores: [], maybePart: nil, partsByName: [:], count: 3,
      label: "", flag: false, ratios: [0.5], subtitle: nil, note: nil, version: 4,
      joined: Date(timeIntervalSince1970: 0.25))
    var negative = options
    negative.version = -3
    options.note = "kept"
    let collections = DiffCollections(
      numbers: [], names: ["b", "a", "é", "Z"], byKey: ["é": item(1, "x"), "e": item(2, "y")],
      matrix: [[], [1]], meta: ["z": nil, "a": [nil, ["y": nil, "b": 1]], "é": "x"], items: [],
      counts: ["n": nil, "o": 1, "A": nil], color: .blue, levels: [], maybeLevel: nil)
    let reading = DiffReading(
      temperature: DiffCelsius(degrees: 20), history: [DiffCelsius(degrees: 2000)], peak: nil,
      station: "s")
    let styled = DiffStyled(
      firstName: "a", age: 1, größe: nil, homeURL: nil, part: DiffPart(code: 1, label: nil))
    var defaults = DiffDefaults()
    defaults.note = nil
    return [
      ("subclass instances in base-class properties", encode(zoo)),
      ("integer limits, control characters, Int?? holding nil", encode(scalars)),
      ("options, a transform that writes", encode(options)),
      ("a transform that refuses to write", encode(negative)),
      ("nulls and non-ASCII keys to sort", encode(collections)),
      ("a hand-written json that throws inside an array", encode(reading)),
      ("ignoreIfEmpty and a nil optional", encode(defaults)),
      ("NaN", encode(floats(.nan))), ("infinity", encode(floats(-.infinity))),
      ("Float infinity", encode(floats(1, .infinity))),
      ("-0", encode(floats(-0.0, -0.0))),
      ("extreme doubles", encode(floats(.leastNonzeroMagnitude, .greatestFiniteMagnitude))),
      (
        "Decimal",
        encode(
          DiffDecimal(
            decimal: Decimal(string: "-123456789.0123456789") ?? 0, maybe: nil, decimals: [0, 1]))
      ),
      ("call-site snake_case", encode(styled, style: .snakeCase)),
      ("call-site UpperCamelCase with nested models", encode(zoo, style: .upperCamelCase)),
    ]
  }
}
