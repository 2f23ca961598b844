import AutoMap
import Foundation
import Testing

// Review of `Codable/` (issue 20): the byte `Decoder` and the `JSON`-value one, attacked by
// hostile `Codable` code: decoders and containers kept past their value and used from another
// thread, `decodeNil` then `decode`, keys that are the same after unescaping, and a value
// whose `init(from:)` has side effects when the byte `Decoder` gives up.

/// Whatever `Codable` code kept: decoders and containers of every kind.
final class KeptPieces: @unchecked Sendable {  // every access under `lock`
  private let lock = NSLock()
  private var decoders: [any Decoder] = []
  private var keyed: [KeyedDecodingContainer<CDKey>] = []
  private var unkeyed: [any UnkeyedDecodingContainer] = []
  private var single: [any SingleValueDecodingContainer] = []
  func keep(
    _ decoder: any Decoder, _ keyed: KeyedDecodingContainer<CDKey>,
    _ unkeyed: any UnkeyedDecodingContainer, _ single: any SingleValueDecodingContainer
  ) {
    lock.withLock {
      decoders.append(decoder)
      self.keyed.append(keyed)
      self.unkeyed.append(unkeyed)
      self.single.append(single)
    }
  }
  func take() -> (
    [any Decoder], [KeyedDecodingContainer<CDKey>], [any UnkeyedDecodingContainer],
    [any SingleValueDecodingContainer]
  ) {
    lock.withLock {
      defer { (decoders, keyed, unkeyed, single) = ([], [], [], []) }
      return (decoders, keyed, unkeyed, single)
    }
  }
}

/// Keeps its decoder and a container of each kind, half-read.
struct KeepsPieces: Codable, Equatable {
  @TaskLocal static var kept: KeptPieces?
  var a: Int

  init(from decoder: any Decoder) throws {
    let keyed = try decoder.container(keyedBy: CDKey.self)
    a = try keyed.decode(Int.self, forKey: CDKey("a"))
    var list = try keyed.nestedUnkeyedContainer(forKey: CDKey("list"))
    _ = try list.decode(Int.self)  // one of three read
    Self.kept?.keep(decoder, keyed, list, try decoder.singleValueContainer())
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CDKey.self)
    try container.encode(a, forKey: CDKey("a"))
    try container.encode([1, 2, 3], forKey: CDKey("list"))
  }
}

struct HoldsPieces: JSONCodable, Equatable {
  var pieces: KeepsPieces
  var more: [KeepsPieces]
}

/// `decodeNil` before every read, and again after it.
struct NilThenDecode: Codable, Equatable {
  var values: [String] = []
  init(values: [String]) { self.values = values }
  init(from decoder: any Decoder) throws {
    let keyed = try decoder.container(keyedBy: CDKey.self)
    for key in ["a", "b", "c"].map(CDKey.init) {
      let isNil = try keyed.decodeNil(forKey: key)
      let value = try keyed.decode(Int?.self, forKey: key)
      let again = try keyed.decodeNil(forKey: key)
      values.append("\(isNil) \(String(describing: value)) \(again)")
    }
    var list = try keyed.nestedUnkeyedContainer(forKey: CDKey("list"))
    while !list.isAtEnd {
      let isNil = try list.decodeNil()
      values.append(isNil ? "nil" : "\(try list.decode(Int.self))")
    }
    let single = try decoder.singleValueContainer()
    values.append("single nil \(single.decodeNil())")
  }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(values)
  }
}

struct HoldsNilThenDecode: JSONCodable, Equatable {
  var item: NilThenDecode
}

/// A `Codable` value whose `init(from:)` catches an error and goes on, and counts its calls.
struct CatchesAndCounts: Codable, Equatable {
  @TaskLocal static var calls: CDCalls?
  var a: Int
  var fallback: Bool
  init(from decoder: any Decoder) throws {
    Self.calls?.count(decoder)
    let keyed = try decoder.container(keyedBy: CDKey.self)
    a = try keyed.decode(Int.self, forKey: CDKey("a"))
    fallback = (try? keyed.decode(String.self, forKey: CDKey("a"))) == nil
  }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CDKey.self)
    try container.encode(a, forKey: CDKey("a"))
  }
}

