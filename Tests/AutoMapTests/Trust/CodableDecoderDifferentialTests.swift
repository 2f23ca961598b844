@_spi(Testing) import AutoMap
import Foundation
import Testing

// Review of `Codable/` (issue 20): the byte `Decoder` and `Encoder` against the `JSON`-value
// ones, the reference, over generated documents. The `Codable` code here uses every method of
// every container (all keys then `contains` with keys of another type, `decodeNil` then
// `decode`, `try?` then another type, nested containers, `superDecoder`, `count`, keys that are
// only integers) and AutoMap itself from inside `init(from:)`; documents get numbers at the
// type limits, repeated and escaped keys, and every configuration (dates, data, non-finite
// numbers, collecting every error, recording substitutions). Every entry point must give the
// same value, or an error of the same kind, path and description.

/// Any string key, for `allKeys`.
struct CDKey: CodingKey, Hashable {
  let stringValue: String
  init(_ string: String) { stringValue = string }
  init?(stringValue: String) { self.stringValue = stringValue }
  var intValue: Int? { nil }
  init?(intValue: Int) { nil }
}

/// A key that is only an integer: no key of the document makes one (`init(stringValue:)`
/// is `nil`), but it still names the member `"7"`.
struct CDIntKey: CodingKey {
  let intValue: Int?
  init(_ value: Int) { intValue = value }
  init?(intValue: Int) { self.intValue = intValue }
  init?(stringValue _: String) { nil }
  var stringValue: String { intValue.map(String.init) ?? "" }
}

final class CDCalls: @unchecked Sendable {  // every access under `lock`
  private let lock = NSLock()
  private var decoders: [String] = []
  func count(_ decoder: any Decoder) { lock.withLock { decoders.append("\(type(of: decoder))") } }
  var taken: [String] { lock.withLock { decoders } }
}

/// What `CDSurface` read at one key, written back by its `encode(to:)`.
enum CDLeaf: Equatable {
  case null, int(Int64), uint(UInt64), float(Float), double(Double), string(String), bool(Bool)
  case decimal(Decimal), date(Date), data(Data), json(JSON), list([Int?]), trial([String])
  case object(CDSurface), model(String), superValue(Int)
}

/// Hand-written `Codable`: what it reads at each key depends on the key's first letter; it
/// keeps a log of every read, which is what two decodes are compared by.
struct CDSurface: Codable, Equatable {
  var log: [String] = []
  var leaves: [(key: String, leaf: CDLeaf)] = []

  static func == (lhs: Self, rhs: Self) -> Bool { lhs.log == rhs.log }

  /// Counts the calls of `init(from:)`, where a test sets it.
  @TaskLocal static var calls: CDCalls?

  init(from decoder: any Decoder) throws {
    Self.calls?.count(decoder)
    let any = try decoder.container(keyedBy: CDKey.self)
    let keys = any.allKeys
    log.append("keys \(keys.map(\.stringValue))")
    for key in keys {
      let leaf = try Self.leaf(any, key)
      log.append("\(key.stringValue): \(Self.text(leaf))")
      leaves.append((key.stringValue, leaf))
    }
    // The same object through a container of another key type.
    let byNumber = try decoder.container(keyedBy: CDIntKey.self)
    log.append("int keys \(byNumber.allKeys.count), 7: \(byNumber.contains(CDIntKey(7)))")
    if byNumber.contains(CDIntKey(7)) {
      log.append("7 = \(try byNumber.decode(Int.self, forKey: CDIntKey(7)))")
    }
    log.append("n = \(String(describing: try any.decodeIfPresent(Int16.self, forKey: CDKey("n"))))")
    log.append("path \(decoder.codingPath.map(\.stringValue))")
  }

