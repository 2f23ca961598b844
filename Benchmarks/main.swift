import AutoMap
import Foundation

// The AutoMap benchmark: throughput against Foundation on the same data, in one run.
// Run in release mode: `swift run -c release Benchmarks [--quick] [--rounds N]`; narrow it
// with `--only <document>` and `--task parse|write|decode|encode|values`; `--ours-only` leaves the
// other libraries out (under a profiler), `--contender "AutoMap via JSON"` all but one.
// `--only capabilities` runs the capability rows alone. `--peak-memory` measures peak
// memory; `--stream [--stream-size-mb 1024]` the streams (see StreamBenchmark.swift).

let arguments = CommandLine.arguments
if let index = arguments.firstIndex(of: "--peak-memory-child") {
  try PeakMemory.child(arguments[index + 1], path: arguments[index + 2])
  exit(0)
}
if let index = arguments.firstIndex(of: "--write-document") {
  // Writes the generated 16 MB document, to inspect it or to measure other tools on it.
  try DocumentGenerator.apiResponse(targetBytes: 16 << 20).write(
    to: URL(fileURLWithPath: arguments[index + 1]))
  exit(0)
}
if let index = arguments.firstIndex(of: "--stream-child") {
  try StreamBenchmark.child(path: arguments[index + 1])
  exit(0)
}
if arguments.contains("--stream") {
  let rounds = arguments.firstIndex(of: "--rounds").flatMap { Int(arguments[$0 + 1]) } ?? 3
  try StreamBenchmark.run(arguments: arguments, rounds: rounds)
  exit(0)
}
if arguments.contains("--peak-memory") {
  try PeakMemory.report()
  exit(0)
}
let bridged = modelsBridgedToAutoMap()
guard bridged.isEmpty else {
  print(
    "error: \(bridged.joined(separator: ", ")) adopt CodableByMapping, so Foundation would map"
      + " them through AutoMap instead of synthesized Codable")
  exit(2)
}
let quick = arguments.contains("--quick")
let rounds =
  arguments.firstIndex(of: "--rounds").flatMap { Int(arguments[$0 + 1]) } ?? (quick ? 3 : 7)
let minimum = quick ? 0.05 : 0.2

// `--only twitter` measures the documents whose name contains "twitter".
let only = arguments.firstIndex(of: "--only").map { arguments[$0 + 1] }
func selected(_ name: String) -> Bool { only.map { name.contains($0) } ?? true }

/// A document and, when it has them, the models it maps to.
struct Document {
  let name: String
  let data: Data
  let models: ModelRows?
}

/// Model rows for one document: decode and encode with AutoMap and with Foundation.
struct ModelRows {
  let decode: [Measurement]  // AutoMap bytes, Foundation, AutoMap through JSON
  let encode: [Measurement]  // AutoMap, Foundation

  init<T: Codable & JSONCodable>(_: T.Type, _ data: Data) throws {
    let decoder = JSONDecoder()
    let encoder = JSONEncoder()
    let value = try T(jsonData: data)
    // Both libraries must read the document, and agree on what they read.
    let theirs = try decoder.decode(T.self, from: data)
    guard try value.json == theirs.json else {
      throw JSON.Error.custom("AutoMap and JSONDecoder read \(T.self) differently")
    }
    decode = [
      Measurement(name: "AutoMap") { _ = try T(jsonData: data) },
      Measurement(name: "Foundation") { _ = try decoder.decode(T.self, from: data) },
      Measurement(name: "AutoMap via JSON") { _ = try T(decode: JSON(jsonData: data)) },
    ]
    encode = [
      Measurement(name: "AutoMap") { _ = try value.jsonData() },
      Measurement(name: "Foundation") { _ = try encoder.encode(value) },
    ]
  }
}

var documents: [Document] = []
for (name, megabytes) in [("api 1 MB", 1), ("api 16 MB", 16)] where selected(name) {
  let data = DocumentGenerator.apiResponse(targetBytes: megabytes << 20)
  documents.append(Document(name: name, data: data, models: try ModelRows(APIResponse.self, data)))
}
let corporaFolder =
  ProcessInfo.processInfo.environment["AUTOMAP_CORPORA"] ?? "../shared/data/corpora"
let corpora: [(String, (Data) throws -> ModelRows)] = [
  ("twitter", { try ModelRows(Twitter.self, $0) }),
  ("citm_catalog", { try ModelRows(Catalog.self, $0) }),
  ("canada", { try ModelRows(FeatureCollection.self, $0) }),
]
for (name, rows) in corpora where selected(name) {
  if let data = FileManager.default.contents(atPath: "\(corporaFolder)/\(name).json") {
    documents.append(Document(name: name, data: data, models: try rows(data)))
  }
}
if !FileManager.default.fileExists(atPath: "\(corporaFolder)/twitter.json") {
  print("(corpora not found at \(corporaFolder): set AUTOMAP_CORPORA to include them)")
}
// One object of 100 000 keys: parsing must stay linear in the number of keys.
if selected("object 100k keys") {
  documents.append(
    Document(
      name: "object 100k keys", data: DocumentGenerator.wideObject(keys: 100_000), models: nil))
}

#if DEBUG
  print("warning: debug build; measure with `swift run -c release Benchmarks`")
#endif

// `--task parse` (or write, decode, encode) measures one kind of task: for profiling.
let task = arguments.firstIndex(of: "--task").map { arguments[$0 + 1] }
Timing.oursOnly = arguments.contains("--ours-only")
Timing.only = arguments.firstIndex(of: "--contender").map { arguments[$0 + 1] }
func measures(_ name: String) -> Bool { task.map { name.hasPrefix($0) } ?? true }
var table = ResultTable()

