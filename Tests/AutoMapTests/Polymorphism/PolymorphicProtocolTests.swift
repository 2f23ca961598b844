import AutoMap
import Foundation
import Testing

protocol Figure2: JSONCodable {
  var area: Double { get }
}

struct Disc: Figure2, Equatable {
  var radius = 0.0
  var area: Double { 3 * radius * radius }
}

struct Tile: Figure2, Equatable {
  static let keyStyle = JSON.KeyStyle.snakeCase
  var sideLength = 0.0
  var area: Double { sideLength * sideLength }
}

/// A class in the table.
final class Outline: Figure2, DefaultInitable {
  var points: [Double] = []
  var area: Double { 0 }
  required init() {}
}

/// Conforms, but is not registered.
struct Blob: Figure2 {
  var area: Double { 1 }
}

/// Registered under `any Marker` with a default for unknown and missing discriminators.
protocol Marker: JSONCodable {}
struct Pin: Marker, Equatable { var label = "" }
struct UnknownMarker: Marker, Equatable {}

/// Never registered.
protocol Unregistered: JSONCodable {}

/// Listed for `any Token`, which it does not conform to.
protocol Token: JSONCodable {}
struct NotAToken: JSONCodable {}

struct FigureCanvas: JSONCodable, Equatable {
  var main: any Figure2
  var shapes: [any Figure2]
  var focus: (any Figure2)?
  var byName: [String: any Figure2]
  var layers: [[any Figure2]]?

  /// Equal when they encode the same; never when either cannot be encoded.
  static func == (lhs: FigureCanvas, rhs: FigureCanvas) -> Bool {
    guard let left = try? lhs.json, let right = try? rhs.json else { return false }
    return left == right
  }
}

struct MarkerMap: JSONCodable { var markers: [any Marker] }
struct TokenWallet: JSONCodable { var token: any Token }
struct Unmapped: JSONCodable { var thing: any Unregistered }

func registerFigures() throws {
  try JSON.registerPolymorphic(
    (any Figure2).self, discriminator: "kind",
    types: ["disc": Disc.self, "tile": Tile.self, "outline": Outline.self])
  try JSON.registerPolymorphic(
    (any Marker).self, types: ["pin": Pin.self], defaultType: UnknownMarker.self)
  try JSON.registerPolymorphic((any Token).self, types: ["token": NotAToken.self])
}

@Suite("Protocol types chosen by a discriminator")
struct PolymorphicProtocolTests {
  init() throws { try registerFigures() }