  private static func leaf(_ any: KeyedDecodingContainer<CDKey>, _ key: CDKey) throws -> CDLeaf {
    if try any.decodeNil(forKey: key) { return .null }
    switch key.stringValue.first {
    case "i": return .int(try any.decode(Int64.self, forKey: key))
    case "u": return .uint(try any.decode(UInt64.self, forKey: key))
    case "f": return .float(try any.decode(Float.self, forKey: key))
    case "d": return .double(try any.decode(Double.self, forKey: key))
    case "s": return .string(try any.decode(String.self, forKey: key))
    case "b": return .bool(try any.decode(Bool.self, forKey: key))
    case "m": return .decimal(try any.decode(Decimal.self, forKey: key))
    case "t": return .date(try any.decode(Date.self, forKey: key))
    case "x": return .data(try any.decode(Data.self, forKey: key))
    case "o": return .object(try any.decode(CDSurface.self, forKey: key))
    case "l":
      var list = try any.nestedUnkeyedContainer(forKey: key)
      var values: [Int?] = []
      let count = list.count
      while !list.isAtEnd {
        values.append(try list.decodeNil() ? nil : try list.decode(Int.self))
      }
      guard count == values.count, list.currentIndex == values.count else {
        throw DecodingError.dataCorrupted(
          .init(codingPath: list.codingPath, debugDescription: "count \(String(describing: count))")
        )
      }
      return .list(values)
    case "v":
      // Each element by trial: a failed `try?` leaves the position where it was.
      var list = try any.nestedUnkeyedContainer(forKey: key)
      var found: [String] = []
      while !list.isAtEnd {
        if try list.decodeNil() {
          found.append("null")
        } else if let value = try? list.decode(UInt8.self) {
          found.append("u8 \(value)")
        } else if let value = try? list.decode(Double.self) {
          found.append("d \(value)")
        } else if let value = try? list.decode(String.self) {
          found.append("s \(value)")
        } else if var nested = try? list.nestedUnkeyedContainer() {
          found.append("[\(String(describing: nested.count))] \(nested.isAtEnd)")
          if !nested.isAtEnd { found.append("first nil \(try nested.decodeNil())") }
        } else {
          let nested = try list.nestedContainer(keyedBy: CDKey.self)
          found.append("{\(nested.allKeys.map(\.stringValue))}")
        }
      }
      return .trial(found)
    case "j":
      // AutoMap called from inside `init(from:)`, under the call's configuration.
      let text = try any.decode(String.self, forKey: key)
      do {
        return .model(try CDInner(jsonString: text).fingerprint)
      } catch let error as JSON.Error {
        return .model("error \(error.kind) at \(error.path)")
      }
    case "p":
      let sup = try any.superDecoder(forKey: key)
      return .superValue(try Int(from: sup))
    default: return .json(try any.decode(JSON.self, forKey: key))
    }
  }

  static func text(_ leaf: CDLeaf) -> String {
    switch leaf {
    case .null: "null"
    case .int(let value): "i \(value)"
    case .uint(let value): "u \(value)"
    case .float(let value): "f \(value)"
    case .double(let value): "d \(value)"
    case .string(let value): "s \(value.debugDescription)"
    case .bool(let value): "b \(value)"
    case .decimal(let value): "m \(value)"
    case .date(let value): "t \(value.timeIntervalSince1970)"
    case .data(let value): "x \(value.base64EncodedString())"
    case .json(let value): "json \((try? value.jsonString(options: .sortedKeys)) ?? "?")"
    case .list(let values): "l \(values)"
    case .trial(let found): "v \(found)"
    case .object(let surface): "o \(surface.log)"
    case .model(let text): "j \(text)"
    case .superValue(let value): "p \(value)"
    }
  }

  func encode(to encoder: any Encoder) throws {
    var keyed = encoder.container(keyedBy: CDKey.self)
    for (name, leaf) in leaves {
      let key = CDKey(name)
      switch leaf {
      case .null: try keyed.encodeNil(forKey: key)
      case .int(let value): try keyed.encode(value, forKey: key)
      case .uint(let value): try keyed.encode(value, forKey: key)
      case .float(let value): try keyed.encode(value, forKey: key)
      case .double(let value): try keyed.encode(value, forKey: key)
      case .string(let value): try keyed.encode(value, forKey: key)
      case .bool(let value): try keyed.encode(value, forKey: key)
      case .decimal(let value): try keyed.encode(value, forKey: key)
      case .date(let value): try keyed.encode(value, forKey: key)
      case .data(let value): try keyed.encode(value, forKey: key)
      case .json(let value): try keyed.encode(value, forKey: key)
      case .list(let values):
        var list = keyed.nestedUnkeyedContainer(forKey: key)
        for value in values {
          if let value { try list.encode(value) } else { try list.encodeNil() }
        }
      case .trial(let found):
        var list = keyed.nestedUnkeyedContainer(forKey: key)
        var nested = list.nestedContainer(keyedBy: CDKey.self)
        try nested.encode(found.count, forKey: CDKey("count"))
        try list.encode(found)
      case .object(let surface): try keyed.encode(surface, forKey: key)
      case .model(let text): try keyed.encode(text, forKey: key)
      case .superValue(let value):
        var single = keyed.superEncoder(forKey: key).singleValueContainer()
        try single.encode(value)
      }
    }
  }
}

