/// Finding the discriminator of a polymorphic object in its bytes, without building it.
///
/// A class hierarchy (``JSONPolymorphic``) or a registered protocol type chooses the type to
/// build from one member of the object. The byte path scans the object's keys up to the
/// discriminator, stepping over the values before it (writers put it first, so usually none),
/// then puts the cursor back at the object, so that the chosen type's plan reads it in place,
/// watching for a second occurrence of the key (``DecodePlan/readBytes(_:_:watching:)``): a
/// repeated discriminator is left to the `JSON` path, where the last occurrence counts.
/// Nothing is allocated unless the discriminator's string is longer than a small string.
///
/// Every question the scan cannot answer exactly as the `JSON` path would (a discriminator that
/// is not a string, a value naming no type) is left to that path: the caller reads the object
/// as `JSON` there, so errors and defaults have one implementation.
struct DiscriminatorKey: Sendable {
  /// The key's UTF-8 bytes: compared with each key's unescaped bytes, as `JSON.Object`
  /// compares keys.
  let bytes: [UInt8]

  init(_ key: String) { bytes = Array(key.utf8) }

  /// What an object says about its discriminator.
  enum Found {
    /// No member has the key.
    case absent
    /// The key's first occurrence holds `null`.
    case null
    /// The key's first occurrence holds this string.
    case string(String)
    /// The key's first occurrence holds another kind of value (an error the `JSON` path
    /// reports); or the value at the cursor is not an object.
    case other
  }

  /// Scans the object at the reader's cursor up to the key's first occurrence and leaves the
  /// cursor where it was. Malformed text throws the reader's error.
  func find(in reader: inout JSONReader) throws -> Found {
    try scan(&reader, notObject: .other, end: .absent) { reader, isKey in
      guard isKey else {
        try reader.skipValue()
        return nil
      }
      switch reader.peekByte() {
      case UInt8(ascii: "\"")?: return .string(try reader.readString())
      case UInt8(ascii: "n")?:
        try reader.expectLiteral("null")
        return .null
      default: return .other
      }
    }
  }

  /// Whether the object at the reader's cursor has the key more than once (the `JSON` path
  /// takes the last occurrence); leaves the cursor where it was. For readers that do not
  /// watch the keys as they read them. Malformed text throws the reader's error.
  func isRepeated(in reader: inout JSONReader) throws -> Bool {
    var seen = false
    return try scan(&reader, notObject: false, end: false) { reader, isKey in
      if isKey {
        if seen { return true }
        seen = true
      }
      try reader.skipValue()
      return nil
    }
  }

  /// Visits the members of the object at the reader's cursor, each with whether its key is
  /// this key, then puts the cursor back where it was. `visit` reads or skips the member's
  /// value, or returns the result, which ends the scan (`end` when it never does).
  @inline(__always)
  private func scan<R>(
    _ reader: inout JSONReader, notObject: R, end: R,
    _ visit: (inout JSONReader, Bool) throws -> R?
  ) throws -> R {
    let start = reader.cursor
    let depth = reader.depth
    defer {
      reader.cursor = start
      reader.depth = depth
    }
    guard reader.peekByte() == UInt8(ascii: "{") else { return notObject }
    guard try reader.openContainer(UInt8(ascii: "{"), expected: "an object") else { return end }
    repeat {
      reader.skipWhitespace()
      let span = try reader.scanKeyString()
      try reader.expect(UInt8(ascii: ":"), "':' after object key")
      if let result = try visit(&reader, matches(span, &reader)) { return result }
    } while try reader.nextMember()
    return end
  }

  /// Whether a scanned key is this key.
  @inline(__always)
  func matches(_ span: StringSpan, _ reader: inout JSONReader) -> Bool {
    span.hasEscapes ? reader.withUnescaped(span) { equals($0) } : equals(span.buffer)
  }

  @inline(__always)
  private func equals(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
    guard key.count == bytes.count else { return false }
    return bytes.withUnsafeBufferPointer { own in
      guard let a = own.baseAddress, let b = key.baseAddress else { return true }
      return sameBytes(a, b, key.count)
    }
  }
}
