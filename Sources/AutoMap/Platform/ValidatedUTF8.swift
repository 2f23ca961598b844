/// A `String` holding `bytes`, which the caller has checked to be valid UTF-8.
///
/// `isASCII` must be true only when every byte is below 0x80 (false is always safe).
///
/// Where the system has `UTF8Span` (macOS 26, iOS 26, and every Linux), the string is made
/// from the bytes as they are, without the standard library validating them a second time.
/// Elsewhere (or built with `-DAUTOMAP_FALLBACKS`) the standard library's own
/// `String._tryFromUTF8` makes it: ASCII text is checked eight bytes at a time, and other
/// text is validated again.
@inline(__always)
func validString(_ bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String {
  #if !AUTOMAP_FALLBACKS
    if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
      return unsafe String(copying: UTF8Span(unchecked: bytes.span, isKnownASCII: isASCII))
    }
  #endif
  // The bytes are valid, so this never repairs; `String(decoding:)` only keeps that total.
  return String._tryFromUTF8(bytes) ?? String(decoding: bytes, as: UTF8.self)
}

/// How ``validString(_:isASCII:)`` makes strings on this system and build (for tests).
var validStringImplementation: String {
  #if !AUTOMAP_FALLBACKS
    if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
      return "UTF8Span"
    }
  #endif
  return "_tryFromUTF8"
}
