/// What a case's `init(from:)` asks of its payload before a missing key fails it, learned once
/// per case when an untagged plan is built: the key it reads with `decode` first, and the keys
/// it only looked up before (`decodeIfPresent`, `contains`).
///
/// A payload that holds none of those keys fails the case at that key, having read nothing:
/// the trial on bytes is not run (``UntaggedEnum/decodeBytes(_:into:)``). A payload that holds a
/// key looked up is read further, where anything can happen (a nested type that cannot be
/// mapped throws an error no later case may hide), so the case is tried.
///
/// ```swift
/// enum Gesture: JSONCodable, Codable {
///   case tap(x: Int, y: Int)            // needs: "x"
///   case swipe(label: String?, dx: Int) // needs: "dx", after looking up "label"
/// }
/// ```
struct UntaggedCaseNeeds: Sendable, Equatable {
  /// The key read with `decode`: a payload without it fails the case.
  let required: String
  /// The keys looked up before it, in order.
  let lookedUp: [String]
  /// Whether ``required`` is a label, not a position (`_0`, `_1`, …): synthesized
  /// `encode(to:)` writes it back, so the case is written as an object.
  let requiresLabel: Bool

  /// Whether the payload `{"_0": value}` (the document read as one value) fails the case.
  let failsAsOneValue: Bool

  init(required: String, lookedUp: [String]) {
    self.required = required
    self.lookedUp = lookedUp
    requiresLabel = Self.position(required) == nil
    failsAsOneValue = Self.fails(required, lookedUp) { $0 == "_0" }
  }

  /// Whether a payload whose keys `has` tells fails the case at ``required``, having read
  /// nothing.
  @inline(__always)
  func fail(_ has: (String) throws -> Bool) rethrows -> Bool {
    try Self.fails(required, lookedUp, has)
  }

  /// ``fail(_:)`` for needs being made: the payload holds neither `required` nor a key
  /// looked up before it.
  @inline(__always)
  private static func fails(
    _ required: String, _ lookedUp: [String], _ has: (String) throws -> Bool
  ) rethrows -> Bool {
    if try has(required) { return false }
    for key in lookedUp where try has(key) { return false }
    return true
  }

  /// The position `n` a key such as `_3` names (as synthesized code names unlabeled
  /// payloads); `nil` for a label.
  static func position(_ key: String) -> Int? {
    guard key.hasPrefix("_"), let position = Int(key.dropFirst()), position >= 0,
      key == "_\(position)"
    else { return nil }
    return position
  }

  /// Runs `E.init(from:)` on the external-tag form `{"<caseKey>": {}}`, noting what it asks of
  /// the payload; `nil` when it does anything but look keys up and then `decode` one (reads
  /// `allKeys`, nested containers, other forms), or never asks for a key.
  static func learn<E: Decodable>(_: E.Type, caseKey: String) -> UntaggedCaseNeeds? {
    let probe = NeedsProbe(caseKey: caseKey)
    // A case that goes on after the missing key (it caught the error) needs something else.
    guard (try? E(from: probe)) == nil, !probe.unsure, let required = probe.required else {
      return nil
    }
    return UntaggedCaseNeeds(required: required, lookedUp: probe.lookedUp)
  }
}

/// The decoder of ``UntaggedCaseNeeds/learn(_:caseKey:)``: one case key, an empty payload.
private final class NeedsProbe: Decoder {
  struct Stop: Error {}

  let caseKey: String
  var lookedUp: [String] = []
  var required: String?
  var unsure = false

  init(caseKey: String) { self.caseKey = caseKey }

  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  /// Anything but what synthesized code asks: the needs are unknown.
  func refuse() -> Stop {
    unsure = true
    return Stop()
  }

  func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(NeedsCaseContainer<Key>(probe: self))
  }
  func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw refuse() }
  func singleValueContainer() throws -> any SingleValueDecodingContainer { throw refuse() }
}

/// `{"<case>": {}}`.
private struct NeedsCaseContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let probe: NeedsProbe

  var codingPath: [any CodingKey] { [] }
  var allKeys: [Key] { CaseKeys.built(Key.self, probe.caseKey) }
  func contains(_ key: Key) -> Bool { JSON.sameKey(key.stringValue, probe.caseKey) }
  func decodeNil(forKey _: Key) throws -> Bool { throw probe.refuse() }
  func decode<T: Decodable>(_: T.Type, forKey _: Key) throws -> T { throw probe.refuse() }

  func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type, forKey key: Key) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    guard JSON.sameKey(key.stringValue, probe.caseKey) else { throw probe.refuse() }
    return KeyedDecodingContainer(NeedsPayloadContainer<NestedKey>(probe: probe))
  }

  func nestedUnkeyedContainer(forKey _: Key) throws -> any UnkeyedDecodingContainer {
    throw probe.refuse()
  }
  func superDecoder() throws -> any Decoder { throw probe.refuse() }
  func superDecoder(forKey _: Key) throws -> any Decoder { throw probe.refuse() }
}

/// The empty payload: every key is missing. (`decodeIfPresent` asks `contains` first.)
private struct NeedsPayloadContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let probe: NeedsProbe

  var codingPath: [any CodingKey] { [] }
  var allKeys: [Key] {
    probe.unsure = true  // the case looks at what the payload holds
    return []
  }

  func contains(_ key: Key) -> Bool {
    if probe.required == nil {
      probe.lookedUp.append(key.stringValue)
    } else {
      probe.unsure = true  // it went on after the missing key
    }
    return false
  }

  func decodeNil(forKey key: Key) throws -> Bool { throw missing(key) }
  func decode<T: Decodable>(_: T.Type, forKey key: Key) throws -> T { throw missing(key) }

  /// The error a real decoder throws for a missing key, so that a `catch` in the case's code
  /// runs as it would on a document (and what it asks then is seen).
  private func missing(_ key: Key) -> DecodingError {
    if probe.required == nil {
      probe.required = key.stringValue
    } else {
      probe.unsure = true  // it went on after the missing key
    }
    return DecodingError.keyNotFound(
      key, DecodingError.Context(codingPath: [], debugDescription: "probe (internal)"))
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type, forKey _: Key) throws
    -> KeyedDecodingContainer<NestedKey>
  { throw probe.refuse() }
  func nestedUnkeyedContainer(forKey _: Key) throws -> any UnkeyedDecodingContainer {
    throw probe.refuse()
  }
  func superDecoder() throws -> any Decoder { throw probe.refuse() }
  func superDecoder(forKey _: Key) throws -> any Decoder { throw probe.refuse() }
}
