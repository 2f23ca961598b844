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
}
