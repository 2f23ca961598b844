import AutoMap

// The benchmark's enum in each case layout as users write one: not generic (as `Stroke` is
// for the external tag), and for Foundation a hand-written `Codable` with one keys enum.

enum InternalStroke: Codable, JSONCodable {
  case tap(x: Int, y: Int)
  case swipe(dx: Double, dy: Double, fingers: Int)
  case pinch(scale: Double)
  case press(seconds: Double, force: Double)
  static let caseLayout = JSON.CaseLayout.internalTag("type")
}

enum AdjacentStroke: Codable, JSONCodable {
  case tap(x: Int, y: Int)
  case swipe(dx: Double, dy: Double, fingers: Int)
  case pinch(scale: Double)
  case press(seconds: Double, force: Double)
  static let caseLayout = JSON.CaseLayout.adjacentTag("type", content: "value")
}

enum UntaggedStroke: Codable, JSONCodable {
  case tap(x: Int, y: Int)
  case swipe(dx: Double, dy: Double, fingers: Int)
  case pinch(scale: Double)
  case press(seconds: Double, force: Double)
  static let caseLayout = JSON.CaseLayout.untagged(["tap", "swipe", "pinch", "press"])
}

/// What a `Codable` user writes for the layouts synthesized `Codable` lacks: a wrapper per
/// layout with a hand-written `init(from:)` and `encode(to:)`, over one keys enum.
enum StrokeKey: String, CodingKey {
  case type, value, x, y, dx, dy, fingers, scale, seconds, force
}

struct InternalStrokeBox: Codable {
  let stroke: Stroke

  init(_ stroke: Stroke) { self.stroke = stroke }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: StrokeKey.self)
    stroke = try Stroke.payload(try container.decode(String.self, forKey: .type), container)
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: StrokeKey.self)
    try container.encode(stroke.name, forKey: .type)
    try stroke.encodePayload(&container)
  }
}

struct AdjacentStrokeBox: Codable {
  let stroke: Stroke

  init(_ stroke: Stroke) { self.stroke = stroke }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: StrokeKey.self)
    let name = try container.decode(String.self, forKey: .type)
    stroke = try Stroke.payload(
      name, try container.nestedContainer(keyedBy: StrokeKey.self, forKey: .value))
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: StrokeKey.self)
    try container.encode(stroke.name, forKey: .type)
    var content = container.nestedContainer(keyedBy: StrokeKey.self, forKey: .value)
    try stroke.encodePayload(&content)
  }
}

struct UntaggedStrokeBox: Codable {
  let stroke: Stroke

  init(_ stroke: Stroke) { self.stroke = stroke }

  /// The first case whose fields are all there.
  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: StrokeKey.self)
    for name in ["tap", "swipe", "pinch", "press"] {
      if let stroke = try? Stroke.payload(name, container) {
        self.stroke = stroke
        return
      }
    }
    throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no case fits"))
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: StrokeKey.self)
    try stroke.encodePayload(&container)
  }
}

extension Stroke {
  static func payload(_ name: String, _ c: KeyedDecodingContainer<StrokeKey>) throws -> Stroke {
    switch name {
    case "tap": .tap(x: try c.decode(Int.self, forKey: .x), y: try c.decode(Int.self, forKey: .y))
    case "swipe":
      .swipe(
        dx: try c.decode(Double.self, forKey: .dx), dy: try c.decode(Double.self, forKey: .dy),
        fingers: try c.decode(Int.self, forKey: .fingers))
    case "pinch": .pinch(scale: try c.decode(Double.self, forKey: .scale))
    case "press":
      .press(
        seconds: try c.decode(Double.self, forKey: .seconds),
        force: try c.decode(Double.self, forKey: .force))
    default:
      throw DecodingError.dataCorruptedError(
        forKey: .type, in: c, debugDescription: "unknown case \(name)")
    }
  }

  var name: String {
    switch self {
    case .tap: "tap"
    case .swipe: "swipe"
    case .pinch: "pinch"
    case .press: "press"
    }
  }

  func encodePayload(_ c: inout KeyedEncodingContainer<StrokeKey>) throws {
    switch self {
    case .tap(let x, let y):
      try c.encode(x, forKey: .x)
      try c.encode(y, forKey: .y)
    case .swipe(let dx, let dy, let fingers):
      try c.encode(dx, forKey: .dx)
      try c.encode(dy, forKey: .dy)
      try c.encode(fingers, forKey: .fingers)
    case .pinch(let scale): try c.encode(scale, forKey: .scale)
    case .press(let seconds, let force):
      try c.encode(seconds, forKey: .seconds)
      try c.encode(force, forKey: .force)
    }
  }
}
