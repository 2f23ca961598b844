/// The bytes between a string's quotes, as found by ``JSONReader/scanString()``.
struct StringSpan {
  var start: UnsafePointer<UInt8>
  var count: Int
  /// The string contains backslash escapes (all already checked for syntax and surrogates).
  var hasEscapes: Bool
  /// Every byte is below 0x80, so the bytes are valid UTF-8 as they are.
  var isASCII: Bool

  var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }
}

private let ones: UInt64 = 0x0101_0101_0101_0101
private let highBits: UInt64 = 0x8080_8080_8080_8080

/// Whether any byte of `word` is zero (exact as a yes/no test).
@inline(__always)
private func hasZeroByte(_ word: UInt64) -> UInt64 {
  (word &- ones) & ~word & highBits
}

/// The index (0 to 7) of the first byte of `word` (loaded little-endian) that ends a run of
/// plain string content: `"`, `\` or a control byte below 0x20; 8 when none does. The reader
/// stops there to look; the writer, to escape. Exact: the word-wise tests can only misfire
/// in bytes above one they rightly found.
@inline(__always)
func firstStringStop(_ word: UInt64) -> Int {
  let quote = hasZeroByte(word ^ (ones &* 0x22))
  let backslash = hasZeroByte(word ^ (ones &* 0x5C))
  let control = (word &- ones &* 0x20) & ~word & highBits
  return (quote | backslash | control).trailingZeroBitCount >> 3
}

/// Whether `byte` ends a run of plain string content (`"`, `\` or a control byte): the
/// byte-at-a-time twin of ``firstStringStop(_:)``.
@inline(__always)
func isStringStop(_ byte: UInt8) -> Bool {
  byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
}

/// Whether the `count` bytes at `a` and at `b` are equal: keys are short, so eight bytes at
/// a time inline beats a call to `memcmp`.
@inline(__always)
func sameBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
  var index = 0
  while count - index >= 8 {
    let left = UnsafeRawPointer(a + index).loadUnaligned(as: UInt64.self)
    let right = UnsafeRawPointer(b + index).loadUnaligned(as: UInt64.self)
    if left != right { return false }
    index += 8
  }
  if count - index >= 4 {
    let left = UnsafeRawPointer(a + index).loadUnaligned(as: UInt32.self)
    let right = UnsafeRawPointer(b + index).loadUnaligned(as: UInt32.self)
    if left != right { return false }
    index += 4
  }
  while index < count {
    if a[index] != b[index] { return false }
    index += 1
  }
  return true
}

extension JSONReader {
  /// Consumes a string whose opening quote is at the cursor and returns its content span.
  ///
  /// Checks everything but UTF-8 validity of non-ASCII bytes (`isASCII` says whether that is
  /// still to do): control characters, escape syntax, `\u` surrogate pairing, termination.
  /// Scans eight bytes at a time and steps straight to the first quote, backslash or control
  /// byte.
  @inline(__always)
  mutating func scanString() throws -> StringSpan {
    guard cursor < end, cursor.pointee == UInt8(ascii: "\"") else {
      throw syntaxError(expected: "a string")
    }
    cursor += 1
    let contentStart = cursor
    var hasEscapes = false
    var highSeen: UInt64 = 0
    while true {
      // Fast path: eight bytes with no quote, backslash or control character.
      while end - cursor >= 8 {
        let word = UInt64(littleEndian: UnsafeRawPointer(cursor).loadUnaligned(as: UInt64.self))
        let stop = firstStringStop(word)
        if stop < 8 {
          // Step to the stop at once; the bytes before it are plain content.
          highSeen |= word & ((1 << UInt64(stop &* 8)) &- 1)
          cursor += stop
          break
        }
        highSeen |= word
        cursor += 8
      }
      guard cursor < end else {
        throw syntaxError("unterminated string", at: contentStart - 1)
      }
      let byte = cursor.pointee
      switch byte {
      case UInt8(ascii: "\""):
        let span = StringSpan(
          start: contentStart, count: cursor - contentStart, hasEscapes: hasEscapes,
          isASCII: highSeen & highBits == 0)
        cursor += 1
        return span
      case UInt8(ascii: "\\"):
        hasEscapes = true
        try scanEscape()
      case 0..<0x20:
        throw syntaxError(
          "control character \(describeByte(at: cursor)) in string; write it as an escape")
      default:
        highSeen |= UInt64(byte)
        cursor += 1
      }
    }
  }

