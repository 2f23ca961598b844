import AutoMap
import Foundation
import Testing

// The byte `Decoder` keeps a finished session's root decoder in the reader for the next
// `Codable` value, and reads with the caller's reader (moved back where it was when a value
// gives up). Attacked here: values that give up between values that do not, sessions nested
// three deep on one reader, and decoders kept past their value by `Codable` code.

/// A `Codable` value read by nested sessions (inside ``ReuseMapped``).
private struct ReuseLeaf: Codable, Equatable {
  @TaskLocal static var calls: CDCalls?
  var a: Int
  var b: String?

  init(a: Int, b: String? = nil) { (self.a, self.b) = (a, b) }

  init(from decoder: any Decoder) throws {
    Self.calls?.count(decoder)
    let keyed = try decoder.container(keyedBy: ReuseKey.self)
    a = try keyed.decode(Int.self, forKey: ReuseKey("a"))
    b = try keyed.decodeIfPresent(String.self, forKey: ReuseKey("b"))
  }

  func encode(to encoder: any Encoder) throws {
    var keyed = encoder.container(keyedBy: ReuseKey.self)
    try keyed.encode(a, forKey: ReuseKey("a"))
    try keyed.encodeIfPresent(b, forKey: ReuseKey("b"))
  }
}

/// A leaf in a model: each opens a session of its own on the model's reader, which reads on
/// with the reader's depth. (`[ReuseLeaf]` would be one `Codable` value, one session.)
private struct LeafBox: JSONCodable, Equatable {
  var leaf = ReuseLeaf(a: 0)
}

private struct LeafHolder: JSONCodable, Equatable {
  var boxes: [LeafBox] = []
}

/// A model between two `Codable` levels: its `Codable` property opens a session of its own on
/// the same reader, inside the session reading ``ReuseOuter``.
private struct ReuseMapped: JSONCodable, Codable, Equatable {
  var leaf = ReuseLeaf(a: 0)
  var n = 0
}

/// Keeps the decoders it is given (every access under the lock).
private final class DecoderKeeper: @unchecked Sendable {
  private let lock = NSLock()
  private var decoders: [any Decoder] = []
  func keep(_ decoder: any Decoder) { lock.withLock { decoders.append(decoder) } }
  func take() -> [any Decoder] { lock.withLock { decoders } }
}

private struct ReuseKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(_ string: String) { stringValue = string }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

/// The outer `Codable` value: keeps its decoder when `n` is a multiple of 3.
private struct ReuseOuter: Codable, Equatable {
  @TaskLocal static var keeper: DecoderKeeper?
  @TaskLocal static var calls: CDCalls?
  var mapped: ReuseMapped
  var list: [ReuseLeaf]

  init(mapped: ReuseMapped, list: [ReuseLeaf]) { (self.mapped, self.list) = (mapped, list) }

  init(from decoder: any Decoder) throws {
    Self.calls?.count(decoder)
    let keyed = try decoder.container(keyedBy: ReuseKey.self)
    mapped = try keyed.decode(ReuseMapped.self, forKey: ReuseKey("mapped"))
    list = try keyed.decode([ReuseLeaf].self, forKey: ReuseKey("list"))
    if mapped.n % 3 == 0 { Self.keeper?.keep(decoder) }
  }

  func encode(to encoder: any Encoder) throws {
    var keyed = encoder.container(keyedBy: ReuseKey.self)
    try keyed.encode(mapped, forKey: ReuseKey("mapped"))
    try keyed.encode(list, forKey: ReuseKey("list"))
  }
}

private struct ReuseHolder: JSONCodable, Equatable {
  var items: [ReuseOuter] = []
  var after = ""
}

/// A `Codable` value whose `encode(to:)` keeps its container when told, and, when told, first
/// writes to every container kept before (from an earlier value, whose session is over).
private struct KeepsEncoder: Codable, Equatable {
  @TaskLocal static var kept: Shared<[KeyedEncodingContainer<ReuseKey>]>?
  @TaskLocal static var meddles = false
  @TaskLocal static var writers: Shared<[String]>?
  var a: Int
  var keep: Bool