for document in documents {
  let data = document.data
  let megabytes = Double(data.count) / 1e6
  let parsed = try JSON(jsonData: data)
  let object = try JSONSerialization.jsonObject(with: data)

  if measures("parse") {
    let parse = try Timing.compare(
      [
        Measurement(name: "AutoMap") { _ = try JSON(jsonData: data) },
        Measurement(name: "Foundation") { _ = try JSONSerialization.jsonObject(with: data) },
      ], rounds: rounds, minimum: minimum)
    table.add(
      document: document.name, task: "parse: bytes -> JSON", megabytes: megabytes, ours: parse[0],
      theirs: parse[1], versus: "JSONSerialization")
  }

  if measures("write") {
    let write = try Timing.compare(
      [
        Measurement(name: "AutoMap") { _ = try parsed.jsonData() },
        Measurement(name: "Foundation") { _ = try JSONSerialization.data(withJSONObject: object) },
      ], rounds: rounds, minimum: minimum)
    table.add(
      document: document.name, task: "write: JSON -> bytes", megabytes: megabytes, ours: write[0],
      theirs: write[1], versus: "JSONSerialization")
  }

  guard let models = document.models else { continue }
  if measures("decode") {
    let decode = try Timing.compare(models.decode, rounds: rounds, minimum: minimum)
    table.add(
      document: document.name, task: "decode: bytes -> models", megabytes: megabytes,
      ours: decode[0], theirs: decode[1], versus: "JSONDecoder")
    table.add(
      document: document.name, task: "decode: bytes -> JSON -> models", megabytes: megabytes,
      ours: decode[2], theirs: decode[1], versus: "JSONDecoder")
  }
  if measures("encode") {
    let encode = try Timing.compare(models.encode, rounds: rounds, minimum: minimum)
    table.add(
      document: document.name, task: "encode: models -> bytes", megabytes: megabytes,
      ours: encode[0], theirs: encode[1], versus: "JSONEncoder")
  }
}

if !table.isEmpty { print(table.render()) }

// A wide object parses at a rate comparable to an ordinary document (no quadratic work).
if let wide = table.throughput(document: "object 100k keys", task: "parse: bytes -> JSON"),
  let twitter = table.throughput(document: "twitter", task: "parse: bytes -> JSON")
{
  print(
    String(
      format: "\nobject of 100 000 keys: parse %.0f MB/s, twitter %.0f MB/s: %@", wide, twitter,
      wide * 3 >= twitter ? "within 3x" : "MORE THAN 3x SLOWER"))
}

// Scaling: the 1 MB and 16 MB documents measured in the same alternating rounds, so that the
// machine's load affects both alike. Throughput should not depend on size.
if let small = documents.first(where: { $0.name == "api 1 MB" })?.data,
  let large = documents.first(where: { $0.name == "api 16 MB" })?.data, task == nil
{
  let smallModel = try APIResponse(jsonData: small)
  let largeModel = try APIResponse(jsonData: large)
  func throughput(_ data: Data, _ seconds: Double) -> Double { Double(data.count) / 1e6 / seconds }
  print("\nScaling, 1 MB -> 16 MB (same rounds, alternating):")
  // Each row: a name, then the work on the 1 MB and on the 16 MB document.
  let rows: [(String, () throws -> Void, () throws -> Void)] = [
    ("AutoMap parse", { _ = try JSON(jsonData: small) }, { _ = try JSON(jsonData: large) }),
    (
      "AutoMap decode", { _ = try APIResponse(jsonData: small) },
      { _ = try APIResponse(jsonData: large) }
    ),
    ("AutoMap encode", { _ = try smallModel.jsonData() }, { _ = try largeModel.jsonData() }),
    (
      "JSONSerialization parse", { _ = try JSONSerialization.jsonObject(with: small) },
      { _ = try JSONSerialization.jsonObject(with: large) }
    ),
    (
      "JSONDecoder decode", { _ = try JSONDecoder().decode(APIResponse.self, from: small) },
      { _ = try JSONDecoder().decode(APIResponse.self, from: large) }
    ),
  ]
  for (name, onSmall, onLarge) in rows {
    let times = try Timing.compare(
      [Measurement(name: "1 MB", run: onSmall), Measurement(name: "16 MB", run: onLarge)],
      rounds: rounds, minimum: minimum)
    let (a, b) = (throughput(small, times[0]), throughput(large, times[1]))
    print(
      "  \(name.padding(toLength: 24, withPad: " ", startingAt: 0)) "
        + String(format: "%6.0f MB/s -> %6.0f MB/s  (%+.0f%%)", a, b, (b / a - 1) * 100))
  }
}

// Operations on JSON values: `==`, hashing, JSON Patch, merge patch (ValueBenchmark.swift);
// `--task values` runs them alone. Not on the 16 MB document: Foundation's `isEqual(_:)`
// takes seconds there.
if task == nil || task == "values" {
  try ValueBenchmark.run(
    documents: documents.filter { $0.name != "api 16 MB" }.map { ($0.name, $0.data) },
    rounds: rounds, minimum: minimum)
}

// The capabilities beyond plain models (CapabilityBenchmark.swift); `--only capabilities`
// runs them alone, `--only Pet` (any part of a row's name) one row.
if task == nil {
  try CapabilityBenchmark.run(rounds: rounds, minimum: minimum) { name in
    only.map { $0 == "capabilities" || name.contains($0) } ?? true
  }
}
