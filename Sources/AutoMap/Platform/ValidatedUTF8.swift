/// A `String` holding `bytes`, or `nil` when they are not valid UTF-8: the bytes are
/// validated once, as the string is made.
///
/// `isASCII` must be true only when every byte is below 0x80 (false is always safe).
///
/// Where the system has `UTF8Span` (macOS 26, iOS 26, and every Linux), AutoMap's own
/// validator (``firstInvalidUTF8Offset(_:)``: a shift-based automaton, eight ASCII bytes at a
/// time) checks non-ASCII bytes and the string is made from them as they are, without the
/// standard library validating them a second time. Elsewhere (or built with
/// `-DAUTOMAP_FALLBACKS`), the standard library's `String._tryFromUTF8` validates them as it
/// makes the string.
@inline(__always)
func checkedString(_ bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String? {
  #if !AUTOMAP_FALLBACKS
    if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
      if !isASCII, firstInvalidUTF8Offset(bytes) != nil { return nil }
      return unsafe String(copying: UTF8Span(unchecked: bytes.span, isKnownASCII: isASCII))
    }
  #endif
  return String._tryFromUTF8(bytes)
}

/// How ``checkedString(_:isASCII:)`` makes strings on this system and build (for tests).
var checkedStringImplementation: String {
  #if !AUTOMAP_FALLBACKS
    if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
      return "UTF8Span"
    }
  #endif
  return "_tryFromUTF8"
}