struct HoldsCatches: JSONCodable, Equatable {
  var item: CatchesAndCounts
}

struct SameKeyTwice: Codable, Equatable {
  var a: Int
  var keys: [String]
  init(from decoder: any Decoder) throws {
    let keyed = try decoder.container(keyedBy: CDKey.self)
    keys = keyed.allKeys.map(\.stringValue)
    a = try keyed.decode(Int.self, forKey: CDKey("a"))
  }
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CDKey.self)
    try container.encode(a, forKey: CDKey("a"))
  }
}

struct HoldsSameKeyTwice: JSONCodable, Equatable {
  var item: SameKeyTwice
}

@Suite("The byte Decoder and the JSON-value Decoder against hostile Codable code", .serialized)
struct ByteDecoderAttackTests {
  @Test(
    "decodeNil then decode, in keyed, unkeyed and single-value containers: alike",
    arguments: [
      #"{"a": null, "b": 1, "c": null, "list": [null, 2, null]}"#,
      #"{"a": 1, "b": null, "list": []}"#,  // "c" absent: decodeNil(forKey:) throws
      #"{"a": nul, "b": 1, "c": 2, "list": []}"#,
      #"{"a": 1, "b": 2, "c": 3, "list": [1, "x"]}"#,
    ])
  func nilThenDecode(text: String) throws {
    let holder = #"{"item": \#(text)}"#
    _ = try? HoldsNilThenDecode(
      decode: JSON(jsonString: #"{"item": {"a": 1, "b": 2, "c": 3, "list": []}}"#))
    let reference = Result { try HoldsNilThenDecode(decode: JSON(jsonString: holder)) }
    let bytes = Result { try HoldsNilThenDecode(jsonString: holder) }
    #expect("\(reference)" == "\(bytes)")
    if text.hasPrefix(#"{"a": null"#) {
      #expect(
        try bytes.get().item.values == [
          "true nil true", "false Optional(1) false", "true nil true", "nil", "2", "nil",
          "single nil false",
        ])
    }
    if text.contains(#""b": null, "list""#) {
      let error = #expect(throws: JSON.Error.self) { try bytes.get() }
      #expect(error?.path == "item.c")
    }
  }

  @Test("keys that are the same once unescaped: one key, the last value, on every entry point")
  func sameKeyAfterUnescaping() throws {
    _ = try HoldsSameKeyTwice(decode: JSON(jsonString: #"{"item": {"a": 0}}"#))
    for text in [
      #"{"item": {"a": 1, "\u0061": 2}}"#, #"{"item": {"\u0061": 1, "a": 2}}"#,
      #"{"item": {"a": 1, "a": 2}}"#, #"{"item": {"\u0061": 1, "\u0061": 2}}"#,
    ] {
      let reference = try HoldsSameKeyTwice(decode: JSON(jsonString: text))
      #expect(reference.item.a == 2 && reference.item.keys == ["a"], "\(text)")
      #expect(try HoldsSameKeyTwice(jsonString: text) == reference, "\(text)")
      #expect(try HoldsSameKeyTwice(jsonData: Data(text.utf8)) == reference, "\(text)")
    }
  }
}

extension ProcessWideState {
  /// The attacks whose outcome depends on which decoder runs: the byte Decoder once the
  /// models' reflection was observed. A test that forgets reflection (all live under this
  /// parent) would send these calls through `JSON` as a first use, so they run here, never
  /// beside one.
  @Suite("The byte Decoder against hostile Codable code: what it does in place", .serialized)
  struct ByteDecoderInPlaceTests {
    static let pieces =
      #"{"pieces": {"a": 1, "list": [1, 2, 3]}, "more": [{"a": 2, "list": [4, 5, 6]}]}"#

    @Test(
      "decoders and containers kept past their value, used from another thread: refused or alike",
      arguments: [false, true])
    func keptPiecesOnAnotherThread(throughJSON: Bool) async throws {
      ProcessWideState.expectInside()  // what is kept depends on the decoder that ran
      let kept = KeptPieces()
      _ = try HoldsPieces(decode: JSON(jsonString: Self.pieces))  // the byte path from here on
      let value = try KeepsPieces.$kept.withValue(kept) {
        throughJSON
          ? try HoldsPieces(decode: JSON(jsonString: Self.pieces))
          : try HoldsPieces(jsonString: Self.pieces)
      }
      #expect(value.pieces.a == 1 && value.more.map(\.a) == [2])
      // The document is gone; another thread uses what was kept.
      let outcomes = await Task.detached {
        let (decoders, keyed, unkeyed, single) = kept.take()
        var outcomes: [String] = []
        for decoder in decoders {
          let again = try? decoder.container(keyedBy: CDKey.self).decode(
            Int.self, forKey: CDKey("a"))
          outcomes.append("decoder \(String(describing: again))")
        }
        for container in keyed {
          let value = try? container.decode(Int.self, forKey: CDKey("a"))
          let nested = try? container.nestedUnkeyedContainer(forKey: CDKey("list")).count
          outcomes.append(
            "keyed \(container.allKeys.count) \(String(describing: value)) \(String(describing: nested))"
          )
        }
        for var list in unkeyed {
          let next = try? list.decode(Int.self)
          outcomes.append("unkeyed \(String(describing: next)) \(list.isAtEnd)")
        }
        for container in single {
          outcomes.append("single \(String(describing: try? container.decode(Int.self)))")
          outcomes.append("single nil \(container.decodeNil())")
        }
        return outcomes
      }.value
      #expect(outcomes.count == 10)
      if throughJSON {
        // `JSON` values live as long as their decoder: it reads them still.
        #expect(
          outcomes.contains("decoder Optional(1)") && outcomes.contains("unkeyed Optional(5) false")
        )
        #expect(outcomes.contains("keyed 2 Optional(2) Optional(3)"))
      } else {
        // The bytes are gone: everything is refused, nothing is read.
        #expect(outcomes.filter { $0.hasPrefix("decoder") } == ["decoder nil", "decoder nil"])
        #expect(
          outcomes.filter { $0.hasPrefix("keyed") } == ["keyed 0 nil nil", "keyed 0 nil nil"])
        #expect(
          outcomes.filter { $0.hasPrefix("unkeyed") } == ["unkeyed nil true", "unkeyed nil true"])
      }
      #expect(
        outcomes.filter { $0.hasPrefix("single") }
          == Array(repeating: ["single nil", "single nil false"], count: 2).flatMap { $0 })
      // Whatever was kept, the value decodes the same again.
      #expect(try HoldsPieces(jsonString: Self.pieces) == value)
    }

    @Test(
      "an init(from:) that catches an error: the same value; once through JSON, twice from bytes")
    func caughtErrorRunsAgain() throws {
      ProcessWideState.expectInside()  // counts which decoders ran
      let text = #"{"item": {"a": 7}}"#
      _ = try HoldsCatches(decode: JSON(jsonString: text))
      let reference = CDCalls()
      let viaJSON = try CatchesAndCounts.$calls.withValue(reference) {
        try HoldsCatches(decode: JSON(jsonString: text))
      }
      let fromBytes = CDCalls()
      let viaBytes = try CatchesAndCounts.$calls.withValue(fromBytes) {
        try HoldsCatches(jsonString: text)
      }
      #expect(viaJSON == viaBytes && viaBytes.item.fallback)
      #expect(reference.taken == ["JSONValueDecoder"])
      // The byte Decoder gives up at the caught error, and the value is decoded again through
      // `JSON`: side effects of `init(from:)` happen twice (README: "decoded again").
      #expect(fromBytes.taken == ["ByteDecoder", "JSONValueDecoder"])
    }
  }
}