/// A model decoded by AutoMap from inside `init(from:)`.
struct CDInner: JSONCodable {
  var i = 0
  var d: Double?
  var ds: [Double]?
  var fingerprint: String { "\(i),\(String(describing: d)),\(String(describing: ds))" }
}

/// Synthesized `Codable` with a property of every kind the containers read.
struct CDPlain: Codable {
  var i: Int
  var i8: Int8?
  var u64: UInt64?
  var i64: Int64?
  var d: Double?
  var f: Float?
  var s: String?
  var m: Decimal?
  var t: Date?
  var x: Data?
  var ds: [Double]?

  /// Every property as text: doubles by their description, which tells -0.0 and NaN apart.
  var fingerprint: String {
    [
      "\(i)", "\(String(describing: i8))", "\(String(describing: u64))",
      "\(String(describing: i64))", "\(String(describing: d))", "\(String(describing: f))",
      "\(String(describing: s))", "\(String(describing: m))",
      "\(String(describing: t?.timeIntervalSince1970))",
      "\(String(describing: x?.base64EncodedString()))", "\(String(describing: ds))",
    ].joined(separator: ",")
  }
}

/// A model holding the `Codable` values: what the entry points decode and encode.
struct CDHolder: JSONCodable, Equatable {
  var plain: CDPlain
  var surface: CDSurface
  var more: [CDSurface]?

  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.plain.fingerprint == rhs.plain.fingerprint && lhs.surface == rhs.surface
      && lhs.more == rhs.more
  }
}

enum CDDocuments {
  static func plain(date: Doc, data: Doc, double: Doc) -> Doc {
    [
      "i": 1, "i8": -8, "u64": .number("18446744073709551615"),
      "i64": .number("-9223372036854775808"), "d": double, "f": .number("1.5"), "s": "caf\u{e9}",
      "m": .number("123456789.987654321"), "t": date, "x": data,
      "ds": [.number("-0.0"), .number("1e-300"), double],
    ]
  }

