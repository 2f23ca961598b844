import AutoMap
import Foundation
import Testing

// The byte `Decoder` shows an enum in the external- and adjacent-tag layouts to its
// `init(from:)` through a case container that reads the payload from the enum's root decoder,
// which also scans the object. Attacked here: containers kept past their value, while the
// reader decodes more values of the same enum (a reused root would show them a later case).

/// Keeps, for each case container it is given, a way to ask it for its keys and its payload;
/// asks the ones kept before while a later value is being decoded, and notes each answer with
/// the number of the value whose container answered.
private final class CaseKeeper: @unchecked Sendable {
  private let lock = NSLock()
  private var asks: [() -> String] = []
  private var log: [(Int, String)] = []
  func keep(_ ask: @escaping () -> String) { lock.withLock { asks.append(ask) } }
  func meddle() {
    let asks = lock.withLock { self.asks }
    let answers = asks.enumerated().map { ($0.offset, $0.element()) }
    lock.withLock { log += answers }
  }
  func answers() -> [(Int, String)] {
    meddle()
    return lock.withLock { log }
  }
}

private enum CaseKey: String, CodingKey { case tap }
private enum TapKey: String, CodingKey { case x }

/// What synthesized code does for `case tap(x: Int)`, keeping the case container.
private func decodeTap(_ decoder: any Decoder, _ keeper: CaseKeeper?) throws -> Int {
  keeper?.meddle()  // the containers kept from earlier values, asked while this one is live
  let container = try decoder.container(keyedBy: CaseKey.self)
  keeper?.keep {
    let keys = container.allKeys.map(\.stringValue)
    let x = try? container.nestedContainer(keyedBy: TapKey.self, forKey: .tap)
      .decode(Int.self, forKey: .x)
    return "\(keys) \(x.map(String.init) ?? "refused")"
  }
  guard container.allKeys == [.tap] else {
    throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no case"))
  }
  return try container.nestedContainer(keyedBy: TapKey.self, forKey: .tap)
    .decode(Int.self, forKey: .x)
}

private enum ExternalKeeps: Codable, JSONCodable, Equatable {
  case tap(x: Int)
  @TaskLocal static var keeper: CaseKeeper?
  init(from decoder: any Decoder) throws { self = .tap(x: try decodeTap(decoder, Self.keeper)) }
}

private enum AdjacentKeeps: Codable, JSONCodable, Equatable {
  case tap(x: Int)
  static let caseLayout = JSON.CaseLayout.adjacentTag("type", content: "value")
  @TaskLocal static var keeper: CaseKeeper?
  init(from decoder: any Decoder) throws { self = .tap(x: try decodeTap(decoder, Self.keeper)) }
}

/// The latest case container a ``LongCase`` value was read with, asked from another thread;
/// `stop` ends the asking.
private enum LatestCase {
  static let ask = Shared<(() -> String)?>(nil)
  static let stop = Shared(false)
}

/// A case name too long to be stored inline in a `String`: a half-written one is a bad pointer.
private enum LongCase: Codable, JSONCodable {
  case aCaseNameLongEnoughToLiveOnTheHeap(x: Int)
  private enum Keys: String, CodingKey { case aCaseNameLongEnoughToLiveOnTheHeap }
  private enum PayloadKeys: String, CodingKey { case x }
  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Keys.self)
    LatestCase.ask.withLock {
      $0 = {
        "\(container.allKeys.map(\.stringValue)) \(container.contains(.aCaseNameLongEnoughToLiveOnTheHeap))"
      }
    }
    self = .aCaseNameLongEnoughToLiveOnTheHeap(
      x: try container.nestedContainer(
        keyedBy: PayloadKeys.self, forKey: .aCaseNameLongEnoughToLiveOnTheHeap
      ).decode(Int.self, forKey: .x))
  }
}

/// The decoder of the value before, held weakly, and what it showed while the next was read.
private final class WeakHolder: @unchecked Sendable {
  weak var decoder: AnyObject?
  var answers: [String] = []
}

private enum WeaklyKeeps: Codable, JSONCodable, Equatable {
  case tap(x: Int)
  @TaskLocal static var holder: WeakHolder?
  init(from decoder: any Decoder) throws {
    if let holder = Self.holder {
      if let earlier = holder.decoder as? any Decoder {
        let x = try? earlier.container(keyedBy: CaseKey.self)
          .nestedContainer(keyedBy: TapKey.self, forKey: .tap).decode(Int.self, forKey: .x)
        holder.answers.append(x.map(String.init) ?? "refused")
      } else {
        holder.answers.append("gone")
      }
      holder.decoder = decoder as AnyObject
    }
    self = .tap(x: try decodeTap(decoder, nil))
  }
}

