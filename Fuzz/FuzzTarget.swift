// libFuzzer entry points: compiled together with the library's sources by `Fuzz/run`, with
// `-sanitize=fuzzer,address`; never part of the package build. `AUTOMAP_FUZZ_TARGET` chooses
// the target (see `FuzzTarget`). Any disagreement or crash is a finding: libFuzzer stops and
// saves the input.

import Foundation

struct FuzzChild: JSONCodable, Equatable {
  var x: Int64?
  var flag: Bool?
  var values: [Double]?
}

struct FuzzModel: JSONCodable, Equatable {
  var id: Int
  var name: String?
  var tags: [String]?
  var score: Double?
  var small: Int8?
  var big: UInt64?
  var amount: Decimal?
  var child: FuzzChild?
  var children: [String: FuzzChild]?
  var meta: JSON?
}

/// The target `Fuzz/run` chose, from `AUTOMAP_FUZZ_TARGET`: one binary serves every target, so
/// CI builds the library under the sanitizers once.
enum FuzzTarget: String, CaseIterable {
  /// `JSON(jsonData:)` round trips, and a model on the byte and `JSON` paths.
  case model
  /// A JSON Lines stream and an array stream of a model, against `[T](jsonData:)`.
  case stream
  /// A model with a `Codable` property, through the Codable bridge.
  case codable
  /// A payload enum, an untagged one and an array of a polymorphic protocol type.
  case enums
  /// `JSON(jsonObject:)` over Foundation graphs that the input describes, cycles included.
  case graph

  static let chosen: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["AUTOMAP_FUZZ_TARGET"] ?? "model"
    guard let target = FuzzTarget(rawValue: name) else {
      fatalError("AUTOMAP_FUZZ_TARGET: \(name) is not one of \(allCases.map(\.rawValue))")
    }
    if target == .enums { registerShapes() }
    return target
  }()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func automapFuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeRawBufferPointer(start: data, count: size)
  switch FuzzTarget.chosen {
  case .model:
    checkJSONRoundTrip(bytes)
    checkModelAgreement(bytes)
  case .stream: checkStreams(bytes)
  case .codable: checkAgreement(FuzzCodableHolder.self, bytes)
  case .enums:
    checkAgreement(FuzzEnums.self, bytes)
    checkAgreement([FuzzUntagged].self, bytes)
  case .graph: checkGraph(bytes)
  }
  return 0
}

/// Parsing, writing and parsing again gives the same value.
private func checkJSONRoundTrip(_ bytes: UnsafeRawBufferPointer) {
  guard let json = try? JSON(jsonData: bytes) else { return }
  for options: JSON.WritingOptions in [[], [.prettyPrinted, .sortedKeys]] {
    guard let written = try? json.jsonData(options: options) else {
      fatalError("a parsed value could not be written: \(json)")
    }
    guard let again = try? JSON(jsonData: written), again == json else {
      fatalError("write then parse changed the value: \(json)")
    }
  }
}

/// The byte path and the `JSON` path agree on value or error; a decoded value survives
/// encoding and decoding again.
private func checkModelAgreement(_ bytes: UnsafeRawBufferPointer) {
  let viaBytes = Result { try FuzzModel(jsonData: bytes) }
  let viaJSON = Result { try FuzzModel(decode: JSON(mappingBytes: bytes)) }
  switch (viaBytes, viaJSON) {
  case (.success(let a), .success(let b)):
    guard a == b else { fatalError("bytes and JSON decoded differently: \(a) vs \(b)") }
    guard let text = try? a.jsonData(), let again = try? FuzzModel(jsonData: text), again == a
    else { fatalError("encode then decode changed the model: \(a)") }
  case (.failure(let a), .failure(let b)):
    guard "\(a)" == "\(b)" else { fatalError("bytes and JSON failed differently: \(a) vs \(b)") }
  default:
    fatalError("bytes and JSON disagree: \(viaBytes) vs \(viaJSON)")
  }
}

// MARK: Streams