  static func surface(date: Doc, data: Doc, double: Doc, superKey: Bool) -> Doc {
    var members: [Doc.Member] = [
      .init(key: "i", value: .number("-9223372036854775808")),
      .init(key: "u", value: .number("18446744073709551615")),
      .init(key: "f", value: .number("3.4028235e38")), .init(key: "d", value: double),
      .init(key: "s", value: "q\"uote \u{1F600}"), .init(key: "b", value: true),
      .init(key: "m", value: .number("-0.5")), .init(key: "t", value: date),
      .init(key: "x", value: data), .init(key: "l", value: [1, nil, .number("-0")]),
      .init(key: "o", value: ["i": 2, "s": "inner", "n": 3]), .init(key: "7", value: 7),
      .init(key: "n", value: .number("-32768")), .init(key: "extra", value: ["a": [1, nil]]),
      .init(key: "j", value: .scalar(Doc.quoted(#"{"i": 1, "d": 2.5, "ds": [1]}"#))),
    ]
    if superKey {
      // What the byte Decoder gives up on: a super decoder, and reads by trial (`try?`).
      members.append(.init(key: "p", value: 5))
      members.append(
        .init(key: "v", value: [7, .number("2.5"), "w", [nil, 1], ["k": 1], nil, .number("300")]))
    }
    return .object(members)
  }

  static func holder(date: Doc, data: Doc, double: Doc, superKey: Bool = false) -> Doc {
    let surface = surface(date: date, data: data, double: double, superKey: superKey)
    return [
      "plain": plain(date: date, data: data, double: double), "surface": surface,
      "more": [surface, ["s": "second", "l": []]],
    ]
  }
}

/// A configuration and the valid document under it.
struct CDSetting: Sendable, CustomStringConvertible {
  let description: String
  let configuration: JSON.Configuration?
  let base: @Sendable () -> Doc

  static let all: [CDSetting] = [
    CDSetting(description: "no configuration", configuration: nil) {
      CDDocuments.holder(date: "2024-02-29T12:30:15.250Z", data: "AQID", double: .number("0.1"))
    },
    CDSetting(description: "super decoders", configuration: nil) {
      CDDocuments.holder(
        date: "2024-02-29T12:30:15Z", data: "", double: .number("1e308"), superKey: true)
    },
    CDSetting(
      description: "seconds, hex, non-finite strings",
      configuration: .init(
        dateTransform: .secondsSince1970, dataEncoding: .hex, nonFiniteNumbers: .strings())
    ) {
      CDDocuments.holder(date: .number("86400.5"), data: "CAFE", double: "NaN")
    },
    CDSetting(
      description: "python spellings, every error",
      configuration: .init(
        dataEncoding: .base64URL,
        nonFiniteNumbers: .strings(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan"),
        collectsAllErrors: true)
    ) {
      CDDocuments.holder(date: "1970-01-01T00:00:00Z", data: "-_8", double: "-inf")
    },
    CDSetting(
      description: "recording substitutions",
      configuration: .init(dateTransform: .millisecondsSince1970, onSubstitution: { _ in })
    ) {
      CDDocuments.holder(date: .number("-1"), data: "AA==", double: .number("5e-324"))
    },
  ]
}

extension ProcessWideState {
  @Suite("Differential: the byte Decoder and Encoder against the JSON-value ones", .serialized)
  struct CodableDecoderDifferentialTests {
    static let seeds: [UInt64] = [1, 2, 3, 5, 8, 13, 21, 34, 55, 89]
    static let documentsPerSeed = 12
    /// Numbers the mutations put anywhere, beyond the differential's usual pool.
    static let edgeNumbers = [
      "-0", "-0.0", "1e400", "-1e400", "1e-400", "-9223372036854775809", "18446744073709551616",
      "3.5e38", "-3.5e38", "1e-46", "123456789012345678901234567890", "0.000001e6", "1E+2",
    ]

    @Test(
      "generated documents: every entry point agrees, values and errors", arguments: CDSetting.all)
    func generated(setting: CDSetting) {
      var ledger = DiffLedger()
      let probe = DiffProbe.of(CDHolder.self, setting.base(), roundTrips: false)
      func run(_ text: String) {
        guard let configuration = setting.configuration else { return probe.run(text, &ledger) }
        JSON.withConfiguration(configuration) { probe.run(text, &ledger) }
      }
      var values = 0
      for seed in Self.seeds {
        var random = DiffRandom(seed: seed)
        for index in 0..<Self.documentsPerSeed {
          var (text, traits) = DifferentialTests.document(probe.base, index: index, &random)
          if index % 3 == 2 {
            let doc = DiffMutation.replaceNumber(probe.base, with: Self.edgeNumbers, &random)
            text = doc.render(spacing: random.below(4)).text
            traits = []
          }
          ledger.context = "\(setting), seed \(seed), document \(index)"
          ledger.traits = traits
          let before = ledger.values
          run(text)
          values += ledger.values - before
        }
      }
      print("Codable differential, \(setting): \(ledger.documents) documents, \(values) values")
      #expect(values > Self.seeds.count, "the valid documents decode to values")
      #expect(ledger.count == 0, "\(ledger.count) disagreements:\n\(ledger.report)")
    }

    @Test("the valid document decodes through the byte Decoder to the reference's value")
    func validDocument() throws {
      for setting in CDSetting.all {
        let text = setting.base().render(spacing: 1).text
        func decode(_ body: () throws -> CDHolder) throws -> CDHolder {
          guard let configuration = setting.configuration else { return try body() }
          return try JSON.withConfiguration(configuration, body)
        }
        let referenceCalls = CDCalls()
        let reference = try CDSurface.$calls.withValue(referenceCalls) {
          try decode { try CDHolder(decode: JSON(jsonString: text)) }
        }
        let byteCalls = CDCalls()
        let bytes = try CDSurface.$calls.withValue(byteCalls) {
          try decode { try CDHolder(jsonString: text) }
        }
        #expect(reference == bytes, "\(setting)")
        // Three surfaces, two of them with one nested: once each on the reference path.
        #expect(referenceCalls.taken == Array(repeating: "JSONValueDecoder", count: 5))
        switch setting.description {
        case "no configuration", "seconds, hex, non-finite strings":
          // Straight from the bytes, with nothing to give up on.
          #expect(byteCalls.taken == Array(repeating: "ByteDecoder", count: 5), "\(setting)")
        case "super decoders":
          // The byte Decoder gives up at `superDecoder(forKey:)` and at a caught error: each
          // surface holding one is decoded again through `JSON`, which runs its `init(from:)`
          // again (with its nested one): `surface`, and `more[0]` alone (`[CDSurface]` is
          // read element by element on bytes, so `more[1]` is not read again).
          #expect(byteCalls.taken.filter { $0 == "JSONValueDecoder" }.count == 4, "\(setting)")
        default:
          // Recording substitutions and collecting every error read through `JSON` values.
          #expect(byteCalls.taken.count >= 5, "\(setting)")
        }
        #expect(reference.surface.leaves.count >= 15, "\(setting)")
        #expect(reference.surface.log.contains("7 = 7"), "\(setting)")
      }
    }
  }
}