@Suite("Case containers kept past their enum value")
struct VirtualCaseContainerTests {
  /// Each kept container answers with its own value's payload, or refuses it; never with a
  /// later value's, as it would if its decoder were reused (checked by taking roots that are
  /// not unique from the reader's spares: later payloads were shown). Its keys are its own.
  private func expectOwnOrRefused(_ answers: [(Int, String)], count: Int, own: [Int]) {
    #expect(answers.count == count)
    for (index, answer) in answers {
      #expect(
        answer == "[\"tap\"] refused" || answer == "[\"tap\"] \(own[index])", "\(index): \(answer)")
    }
  }

  @Test("external tag: a kept container never shows a later value, on this thread or another")
  func external() async throws {
    let text = #"[{"tap": {"x": 1}}, {"tap": {"x": 2}}, {"tap": {"x": 3}}]"#
    let keeper = CaseKeeper()
    let values = try ExternalKeeps.$keeper.withValue(keeper) {
      try [ExternalKeeps](jsonData: Data(text.utf8))
    }
    #expect(values == [.tap(x: 1), .tap(x: 2), .tap(x: 3)])
    // More values of the same enum on new readers, then the kept containers asked.
    let more = #"[{"tap": {"x": 7}}, {"tap": {"x": 8}}, {"tap": {"x": 9}}, {"tap": {"x": 10}}]"#
    let later = try ExternalKeeps.$keeper.withValue(keeper) {
      try [ExternalKeeps](jsonString: more)
    }
    #expect(later == (7...10).map { .tap(x: $0) })
    // The kept containers asked while each later value was live (0 + 1 + 2, then 3 + 4 + 5 +
    // 6), then once more after...
    let own = [1, 2, 3, 7, 8, 9, 10]
    expectOwnOrRefused(keeper.answers(), count: 21 + 7, own: own)
    // ...and once more on another thread.
    let elsewhere = await Task.detached { keeper.answers() }.value
    expectOwnOrRefused(elsewhere, count: 21 + 14, own: own)
  }

  @Test("a case container asked on another thread while values end: its own case, always")
  func askedElsewhere() throws {
    let text =
      "["
      + (0..<200).map { #"{"aCaseNameLongEnoughToLiveOnTheHeap": {"x": \#($0)}}"# }
      .joined(separator: ",") + "]"
    LatestCase.stop.withLock { $0 = false }
    let result = Shared((answers: 0, wrong: [String]()))
    // A thread of its own, not a task: a busy pool could run it only after the decoding.
    let asker = Thread {
      while !LatestCase.stop.current {
        guard let answer = LatestCase.ask.current?() else { continue }
        result.withLock { result in
          result.answers += 1
          if answer != #"["aCaseNameLongEnoughToLiveOnTheHeap"] true"#, result.wrong.count < 5 {
            result.wrong.append(answer)
          }
        }
      }
      LatestCase.stop.withLock { $0 = false }  // answered: the asker is done
    }
    asker.start()
    // At least 50 rounds, and on until the asker asked 1 000 times (at most 5 seconds).
    let start = Date()
    var rounds = 0
    while rounds < 50 || (result.current.answers < 1_000 && Date().timeIntervalSince(start) < 5) {
      #expect(try [LongCase](jsonString: text).count == 200)
      rounds += 1
    }
    LatestCase.stop.withLock { $0 = true }
    while LatestCase.stop.current { Thread.sleep(forTimeInterval: 0.001) }
    #expect(result.current.answers > 0)
    #expect(result.current.wrong.isEmpty, "\(result.current.wrong)")
  }

  @Test("a root decoder held weakly is not used again: it never shows the next value")
  func weaklyHeld() throws {
    let text = "[" + (1...6).map { #"{"tap": {"x": \#($0)}}"# }.joined(separator: ",") + "]"
    let holder = WeakHolder()
    let values = try WeaklyKeeps.$holder.withValue(holder) {
      try [WeaklyKeeps](jsonString: text)
    }
    #expect(values == (1...6).map { .tap(x: $0) })
    // What the decoder of value n showed while value n + 1 was read: its own payload, or a
    // refusal, or nothing (freed); never n + 1.
    #expect(holder.answers.count == 6)
    for (index, answer) in holder.answers.enumerated().dropFirst() {
      #expect(
        answer == "refused" || answer == "gone" || answer == "\(index)", "\(index): \(answer)")
    }
  }

  @Test("adjacent tag: the same, with the tag before or after the content")
  func adjacent() throws {
    let text =
      #"[{"type": "tap", "value": {"x": 1}}, {"value": {"x": 2}, "type": "tap"}, {"type": "tap", "value": {"x": 3}}]"#
    let keeper = CaseKeeper()
    let values = try AdjacentKeeps.$keeper.withValue(keeper) {
      try [AdjacentKeeps](jsonString: text)
    }
    #expect(values == [.tap(x: 1), .tap(x: 2), .tap(x: 3)])
    #expect(try [AdjacentKeeps](jsonString: text) == values)
    expectOwnOrRefused(keeper.answers(), count: 0 + 1 + 2 + 3, own: [1, 2, 3])
    // A repeated case key (external) and a repeated tag (adjacent): the reference decides.
    let repeated = #"{"tap": {"x": 1}, "tap": {"x": 2}}"#
    #expect(
      try ExternalKeeps(jsonString: repeated) == ExternalKeeps(decode: JSON(jsonString: repeated)))
    #expect(
      try AdjacentKeeps(jsonString: #"{"type": "tap", "value": {"x": 1}, "type": "tap"}"#)
        == AdjacentKeeps(
          decode: JSON(jsonString: #"{"type": "tap", "value": {"x": 1}, "type": "tap"}"#)))
  }
}
