import AutoMap
import Foundation
import Testing

// The byte `Decoder` shows an enum in the external- and adjacent-tag layouts to its
// `init(from:)` through a case container that reads the case from the enum's root decoder,
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

@Suite("Case containers kept past their enum value")
struct VirtualCaseContainerTests {
  /// Each kept container answers with its own value's case and payload, or refuses (no keys,
  /// no payload); never with a later value's, as it would if its decoder were reused (checked
  /// by taking roots that are not unique from the reader's spares: later cases were shown).
  private func expectOwnOrRefused(_ answers: [(Int, String)], count: Int, own: [Int]) {
    #expect(answers.count == count)
    for (index, answer) in answers {
      #expect(answer == "[] refused" || answer == "[\"tap\"] \(own[index])", "\(index): \(answer)")
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