  let text = #"""
    {"main": {"kind": "disc", "radius": 2},
     "shapes": [{"kind": "tile", "side_length": 3}, {"kind": "outline", "points": [1, 2]}],
     "focus": null,
     "byName": {"a": {"radius": 1, "kind": "disc"}},
     "layers": [[{"kind": "disc", "radius": 0.5}], []]}
    """#

  @Test("each object is decoded as the type its discriminator names, in every container")
  func decoding() throws {
    let canvas = try #require(outcomeOnEveryPath(FigureCanvas.self, text).value)
    #expect(canvas.main as? Disc == Disc(radius: 2))
    #expect(canvas.shapes[0] as? Tile == Tile(sideLength: 3))
    #expect((canvas.shapes[1] as? Outline)?.points == [1, 2])
    #expect(canvas.focus == nil)
    #expect(canvas.byName["a"] as? Disc == Disc(radius: 1))
    #expect(canvas.layers?[0][0] as? Disc == Disc(radius: 0.5))
    #expect(canvas.shapes.map(\.area) == [9, 0])
  }

  @Test("encoding writes the discriminator first and the instance's own fields; round trips")
  func encoding() throws {
    let canvas = try FigureCanvas(jsonString: text)
    let written = try canvas.jsonString()
    #expect(
      written
        == #"{"main":{"kind":"disc","radius":2.0},"shapes":[{"kind":"tile","side_length":3.0},{"kind":"outline","points":[1.0,2.0]}],"focus":null,"byName":{"a":{"kind":"disc","radius":1.0}},"layers":[[{"kind":"disc","radius":0.5}],[]]}"#
    )
    #expect(try JSON(jsonString: written) == canvas.json)
    let again = try FigureCanvas(jsonString: written)
    #expect(again == canvas)
    #expect(try again.jsonString() == written)
    #expect(try canvas.jsonString(options: [.omitNulls]).contains("focus") == false)
  }

  @Test("unknown, missing and non-string discriminators are errors naming the path")
  func errors() throws {
    let cases: [(String, String, String)] = [
      (
        #"{"main": {"kind": "hexagon"}, "shapes": [], "byName": {}}"#, "main.kind",
        #"unknown any Figure2 discriminator string "hexagon": expected one of "disc", "outline", "tile""#
      ),
      (
        #"{"main": {"kind": "disc", "radius": 1}, "shapes": [{"radius": 1}], "byName": {}}"#,
        "shapes[0].kind",
        #"missing the discriminator that chooses the any Figure2 type: one of "disc", "outline", "tile""#
      ),
      (
        #"{"main": {"kind": 1}, "shapes": [], "byName": {}}"#, "main.kind",
        #"expected a string naming the any Figure2 type (one of "disc", "outline", "tile"), found number 1"#
      ),
      (
        #"{"main": {"kind": "disc", "radius": "x"}, "shapes": [], "byName": {}}"#, "main.radius",
        #"expected Double, found string "x""#
      ),
      (
        #"{"main": [], "shapes": [], "byName": {}}"#, "main",
        #"expected any Figure2 (an object with its "kind"), found array of 0"#
      ),
      (
        #"{"main": {"kind": "disc", "radius": 1}, "shapes": [], "byName": {"z": 1}}"#, "byName.z",
        #"expected any Figure2 (an object with its "kind"), found number 1"#
      ),
    ]
    for (text, path, message) in cases {
      let outcome = outcomeOnEveryPath(FigureCanvas.self, text)
      guard case .failure(_, let description) = outcome else {
        Issue.record("decoded \(text)")
        continue
      }
      #expect(description == "at \(path): \(message)")
    }
  }

  @Test("a default type covers unknown and missing discriminators, and writes none")
  func defaultType() throws {
    let map = try MarkerMap(
      jsonString: #"{"markers": [{"type": "pin", "label": "a"}, {"type": "?"}, {}]}"#)
    #expect(map.markers[0] as? Pin == Pin(label: "a"))
    #expect(map.markers[1] is UnknownMarker)
    #expect(map.markers[2] is UnknownMarker)
    #expect(try map.jsonString() == #"{"markers":[{"type":"pin","label":"a"},{},{}]}"#)
  }

  @Test("what cannot map is an error, never a crash")
  func refusals() throws {
    // A type the table does not name.
    let canvas = FigureCanvas(main: Blob(), shapes: [], focus: nil, byName: [:], layers: nil)
    let unnamed = #expect(throws: JSON.Error.self) { try canvas.jsonData() }
    #expect(unnamed?.kind == .invalidModel)
    #expect(unnamed?.path == "main")
    #expect(unnamed?.message.contains("Blob cannot be encoded as any Figure2") == true)
    // A listed type that does not conform.
    let token = #expect(throws: JSON.Error.self) {
      try TokenWallet(jsonString: #"{"token": {"type": "token"}}"#)
    }
    #expect(token?.kind == .invalidModel)
    #expect(token?.message == "NotAToken is registered for any Token but does not conform to it")
    // A protocol type never registered: refused at first use, naming the property.
    let unmapped = #expect(throws: JSON.Error.self) { try Unmapped(jsonString: "{}") }
    #expect(unmapped?.kind == .invalidModel)
    #expect(unmapped?.message.contains("Unmapped.thing") == true)
    #expect(unmapped?.message.contains("registerPolymorphic") == true)
  }

  @Test("registration: once, before use, of a protocol type")
  func registration() throws {
    try registerFigures()  // the same tables again: nothing happens
    let other = #expect(throws: JSON.Error.self) {
      try JSON.registerPolymorphic((any Figure2).self, types: ["disc": Disc.self])
    }
    #expect(other?.message.contains("already registered with another table") == true)
    let notProtocol = #expect(throws: JSON.Error.self) {
      try JSON.registerPolymorphic(Disc.self, types: ["disc": Disc.self])
    }
    #expect(notProtocol?.message.contains("takes a protocol type") == true)
    _ = try? Unmapped(jsonString: "{}")
    let late = #expect(throws: JSON.Error.self) {
      try JSON.registerPolymorphic((any Unregistered).self, types: [:], defaultType: Pin.self)
    }
    #expect(late?.message.contains("was used before it was registered") == true)
  }
}

/// A protocol with a primary associated type: `any Storage<Int>` is a constrained existential.
protocol Storage<Item>: JSONCodable { associatedtype Item }
struct IntStorage: Storage, Equatable {
  typealias Item = Int
  var count = 0
}
struct StorageShelf: JSONCodable { var main: any Storage<Int>; var more: [any Storage<Int>] }

@Suite("Protocol types with primary associated types")
struct ConstrainedProtocolTests {
  @Test("a constrained existential registers and maps like any other protocol type")
  func constrained() throws {
    try JSON.registerPolymorphic((any Storage<Int>).self, types: ["int": IntStorage.self])
    let text = #"{"main":{"type":"int","count":2},"more":[{"type":"int","count":3}]}"#
    let shelf = try StorageShelf(jsonString: text)
    #expect(shelf.main as? IntStorage == IntStorage(count: 2))
    #expect(shelf.more.first as? IntStorage == IntStorage(count: 3))
    #expect(try shelf.jsonString() == text)
  }
}

/// One protocol type per `X`: `any Racing<X>` for ever new `X`s gives each round of the race
/// below a type never registered nor used.
protocol Racing<X>: JSONCodable { associatedtype X }
struct RacingImpl<X>: Racing { var x = 0 }
struct RacingHolder<X>: JSONCodable { var racer: any Racing<X> }
struct RacingRound<X> {}
final class RacingStart: Sendable { let ready = Shared(0) }

/// Runs `bodies` at the same time, each on a thread of its own, and returns their results in
/// order. A body that spins holds only its own thread, which the system preempts: tasks on the
/// cooperative pool (a thread per core) can wait for one another forever.
func onThreads<T: Sendable>(_ bodies: [@Sendable () -> T]) async -> [T] {
  await withCheckedContinuation { continuation in
    let results = LockedList<(Int, T)>()
    let group = DispatchGroup()
    for (index, body) in bodies.enumerated() {
      group.enter()
      Thread {
        results.append((index, body()))
        group.leave()
      }.start()
    }
    group.notify(queue: .global()) {
      continuation.resume(returning: results.elements.sorted { $0.0 < $1.0 }.map(\.1))
    }
  }
}

extension ConstrainedProtocolTests {
  /// Registers `any Racing<X>` while another thread uses it for the first time: either the
  /// registration is refused (the use came first) or the type maps from then on. Returns the
  /// rounds where neither held.
  static func race<X>(_: X.Type, rounds: Int, _ random: inout DiffRandom) async -> [Int] {
    let start = RacingStart()
    let pause = random.below(3_000_000)
    let outcomes = await onThreads([
      { @Sendable () -> Bool in
        start.ready.withLock { $0 += 1 }
        while start.ready.current < 2 {}
        return
          (try? JSON.registerPolymorphic(
            (any Racing<X>).self, types: ["r": RacingImpl<X>.self])) != nil
      },
      { @Sendable () -> Bool in
        start.ready.withLock { $0 += 1 }
        while start.ready.current < 2 {}
        var spin = 0
        for turn in 0..<pause { spin &+= turn }
        _ = try? RacingHolder<X>(jsonString: #"{"racer": {"type": "r"}}"#)
        return spin == -1
      },
    ])
    var incoherent: [Int] = []
    if outcomes[0], (try? RacingHolder<X>(jsonString: #"{"racer": {"type": "r", "x": 1}}"#)) == nil
    {
      incoherent.append(rounds)
    }
    if rounds > 1 { incoherent += await race(RacingRound<X>.self, rounds: rounds - 1, &random) }
    return incoherent
  }

  @Test("registering while a model holding the type is first used: refused, or it maps")
  func registrationRacingFirstUse() async throws {
    let seed: UInt64 = 0x7ACE
    var random = DiffRandom(seed: seed)
    let incoherent = await Self.race(Int.self, rounds: 200, &random)
    #expect(
      incoherent.isEmpty,
      "seed \(seed): rounds (counted down) where registering succeeded but left the type unmappable: \(incoherent)"
    )
  }
}
