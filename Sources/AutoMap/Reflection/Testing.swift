import CAutoMapShims

/// Hooks for AutoMap's own tests, reached through `@_spi(Testing) import AutoMap`; not API.
@_spi(Testing)
public enum AutoMapTesting {
  /// Makes every model's next use a first use again: decoding and encoding go through
  /// `init(decode:)` and `json` until the reflection default is seen once more. Safe at any
  /// time (both ways give the same results); tests use it to check first uses repeatedly.
  public static func forgetReflection() {
    for state in CodecCache.decodeStates { state.forgetReflected() }
    for state in ModelEncoding.allStates { state.forgetReflected() }
  }

  /// Makes the next decode of `type` a first use again, as ``forgetReflection()`` does for
  /// every model, leaving every other type alone: for tests that run beside others, whose
  /// calls would otherwise change path under them. `false` when `type` has no reflection to
  /// forget (it is not a model: `[Model]`, `Int`).
  @discardableResult
  public static func forgetReflection(decoding type: Any.Type) -> Bool {
    guard let state = CodecCache.decoder(for: type).model else { return false }
    state.forgetReflected()
    return true
  }
}

extension AutoMapTesting {
  /// The implementations `Sources/AutoMap/Platform` chose on this system and build: with
  /// `-DAUTOMAP_FALLBACKS`, tests check that every fallback is the one running.
  public static var platformChoices: [String: String] {
    [
      "lock": Locked(0).implementation,
      "strings": checkedStringImplementation,
      "asyncIteration": nextElementImplementation,
    ]
  }

  /// A `checkedString` call, for tests that compare it with the standard library.
  public static func checkedString(_ bytes: [UInt8], isASCII: Bool) -> String? {
    bytes.withUnsafeBufferPointer { AutoMap.checkedString($0, isASCII: isASCII) }
  }
}

extension AutoMapTesting {
  /// A counter behind the library's lock (``Locked``), for tests that race it.
  public final class LockedCounter: Sendable {
    private let count = Locked(0)
    public func increment() { count.withLock { $0 += 1 } }
    public var value: Int { count.withLock { $0 } }
  }

  public static func lockedCounter() -> LockedCounter { LockedCounter() }
}

extension AutoMapTesting {
  /// What ``TypeFacts`` answers for `type`: whether it is `JSONDecodable` and
  /// `JSONEncodable`, for tests that compare it with the casts it stands for.
  public static func typeFacts(_ type: Any.Type) -> [Bool] {
    let facts = TypeFacts.of(type)
    return [facts.contains(.decodable), facts.contains(.encodable)]
  }
}

extension AutoMapTesting {
  /// What the untagged byte path's check of a document's keys answers (see
  /// `JSONReader.skipCheckingKeys()`): `true` when every key is plain and distinct in its
  /// object; `nil` for malformed text.
  public static func keysAreClean(_ text: String) -> Bool? {
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBytes { raw in
      try? JSONReader.withReader(raw) { try $0.skipCheckingKeys() }
    }
  }
}

extension AutoMapTesting {
  /// A case container's `allKeys` for `name`, looked for from slot `home` of the shared table
  /// on, as ``CaseKeys`` looks from the slot its hash gives: tests make names meet.
  public static func caseKeys<Key: CodingKey>(_: Key.Type, named name: String, home: Int)
    -> [Key]
  {
    CaseKeys.keys(Key.self, named: name, home: home)
  }

  /// Empties the shared table of case keys (its entries stay allocated).
  public static func forgetCaseKeys() { CaseKeys.forgetAll() }

  /// How many keyed containers the byte decoders and encoders made on this thread, rather
  /// than handing out one they kept.
  public static var containersMade: Int { automap_containers_made_count() }

  /// Whether this system's keyed decoding and encoding containers can be kept (both are, where
  /// the standard library boxes a container as Swift's has since 4.0).
  public static var keepsContainers: (decoding: Bool, encoding: Bool) {
    (ByteDecoder.keepsContainers, ByteEncoder.keepsContainers)
  }
}