  /// Checks one escape at the cursor (the backslash) and moves past it.
  private mutating func scanEscape() throws {
    let escapeStart = cursor
    cursor += 1
    guard cursor < end else { throw syntaxError("unterminated string", at: escapeStart) }
    switch cursor.pointee {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
      UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      cursor += 1
    case UInt8(ascii: "u"):
      cursor += 1
      let unit = try readHex4(escapeStart)
      if (0xD800...0xDBFF).contains(unit) {
        guard end - cursor >= 6, cursor[0] == UInt8(ascii: "\\"), cursor[1] == UInt8(ascii: "u")
        else {
          throw syntaxError(
            "high surrogate \\u\(hex4(unit)) not followed by a low surrogate escape",
            at: escapeStart)
        }
        let secondStart = cursor
        cursor += 2
        let low = try readHex4(secondStart)
        guard (0xDC00...0xDFFF).contains(low) else {
          throw syntaxError(
            "high surrogate \\u\(hex4(unit)) followed by \\u\(hex4(low)), not a low surrogate",
            at: secondStart)
        }
      } else if (0xDC00...0xDFFF).contains(unit) {
        throw syntaxError("lone low surrogate \\u\(hex4(unit))", at: escapeStart)
      }
    default:
      throw syntaxError("invalid escape \\\(describeByte(at: cursor))", at: escapeStart)
    }
  }