/// A JSON Lines stream and an array stream of `FuzzModel`: every element a stream yields maps
/// to the same value when read alone, and an array that `[FuzzModel](jsonData:)` reads streams
/// as the same elements.
private func checkStreams(_ bytes: UnsafeRawBufferPointer) {
  let data = Data(bytes)
  for format in [JSON.StreamFormat.lines, .array] {
    var options = JSON.StreamOptions()
    options.chunkSize = 1 + Int(bytes.first ?? 0) % 64  // elements cut across chunks
    var iterator = SyncJSONStream(of: FuzzModel.self, data: data, format: format, options: options)
      .makeIterator()
    var streamed: [FuzzModel] = []
    var failure: JSON.Error?
    var steps = 0
    while true {
      steps += 1
      guard steps <= data.count + 2 else { fatalError("the stream yields more than it read") }
      let value: FuzzModel
      do {
        guard let next = try iterator.nextElement() else { break }
        value = next
      } catch {
        failure = error
        continue
      }
      guard let text = try? value.jsonData(), let again = try? FuzzModel(jsonData: text),
        again == value
      else { fatalError("a streamed element does not survive encoding: \(value)") }
      streamed.append(value)
    }
    guard format == .array, let whole = try? [FuzzModel](jsonData: data) else { continue }
    guard failure == nil, streamed == whole else {
      fatalError(
        "the array stream disagrees with [T](jsonData:): \(streamed) \(String(describing: failure)) vs \(whole)"
      )
    }
  }
}

// MARK: Codable bridge, enums, polymorphism

struct FuzzPayload: Codable, Equatable {
  var name: String?
  var values: [Int]?
  var nested: [String: FuzzPayload]?
  var flag: Bool?
  var when: Date?
}

struct FuzzCodableHolder: JSONCodable, Equatable {
  var id: Int?
  var payload: FuzzPayload?
  var payloads: [FuzzPayload]?
  var raw: JSON?
}

indirect enum FuzzExpression: JSONCodable, Codable, Equatable {
  case number(Double)
  case name(String)
  case pair(FuzzExpression, FuzzExpression)
  case call(function: String, arguments: [FuzzExpression])
  case empty
}

indirect enum FuzzUntagged: JSONCodable, Codable, Equatable {
  case flag(Bool)
  case count(Int)
  case text(String)
  case list([FuzzUntagged])
  case point(x: Int, y: Int)
  case none
  static var caseLayout: JSON.CaseLayout {
    .untagged(["flag", "count", "text", "list", "point", "none"])
  }
}

protocol FuzzShape {}

struct FuzzCircle: FuzzShape, JSONCodable, Equatable {
  var radius: Double
}

struct FuzzGroup: FuzzShape, JSONCodable {
  var name: String?
  var shapes: [any FuzzShape]
}

struct FuzzEnums: JSONCodable {
  var expression: FuzzExpression?
  var shapes: [any FuzzShape]?
}

private func registerShapes() {
  do {
    try JSON.registerPolymorphic(
      (any FuzzShape).self, types: ["circle": FuzzCircle.self, "group": FuzzGroup.self])
  } catch {
    fatalError("registering the fuzz shapes: \(error)")
  }
}

/// The byte path, the `String` path and the `JSON` path agree on value or error, and a
/// decoded value encodes to JSON that decodes to the same JSON again.
private func checkAgreement<T: JSONCodable>(_: T.Type, _ bytes: UnsafeRawBufferPointer) {
  let viaBytes = Result { try T(jsonData: bytes) }
  let viaJSON = Result { try T(decode: JSON(mappingBytes: bytes)) }
  switch (viaBytes, viaJSON) {
  case (.success(let a), .success(let b)):
    guard let jsonA = try? a.json, let jsonB = try? b.json, jsonA == jsonB else {
      fatalError("bytes and JSON decoded differently")
    }
    guard let text = try? a.jsonData(), let parsed = try? JSON(jsonData: text), parsed == jsonA
    else { fatalError("jsonData() and json disagree: \(jsonA)") }
    guard let again = try? T(jsonData: text), let json = try? again.json, json == jsonA else {
      fatalError("encode then decode changed the value: \(jsonA)")
    }
  case (.failure(let a), .failure(let b)):
    guard "\(a)" == "\(b)" else { fatalError("bytes and JSON failed differently: \(a) vs \(b)") }
  default:
    // The stack guard refuses what the thread's stack cannot hold: a resource limit, which the
    // `JSON` path (more stack per untagged level) reaches before the byte path.
    for case .failure(let error as JSON.Error) in [
      viaBytes.map { _ in () }, viaJSON.map { _ in () },
    ]
    where error.message.contains("stack can hold") {
      return
    }
    fatalError("bytes and JSON disagree: \(viaBytes) vs \(viaJSON)")
  }
}