  init(a: Int, keep: Bool) { (self.a, self.keep) = (a, keep) }

  init(from decoder: any Decoder) throws {
    let keyed = try decoder.container(keyedBy: ReuseKey.self)
    a = try keyed.decode(Int.self, forKey: ReuseKey("a"))
    keep = try keyed.decode(Bool.self, forKey: ReuseKey("keep"))
  }

  func encode(to encoder: any Encoder) throws {
    Self.writers?.withLock { $0.append("\(type(of: encoder))") }
    if Self.meddles, let kept = Self.kept {
      for var container in kept.withLock({ $0 }) {
        try? container.encode(-1, forKey: ReuseKey("late"))
        var nested = container.nestedContainer(keyedBy: ReuseKey.self, forKey: ReuseKey("n"))
        try? nested.encode(-2, forKey: ReuseKey("deep"))
      }
    }
    var keyed = encoder.container(keyedBy: ReuseKey.self)
    try keyed.encode(a, forKey: ReuseKey("a"))
    if keep { Self.kept?.withLock { $0.append(keyed) } }
    try keyed.encode(keep, forKey: ReuseKey("keep"))
  }
}

/// Each box's item is written by a session of its own on the model's writer.
private struct EncoderBox: JSONCodable, Equatable {
  var item = KeepsEncoder(a: 0, keep: false)
}

private struct EncoderHolder: JSONCodable, Equatable {
  var boxes: [EncoderBox] = []
}

