import AutoMap
import Foundation
import Testing

// An untagged enum's trials on bytes run on a root `Decoder` that the reader keeps, with its
// session, for the next value. Attacked here: payload code that keeps its decoder (strongly or
// weakly) and its container, and reads through them while later values are decoded (a root
// reused while something held it would show them a later value).

/// Keeps, by `x % 3`, a way to read a payload's `x` again through its container, through its
/// decoder, or through its decoder held weakly; asks every one kept before while a later value
/// is decoded, and notes the answers with the value each belongs to and the decoder it was
/// read with.
private final class TrialKeeper: @unchecked Sendable {
  typealias Answer = (own: Int, decoder: String, answer: String)
  private let lock = NSLock()
  private var asks: [(own: Int, decoder: String, ask: () -> String)] = []
  private var log: [Answer] = []

  func keep(_ own: Int, _ decoder: any Decoder, _ ask: @escaping () -> String) {
    lock.withLock { asks.append((own, "\(type(of: decoder))", ask)) }
  }

  func meddle() {
    let asks = lock.withLock { self.asks }
    let answers = asks.map { ($0.own, $0.decoder, $0.ask()) }
    lock.withLock { log += answers }
  }

  func answers() -> [Answer] {
    meddle()
    return lock.withLock { log }
  }
}

private enum PayloadKey: String, CodingKey { case x }

/// A payload that keeps what it was read with.
private struct KeptPayload: Codable, Equatable {
  @TaskLocal static var keeper: TrialKeeper?
  var x: Int

  init(x: Int) { self.x = x }

  init(from decoder: any Decoder) throws {
    Self.keeper?.meddle()
    let container = try decoder.container(keyedBy: PayloadKey.self)
    x = try container.decode(Int.self, forKey: .x)
    guard let keeper = Self.keeper else { return }
    let own = x
    switch own % 3 {
    case 0:
      keeper.keep(own, decoder) {
        (try? container.decode(Int.self, forKey: .x)).map(String.init) ?? "refused"
      }
    case 1:
      keeper.keep(own, decoder) {
        (try? decoder.container(keyedBy: PayloadKey.self).decode(Int.self, forKey: .x))
          .map(String.init) ?? "refused"
      }
    default:
      weak let held = decoder as AnyObject
      keeper.keep(own, decoder) {
        guard let decoder = held as? any Decoder else { return "gone" }
        return (try? decoder.container(keyedBy: PayloadKey.self).decode(Int.self, forKey: .x))
          .map(String.init) ?? "refused"
      }
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: PayloadKey.self)
    try container.encode(x, forKey: .x)
  }
}

/// The payload read as the whole value (`tap`), or as one member of the object (`hold`).
/// `init(from:)` is what synthesized code does, after asking what was kept: while this value's
/// trial runs, and no payload is being read.
private enum TrialKeeps: Codable, JSONCodable, Equatable {
  case tap(KeptPayload)
  case hold(payload: KeptPayload)
  static let caseLayout = JSON.CaseLayout.untagged(["tap", "hold"])

  enum CodingKeys: CodingKey { case tap, hold }
  enum TapCodingKeys: CodingKey { case _0 }
  enum HoldCodingKeys: CodingKey { case payload }

  init(from decoder: any Decoder) throws {
    KeptPayload.keeper?.meddle()
    let container = try decoder.container(keyedBy: CodingKeys.self)
    guard container.allKeys.count == 1, let key = container.allKeys.first else {
      throw DecodingError.typeMismatch(
        TrialKeeps.self, .init(codingPath: container.codingPath, debugDescription: "one key"))
    }
    switch key {
    case .tap:
      let payload = try container.nestedContainer(keyedBy: TapCodingKeys.self, forKey: .tap)
      self = .tap(try payload.decode(KeptPayload.self, forKey: ._0))
    case .hold:
      let payload = try container.nestedContainer(keyedBy: HoldCodingKeys.self, forKey: .hold)
      self = .hold(payload: try payload.decode(KeptPayload.self, forKey: .payload))
    }
  }
}

@Suite("Untagged trials' root decoders, reused along one reader")
struct UntaggedTrialReuseTests {
  @Test("decoders and containers kept by payloads, asked later: their own value or a refusal")
  func keptByPayloads() throws {
    let text =
      "["
      + (1...30).map { $0 % 2 == 0 ? #"{"x":\#($0)}"# : #"{"payload":{"x":\#($0)}}"# }
      .joined(separator: ",") + "]"
    let expected: [TrialKeeps] = (1...30).map {
      $0 % 2 == 0 ? .tap(KeptPayload(x: $0)) : .hold(payload: KeptPayload(x: $0))
    }
    let keeper = TrialKeeper()
    let values = try KeptPayload.$keeper.withValue(keeper) {
      try [TrialKeeps](jsonString: text)
    }
    #expect(values == expected)
    let answers = keeper.answers()
    #expect(answers.count > 100)
    // What the byte decoders kept answer, while later values are read on bytes: nothing, as
    // their session ended (a root reused while they held it would let them read again). The
    // reference's decoders (a first use reads through `JSON`) read their own `JSON`.
    #expect(answers.contains { $0.decoder == "ByteDecoder" })
    for (own, decoder, answer) in answers {
      if decoder == "ByteDecoder" {
        #expect(answer == "refused" || answer == "gone", "\(own): \(answer)")
      } else {
        #expect(answer == "\(own)" || answer == "refused", "\(own) \(decoder): \(answer)")
      }
    }
    // The same values without anything kept, twice over one reader's spares.
    #expect(try [TrialKeeps](jsonString: text) == expected)
    #expect(try [TrialKeeps](jsonData: Data(text.utf8)) == expected)
  }
}

/// The memo of an outermost untagged value (what each nested value and position gave) is
/// handed to the next outermost value, on any thread, emptied.
@Suite("Untagged memos, reused across values and threads")
struct UntaggedMemoReuseTests {
  /// Documents of one shape and length whose nested values differ: a memo that kept what the
  /// last document's nested values gave would show them at the same offsets.
  private static func documents(_ round: Int) -> [(String, UntaggedTree<Int>)] {
    (0..<10).map { index in
      let (a, b, c) = ((round + index) % 10, (round + index + 3) % 10, (round + index + 7) % 10)
      return (
        "[[\(a), \(b)], [\(c), [\(a), \(c)]], \(b)]",
        .node([.pair(.leaf(a), .leaf(b)), .pair(.leaf(c), .pair(.leaf(a), .leaf(c))), .leaf(b)])
      )
    }
  }

  @Test("documents of one shape one after another: each its own values")
  func oneAfterAnother() throws {
    for round in 0..<3 {
      for (text, expected) in Self.documents(round) {
        #expect(try UntaggedTree<Int>(jsonString: text) == expected, "\(text)")
        #expect(try UntaggedTree<Int>(jsonData: Data(text.utf8)) == expected, "\(text)")
        #expect(try [UntaggedTree<Int>](jsonString: "[\(text)]") == [expected], "\(text)")
      }
    }
  }

  @Test("threads decoding at once: each its own values")
  func threads() async {
    let wrong = await withTaskGroup(of: [String].self) { group in
      for task in 0..<8 {
        group.addTask {
          var wrong: [String] = []
          for round in 0..<20 {
            for (text, expected) in Self.documents(task + round)
            where (try? UntaggedTree<Int>(jsonString: text)) != expected {
              wrong.append(text)
            }
          }
          return wrong
        }
      }
      var wrong: [String] = []
      for await found in group { wrong += found }
      return wrong
    }
    #expect(wrong.isEmpty, "\(wrong.prefix(3))")
  }
}