  private mutating func readHex4(_ escapeStart: UnsafePointer<UInt8>) throws -> UInt16 {
    guard end - cursor >= 4 else {
      throw syntaxError("\\u escape needs four hex digits", at: escapeStart)
    }
    var value: UInt16 = 0
    for _ in 0..<4 {
      let byte = cursor.pointee
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default:
        throw syntaxError("\\u escape needs four hex digits, found \(describeByte(at: cursor))")
      }
      value = value << 4 | UInt16(digit)
      cursor += 1
    }
    return value
  }

  private func hex4(_ value: UInt16) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: 4 - digits.count) + digits
  }

  // MARK: Materialising

  /// Consumes a string and returns it.
  @inline(__always)
  mutating func readString() throws -> String {
    let span = try scanString()
    return try string(from: span)
  }

  /// The `String` for a scanned span: validates non-ASCII bytes, resolves escapes.
  ///
  /// The bytes are validated once, by ``checkedString(_:isASCII:)`` as it makes the string.
  /// Resolving escapes cannot make valid bytes invalid or invalid bytes valid (an escape
  /// stands for whole characters, and its first byte is never a continuation byte), so the
  /// resolved bytes are checked and an error points into the span's own bytes.
  mutating func string(from span: StringSpan) throws -> String {
    let made =
      span.hasEscapes
      ? withUnescaped(span) { checkedString($0, isASCII: span.isASCII && isASCII($0)) }
      : checkedString(span.buffer, isASCII: span.isASCII)
    guard let made else { throw invalidUTF8Error(in: span.buffer) }
    return made
  }

  /// Checks that a span's bytes are valid UTF-8 without building a string.
  func validateUTF8(_ span: StringSpan) throws {
    if span.isASCII { return }
    if firstInvalidUTF8Offset(span.buffer) != nil { throw invalidUTF8Error(in: span.buffer) }
  }

  func invalidUTF8Error(in buffer: UnsafeBufferPointer<UInt8>) -> JSON.Error {
    let offset = firstInvalidUTF8Offset(buffer) ?? 0
    guard let base = buffer.baseAddress else { return syntaxError("invalid UTF-8 in string") }
    return syntaxError(
      "invalid UTF-8 in string: \(describeByte(at: base + offset)) cannot start or continue a character here",
      at: base + offset)
  }

  /// Calls `body` with the bytes `span` stands for, its escapes resolved (into `scratch`).
  mutating func withUnescaped<R>(
    _ span: StringSpan, _ body: (UnsafeBufferPointer<UInt8>) throws -> R
  ) rethrows -> R {
    if scratch.count < span.count {
      scratch = Array(repeating: 0, count: max(span.count, 2 * scratch.count, 64))
    }
    return try scratch.withUnsafeMutableBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return try body(UnsafeBufferPointer(buffer)) }
      let count = Self.unescape(span, into: base)
      return try body(UnsafeBufferPointer(start: base, count: count))
    }
  }

  /// Writes the bytes `span` stands for, its escapes resolved, to `destination` (room for
  /// `span.count` bytes: resolving escapes never lengthens text) and returns their count.
  /// `scanString()` checked the escapes' syntax and surrogate pairs.
  static func unescape(_ span: StringSpan, into destination: UnsafeMutablePointer<UInt8>) -> Int {
    var position = span.start
    let limit = span.start + span.count
    var out = destination
    while position < limit {
      // Plain runs, eight bytes at a time while no backslash is among them.
      while limit - position >= 8 {
        let word = UnsafeRawPointer(position).loadUnaligned(as: UInt64.self)
        if hasZeroByte(word ^ (ones &* 0x5C)) != 0 { break }
        UnsafeMutableRawPointer(out).storeBytes(of: word, as: UInt64.self)
        position += 8
        out += 8
      }
      guard position < limit else { break }
      let byte = position.pointee
      guard byte == UInt8(ascii: "\\") else {
        out.pointee = byte
        out += 1
        position += 1
        continue
      }
      let kind = position[1]
      position += 2
      switch kind {
      case UInt8(ascii: "b"): out.pointee = 0x08
      case UInt8(ascii: "f"): out.pointee = 0x0C
      case UInt8(ascii: "n"): out.pointee = 0x0A
      case UInt8(ascii: "r"): out.pointee = 0x0D
      case UInt8(ascii: "t"): out.pointee = 0x09
      case UInt8(ascii: "u"):
        var scalar = UInt32(hexValue(position))
        position += 4
        if (0xD800...0xDBFF).contains(scalar) {
          let low = UInt32(hexValue(position + 2))
          position += 6
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        out += writeUTF8(scalar, to: out)
        continue
      default: out.pointee = kind  // " \ /
      }
      out += 1
    }
    return out - destination
  }

  private static func hexValue(_ position: UnsafePointer<UInt8>) -> UInt16 {
    var value: UInt16 = 0
    for index in 0..<4 {
      let byte = position[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      default: digit = byte - UInt8(ascii: "A") + 10
      }
      value = value << 4 | UInt16(digit)
    }
    return value
  }

  /// Writes `scalar` as UTF-8 at `out` and returns the byte count (1 to 4; an escape of
  /// `\u` form is 6 or 12 bytes, so it always has the room).
  private static func writeUTF8(_ scalar: UInt32, to out: UnsafeMutablePointer<UInt8>) -> Int {
    switch scalar {
    case 0..<0x80:
      out[0] = UInt8(scalar)
      return 1
    case 0x80..<0x800:
      out[0] = UInt8(0xC0 | scalar >> 6)
      out[1] = UInt8(0x80 | scalar & 0x3F)
      return 2
    case 0x800..<0x10000:
      out[0] = UInt8(0xE0 | scalar >> 12)
      out[1] = UInt8(0x80 | scalar >> 6 & 0x3F)
      out[2] = UInt8(0x80 | scalar & 0x3F)
      return 3
    default:
      out[0] = UInt8(0xF0 | scalar >> 18)
      out[1] = UInt8(0x80 | scalar >> 12 & 0x3F)
      out[2] = UInt8(0x80 | scalar >> 6 & 0x3F)
      out[3] = UInt8(0x80 | scalar & 0x3F)
      return 4
    }
  }
}