// MARK: Foundation graphs

/// Builds a Foundation graph from the input, read as instructions (one byte each, some with an
/// operand), and converts it with `JSON(jsonObject:)`: the result is a value or a `JSON.Error`
/// (a cycle, a number with no JSON form), and a value writes and parses back to itself.
private func checkGraph(_ bytes: UnsafeRawBufferPointer) {
  var input = bytes.makeIterator()
  var containers: [AnyObject] = [NSMutableArray()]
  var leaves: [Any] = []
  func operand() -> UInt8 { input.next() ?? 0 }
  func add(_ value: Any) {
    let target = containers[Int(operand()) % containers.count]
    if let array = target as? NSMutableArray {
      array.add(value)
    } else if let dictionary = target as? NSMutableDictionary {
      dictionary[String(operand() % 8)] = value
    }
  }
  while let op = input.next() {
    switch op % 16 {
    case 0: add(NSNull())
    case 1: add(NSNumber(value: operand() & 1 == 1))
    case 2: add(NSNumber(value: Int64(bitPattern: UInt64(operand()) << 56 | UInt64(operand()))))
    case 3: add(NSNumber(value: UInt64.max - UInt64(operand())))
    case 4: add(NSNumber(value: Double(Int8(bitPattern: operand())) / 3))
    case 5:
      add(
        NSNumber(value: [Float.nan, .infinity, -.infinity, 0, -0.0, .ulpOfOne][Int(operand()) % 6]))
    case 6:
      add(
        NSNumber(
          value: [Double.greatestFiniteMagnitude, .leastNonzeroMagnitude, 1e300, -0.0][
            Int(operand()) % 4]))
    case 7:
      add(NSString(string: String(repeating: "\u{1F600}\"\\\u{0}", count: Int(operand() % 4))))
    case 8:
      let array = NSMutableArray()
      add(array)
      containers.append(array)
    case 9:
      let dictionary = NSMutableDictionary()
      add(dictionary)
      containers.append(dictionary)
    case 10: add(containers[Int(operand()) % containers.count])  // a cycle, or sharing
    case 11: add(NSNumber(value: Int8(bitPattern: operand())))
    case 12: add(NSNumber(value: UInt32(operand()) << 24))
    case 13:
      add(
        NSDecimalNumber(
          string: "\(Int8(bitPattern: operand())).\(operand())e\(Int8(bitPattern: operand()))"))
    case 14: add(Date(timeIntervalSince1970: Double(operand())))  // no JSON form
    default: leaves.append(operand())
    }
  }
  let root = containers[0]
  let converted = Result { try JSON(jsonObject: root) }
  if case .success(let json) = converted {
    guard let text = try? json.jsonData(), let again = try? JSON(jsonData: text), again == json
    else { fatalError("a converted graph does not write and parse back to itself: \(json)") }
    guard let viaModel = try? [JSON](jsonObject: root), JSON.array(viaModel) == json else {
      fatalError("[JSON](jsonObject:) disagrees with JSON(jsonObject:)")
    }
  } else if case .failure(let error) = converted, !(error is JSON.Error) {
    fatalError("JSON(jsonObject:) threw something other than a JSON.Error: \(error)")
  }
  // Break the cycles the input made, so the graph is released.
  for container in containers {
    (container as? NSMutableArray)?.removeAllObjects()
    (container as? NSMutableDictionary)?.removeAllObjects()
  }
  _ = leaves
}