@Suite("The byte Decoder's sessions, reused along one reader")
struct ByteSessionReuseTests {
  /// Item `index`: every fifth leaf repeats its key (its session gives up and the reference
  /// reads it from where it began), every seventh has an escaped key (the same), every
  /// eleventh is nested deeper in whitespace.
  static func item(_ index: Int) -> String {
    let leaf: String
    switch index {
    case _ where index % 5 == 0: leaf = #"{"a": \#(index), "a": \#(index + 1)}"#
    case _ where index % 7 == 0: leaf = #"{"\u0061": \#(index), "b": "x\n"}"#
    case _ where index % 11 == 0: leaf = "  {\n  \"b\" : null ,\n \"a\" : \(index) }  "
    default: leaf = #"{"a": \#(index), "b": "b\#(index)"}"#
    }
    let list = (0..<(index % 4)).map { #"{"a": \#($0)}"# }.joined(separator: ", ")
    return #"{"mapped": {"leaf": \#(leaf), "n": \#(index)}, "list": [\#(list)]}"#
  }

  static func document(_ count: Int) -> String {
    #"{"items": [\#((0..<count).map(item).joined(separator: ", "))], "after": "end"}"#
  }

  @Test("values that give up between values that do not, nested three sessions deep: alike")
  func mixedOutcomes() throws {
    let text = Self.document(60)
    _ = try ReuseHolder(decode: JSON(jsonString: text))
    let reference = try ReuseHolder(decode: JSON(jsonString: text))
    #expect(reference.items.count == 60 && reference.after == "end")
    #expect(reference.items[5].mapped.leaf.a == 6)  // the last of a repeated key
    for _ in 0..<3 {
      #expect(try ReuseHolder(jsonString: text) == reference)
      #expect(try ReuseHolder(jsonData: Data(text.utf8)) == reference)
      let pair = try ReuseHolder(
        jsonString: #"{"items": [\#(Self.item(5)), \#(Self.item(6))], "after": ""}"#)
      #expect(pair.items == [reference.items[5], reference.items[6]])
    }
    // Leaves with and without `b`, each in a session of its own on one reader: a root kept
    // from one leaf knows nothing of it for the next.
    let boxes = (0..<40).map { index in
      index % 3 == 0
        ? #"{"leaf": {"b": "b\#(index)", "a": \#(index)}}"# : #"{"leaf": {"a": \#(index)}}"#
    }
    let boxText = #"{"boxes": [\#(boxes.joined(separator: ", "))]}"#
    let boxReference = try LeafHolder(decode: JSON(jsonString: boxText))
    #expect(boxReference.boxes[1].leaf == ReuseLeaf(a: 1, b: nil))
    #expect(try LeafHolder(jsonString: boxText) == boxReference)
    #expect(try LeafHolder(jsonData: Data(boxText.utf8)) == boxReference)
    // A value that fails after sessions were kept: the same error on every path.
    let broken = text.replacingOccurrences(of: #""n": 42"#, with: #""n": "42""#)
    let fromJSON = #expect(throws: JSON.Error.self) {
      try ReuseHolder(decode: JSON(jsonString: broken))
    }
    let fromBytes = #expect(throws: JSON.Error.self) { try ReuseHolder(jsonString: broken) }
    #expect(fromJSON?.path == fromBytes?.path && fromBytes?.path == "items[42].mapped.n")
  }

  /// A stream of holders, each with two items: the stream reads every element with one
  /// reader, whose kept sessions go from element to element.
  static func stream(_ count: Int) -> String {
    let elements = (0..<count).map { index in
      #"{"items": [\#(item(index)), \#(item(index + 1))], "after": "\#(index)"}"#
    }
    return "[" + elements.joined(separator: ",\n") + "]"
  }

  @Test("a stream's elements, with values that give up and decoders kept: alike")
  func streamElements() throws {
    let text = Self.stream(40)
    let reference = try [ReuseHolder](decode: JSON(jsonString: text))
    #expect(reference.count == 40 && reference[4].items[1].mapped.leaf.a == 6)
    let keeper = DecoderKeeper()
    for _ in 0..<2 {
      let streamed = try ReuseOuter.$keeper.withValue(keeper) {
        try SyncJSONStream(of: ReuseHolder.self, data: Data(text.utf8)).map { try $0.get() }
      }
      #expect(streamed == reference)
    }
    #expect(keeper.take().count == 2 * 27)
    #expect(try [ReuseHolder](jsonString: text) == reference)
    // A broken element between good ones: skipped, and the elements after it alike.
    let broken = text.replacingOccurrences(of: #""n": 17"#, with: #""n": "17""#)
    var options = JSON.StreamOptions()
    options.skipsBadElements = true
    let kept = try SyncJSONStream(of: ReuseHolder.self, data: Data(broken.utf8), options: options)
      .map { try $0.get() }
    #expect(kept == reference.filter { $0.after != "16" && $0.after != "17" })
  }

  @Test("containers kept past their value and written later: every text as the reference's")
  func keptEncoders() throws {
    let holder = EncoderHolder(
      boxes: (0..<30).map { EncoderBox(item: KeepsEncoder(a: $0, keep: $0 % 4 == 0)) })
    let reference = try holder.json.jsonString()
    #expect(reference.hasPrefix(#"{"boxes":[{"item":{"a":0,"keep":true}},{"item":{"a":1,"#))
    let kept = Shared<[KeyedEncodingContainer<ReuseKey>]>([])
    try KeepsEncoder.$kept.withValue(kept) {
      #expect(try holder.jsonString() == reference)
      #expect(kept.withLock { $0.count } == 8)
      // Every value writes first to the containers kept from the values before it.
      try KeepsEncoder.$meddles.withValue(true) { () throws in
        #expect(try holder.jsonString() == reference)
        #expect(try holder.jsonData() == Data(reference.utf8))
      }
    }
    #expect(try holder.jsonString() == reference)
    #expect(try EncoderHolder(jsonString: reference) == holder)
  }

  @Test("decoders kept past their value: the next values decode alike, the kept ones refuse")
  func keptDecoders() async throws {
    let text = Self.document(30)
    let reference = try ReuseHolder(decode: JSON(jsonString: text))
    let keeper = DecoderKeeper()
    let value = try ReuseOuter.$keeper.withValue(keeper) { try ReuseHolder(jsonString: text) }
    #expect(value == reference)
    let kept = keeper.take()
    #expect(kept.count == 10)
    // Used on another thread once the document is gone: refused, or (a decoder of the
    // reference path, which holds its `JSON`) read alike; never anything else.
    let outcomes = await Task.detached {
      kept.map { decoder -> String in
        guard let keyed = try? decoder.container(keyedBy: ReuseKey.self),
          let mapped = try? keyed.decode(ReuseMapped.self, forKey: ReuseKey("mapped"))
        else { return "refused" }
        return "n \(mapped.n)"
      }
    }.value
    for (index, outcome) in outcomes.enumerated() {
      #expect(outcome == "refused" || outcome == "n \(index * 3)", "\(index): \(outcome)")
    }
    // The reader that kept them decodes the next document as before.
    #expect(try ReuseHolder(jsonString: text) == reference)
  }
}

extension ProcessWideState {
  @Suite("The byte Decoder's sessions: a nested value that gives up is read again alone")
  struct ByteSessionReusePathTests {
    @Test("a nested session that gives up hands its value to the reference from where it began")
    func nestedGiveUpStaysLocal() throws {
      ProcessWideState.expectInside()
      // More leaves that give up than the nesting limit: the reader must be moved back to
      // each one's depth too, or the depths add up to the limit.
      let count = JSON.maximumDepth + 100
      let text = ByteSessionReuseTests.document(count)
      let reference = try ReuseHolder(decode: JSON(jsonString: text))
      let calls = CDCalls()
      let value = try ReuseOuter.$calls.withValue(calls) { try ReuseHolder(jsonString: text) }
      #expect(value == reference)
      // Every outer value read once, from the bytes: the leaves that gave up (repeated and
      // escaped keys) were read again through `JSON` alone, from the reader moved back.
      #expect(calls.taken == Array(repeating: "ByteDecoder", count: count))
      // Leaves in models in an array, every other one giving up: the reader moved back to
      // the model's depth each time, the array reads on from the bytes, and the leaves that
      // do not give up are read once (nothing of the previous leaf is left in a root kept).
      let boxes = (0..<count).map { index in
        index % 2 == 0
          ? #"{"leaf": {"a": \#(index), "b": "b"}}"#
          : #"{"leaf": {"a": \#(index), "a": \#(index + 1)}}"#
      }
      let leafText = #"{"boxes": [\#(boxes.joined(separator: ","))]}"#
      let leafReference = try LeafHolder(decode: JSON(jsonString: leafText))
      let leafCalls = CDCalls()
      let leafValue = try ReuseLeaf.$calls.withValue(leafCalls) {
        try LeafHolder(jsonString: leafText)
      }
      #expect(leafValue == leafReference && leafValue.boxes.last?.leaf.a == count)
      let expected = (0..<count).flatMap { index in
        index % 2 == 0 ? ["ByteDecoder"] : ["ByteDecoder", "JSONValueDecoder"]
      }
      #expect(leafCalls.taken == expected)
    }

    @Test("a stream's elements read each value once from the bytes, giving up alone")
    func streamGiveUpStaysLocal() throws {
      ProcessWideState.expectInside()
      let text = ByteSessionReuseTests.stream(30)
      let reference = try [ReuseHolder](decode: JSON(jsonString: text))
      let calls = CDCalls()
      let streamed = try ReuseOuter.$calls.withValue(calls) {
        try SyncJSONStream(of: ReuseHolder.self, data: Data(text.utf8)).map { try $0.get() }
      }
      #expect(streamed == reference)
      #expect(calls.taken == Array(repeating: "ByteDecoder", count: 60))
    }

    @Test("each value of a writer is written by the byte Encoder, session after session")
    func encoderSessionsReused() throws {
      ProcessWideState.expectInside()
      let holder = EncoderHolder(
        boxes: (0..<40).map { EncoderBox(item: KeepsEncoder(a: $0, keep: $0 % 5 == 0)) })
      let reference = try holder.json.jsonString()
      _ = try holder.jsonString()
      let kept = Shared<[KeyedEncodingContainer<ReuseKey>]>([])
      let writers = Shared<[String]>([])
      try KeepsEncoder.$kept.withValue(kept) {
        try KeepsEncoder.$writers.withValue(writers) {
          #expect(try holder.jsonString() == reference)
          // Writing to the kept containers fails their (finished) sessions only.
          try KeepsEncoder.$meddles.withValue(true) { () throws in
            #expect(try holder.jsonString() == reference)
          }
        }
      }
      #expect(writers.withLock { $0 } == Array(repeating: "ByteEncoder", count: 80))
    }
  }
}