/// Whether every byte of `bytes` is below 0x80.
func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
  guard let base = bytes.baseAddress else { return true }
  var index = 0
  var seen: UInt8 = 0
  while bytes.count - index >= 8 {
    let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
    if word & highBits != 0 { return false }
    index += 8
  }
  while index < bytes.count {
    seen |= base[index]
    index += 1
  }
  return seen < 0x80
}

/// The offset of the first byte that makes `bytes` invalid UTF-8 (overlong forms,
/// surrogates, values above U+10FFFF, truncated sequences), or `nil` when valid.
///
/// Valid text, the common case, is checked by ``UTF8Automaton``; only invalid text is walked
/// again, character by character, to find where it fails.
func firstInvalidUTF8Offset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
  if UTF8Automaton.accepts(bytes) { return nil }
  return firstInvalidUTF8OffsetByCharacter(bytes)
}

/// The character-by-character form of ``firstInvalidUTF8Offset(_:)``, which says where
/// the text fails. ASCII is stepped over eight bytes at a time; two- and three-byte
/// characters are checked by a test on their bits before the general case.
func firstInvalidUTF8OffsetByCharacter(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
  var index = 0
  let count = bytes.count
  guard let base = bytes.baseAddress else { return nil }
  while index < count {
    // ASCII runs, eight bytes at a time, then straight to the first byte above 0x7F.
    while count - index >= 8 {
      let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
      let high = word & highBits
      index += high.trailingZeroBitCount >> 3
      if high != 0 { break }
    }
    guard index < count else { break }
    let lead = base[index]
    if lead < 0x80 {
      index += 1
      continue
    }
    if count - index >= 3 {
      let second = base[index + 1]
      let third = base[index + 2]
      // U+0800...U+FFFF but for the surrogates: E1-EC, EE-EF with two continuation bytes,
      // E0 with A0-BF, ED with 80-9F.
      if lead & 0xF0 == 0xE0, second & 0xC0 == 0x80, third & 0xC0 == 0x80,
        lead != 0xE0 || second >= 0xA0, lead != 0xED || second < 0xA0
      {
        index += 3
        continue
      }
      // U+0080...U+07FF.
      if lead >= 0xC2, lead <= 0xDF, second & 0xC0 == 0x80 {
        index += 2
        continue
      }
    }
    // The general case: every lead byte, each with its own range for the second byte.
    switch checkSequence(base + index, count - index) {
    case .valid(let length): index += length
    case .invalid(let offset): return index + offset
    }
  }
  return nil
}

private enum SequenceCheck {
  case valid(length: Int)
  /// The offset of the byte that makes the sequence invalid (0: it cannot start one).
  case invalid(at: Int)
}

/// Checks the UTF-8 sequence at `start`, which has `available` bytes to use.
private func checkSequence(_ start: UnsafePointer<UInt8>, _ available: Int) -> SequenceCheck {
  let lead = start.pointee
  let length: Int
  var lower: UInt8 = 0x80
  var upper: UInt8 = 0xBF
  switch lead {
  case 0xC2...0xDF: length = 2
  case 0xE0:
    length = 3
    lower = 0xA0
  case 0xE1...0xEC, 0xEE...0xEF: length = 3
  case 0xED:
    length = 3
    upper = 0x9F
  case 0xF0:
    length = 4
    lower = 0x90
  case 0xF1...0xF3: length = 4
  case 0xF4:
    length = 4
    upper = 0x8F
  default: return .invalid(at: 0)
  }
  guard length <= available else { return .invalid(at: 0) }
  let second = start[1]
  guard second >= lower && second <= upper else { return .invalid(at: 1) }
  for next in 2..<length where start[next] & 0xC0 != 0x80 {
    return .invalid(at: next)
  }
  return .valid(length: length)
}
