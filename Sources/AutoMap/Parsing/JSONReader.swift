import CAutoMapShims

/// A cursor over UTF-8 JSON text: the one lexer that both the `JSON` parser and the model
/// decoder read through.
///
/// Design (after swift-foundation's `JSONScanner`, without its tape): the reader works on a
/// raw buffer that the caller keeps alive for the reader's whole life, moves a pointer
/// forward, and never allocates except to build the `String`s it is asked for (and a scratch
/// buffer for strings with escapes). Positions, line and column are worked out only when an
/// error is thrown.
///
/// Invariants:
/// - `start <= cursor <= end`, all within the caller's buffer; every read checks `cursor <
///   end` first.
/// - `depth` counts the arrays and objects open on the current path and never exceeds
///   ``JSON/maximumDepth``: deeper input throws ``JSON/Error/Kind-swift.enum/tooDeep(limit:)``
///   instead of recursing further.
struct JSONReader {
  /// Set once, or by ``rebase(_:count:)``.
  private(set) var start: UnsafePointer<UInt8>
  private(set) var end: UnsafePointer<UInt8>
  var cursor: UnsafePointer<UInt8>
  var depth = 0
  /// Reused for strings that contain escapes.
  var scratch: [UInt8] = []
  /// Reused by the parser for the elements of open containers and the keys it has made;
  /// made on first use, so that decoding a model, which needs neither, does not allocate it.
  /// A stream passes the one it keeps for all its elements.
  lazy var stacks = ParseStacks()
  /// The key style the call set, if any; models use their own otherwise.
  private(set) var keyStyle: JSON.KeyStyle?
  /// A number beyond `Double`'s range is an error (`JSON(jsonData:)`), rather than a value
  /// that fails only when a model reads it (while mapping, so that a property's fallback can
  /// stand in for it on every path).
  var rejectsUnrepresentableNumbers = false
  /// Roots of byte `Decoder` sessions that finished and that nothing outlived, kept for the
  /// next `Codable` values this reader meets (``ByteDecoding/run(_:_:into:_:)``), linked
  /// through `nextSpare`. A reader that was copied leaves them alone (they are taken only
  /// when no copy holds them), so copies never share one.
  var spareRoot: ByteDecoder?

  /// A reader over `count` bytes at `start`; a stream passes the `stacks` it keeps for all
  /// its elements.
  init(start: UnsafePointer<UInt8>, count: Int, stacks: ParseStacks? = nil) {
    self.start = start
    self.end = start + count
    self.cursor = start
    keyStyle = KeyStyleContext.override
    if let stacks { self.stacks = stacks }
  }

  /// A reader at the same place in the same bytes, with the same settings, that shares none
  /// of this one's buffers or spares (scratch, stacks, spare `Decoder` roots): for looking
  /// ahead, or for a session of its own, with no retain per field as a copy makes.
  func detached() -> JSONReader { JSONReader(detachedFrom: self) }

  private init(detachedFrom other: JSONReader) {
    start = other.start
    end = other.end
    cursor = other.cursor
    depth = other.depth
    keyStyle = other.keyStyle
    rejectsUnrepresentableNumbers = other.rejectsUnrepresentableNumbers
  }

  /// Points the reader at `count` bytes at `start`, at depth 0, with the current call's key
  /// style: a stream reads each element with the reader of the one before, which keeps what
  /// it made (stacks, scratch, spare `Decoder` roots).
  mutating func rebase(_ start: UnsafePointer<UInt8>, count: Int) {
    self.start = start
    end = start + count
    cursor = start
    depth = 0
    keyStyle = KeyStyleContext.override
  }

  /// Runs `body` with a reader over `bytes`, after skipping a UTF-8 byte order mark. Empty
  /// input is an error.
  static func withReader<R>(
    _ bytes: UnsafeRawBufferPointer, stacks: ParseStacks? = nil,
    _ body: (inout JSONReader) throws -> R
  ) throws -> R {
    guard let base = bytes.baseAddress, !bytes.isEmpty else {
      throw JSON.Error(
        .malformed(offset: 0, line: 1, column: 1),
        "malformed JSON at byte 0 (line 1, column 1): empty input, expected a JSON value")
    }
    var reader = JSONReader(
      start: base.assumingMemoryBound(to: UInt8.self), count: bytes.count, stacks: stacks)
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
      reader.cursor += 3
    }
    return try body(&reader)
  }

  // MARK: Bytes and whitespace

  var isAtEnd: Bool { cursor >= end }

  /// Skips JSON whitespace (space, tab, line feed, carriage return).
  @inline(__always)
  mutating func skipWhitespace() {
    while cursor < end {
      let byte = cursor.pointee
      if byte > 0x20 { return }  // the usual case: no whitespace at all
      guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
      cursor += 1
      // One space, as after a colon in pretty-printed text.
      if cursor < end, cursor.pointee > 0x20 { return }
      // Indentation: runs of spaces, eight at a time.
      while end - cursor >= 8 {
        let word = UInt64(littleEndian: UnsafeRawPointer(cursor).loadUnaligned(as: UInt64.self))
        let others = word ^ 0x2020_2020_2020_2020
        if others != 0 {
          cursor += others.trailingZeroBitCount >> 3
          break
        }
        cursor += 8
      }
    }
  }

  /// Skips whitespace and returns the next byte without consuming it, or `nil` at the end.
  @inline(__always)
  mutating func peekByte() -> UInt8? {
    skipWhitespace()
    return cursor < end ? cursor.pointee : nil
  }

  /// Skips whitespace and consumes `byte`, or throws naming what was expected.
  @inline(__always)
  mutating func expect(_ byte: UInt8, _ what: @autoclosure () -> String) throws {
    skipWhitespace()
    guard cursor < end, cursor.pointee == byte else { throw syntaxError(expected: what()) }
    cursor += 1
  }

  /// After the top-level value: only whitespace may follow.
  mutating func expectEnd() throws {
    skipWhitespace()
    if cursor < end { throw syntaxError(expected: "end of input after the JSON value") }
  }

  /// Opens an array or object: one level deeper, bounded.
  @inline(__always)
  mutating func enterContainer() throws {
    depth += 1
    if depth > JSON.maximumDepth || automap_stack_is_low() { throw tooDeep() }
  }

  /// The error of entering the reader's level: past the bound, or past what the stack holds.
  @inline(never)
  private func tooDeep() -> JSON.Error {
    guard depth > JSON.maximumDepth else {
      return Nesting.stackExhausted(encoding: false, " at byte \(cursor - start)")
    }
    return JSON.Error(
      .tooDeep(limit: JSON.maximumDepth),
      "nesting deeper than \(JSON.maximumDepth) arrays and objects at byte \(cursor - start)")
  }

  @inline(__always)
  mutating func leaveContainer() { depth -= 1 }

  // MARK: Errors

  /// A malformed-input error at `position` (default: the cursor), with line and column.
  func syntaxError(_ message: String, at position: UnsafePointer<UInt8>? = nil) -> JSON.Error {
    positionedError(
      at: position ?? cursor, { .malformed(offset: $0, line: $1, column: $2) }, "malformed JSON",
      message)
  }

  /// An error at `position` whose kind carries the byte offset, line and column:
  /// "`what` at byte 12 (line 1, column 13): `message`".
  func positionedError(
    at position: UnsafePointer<UInt8>, _ kind: (Int, Int, Int) -> JSON.Error.Kind,
    _ what: String, _ message: String
  ) -> JSON.Error {
    let offset = position - start
    var line = 1
    var lineStart = start
    var scan = start
    while scan < position {
      if scan.pointee == 0x0A {
        line += 1
        lineStart = scan + 1
      }
      scan += 1
    }
    let column = position - lineStart + 1
    return JSON.Error(
      kind(offset, line, column),
      "\(what) at byte \(offset) (line \(line), column \(column)): \(message)")
  }

  /// "expected X, found Y" at the cursor.
  func syntaxError(expected: String) -> JSON.Error {
    syntaxError("expected \(expected), found \(describeByte(at: cursor))")
  }

  func describeByte(at position: UnsafePointer<UInt8>) -> String {
    guard position < end else { return "end of input" }
    return Self.describe(position.pointee)
  }

  /// A byte as error messages name it: `'x'`, `space`, `byte 0x7F`.
  static func describe(_ byte: UInt8) -> String {
    if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    switch byte {
    case 0x20: return "space"
    case 0x0A: return "line feed"
    case 0x09: return "tab"
    case 0x0D: return "carriage return"
    default:
      let hex = String(byte, radix: 16, uppercase: true)
      return "byte 0x\(hex.count == 1 ? "0" + hex : hex)"
    }
  }
}

extension JSON {
  /// How deeply arrays and objects may nest in text AutoMap reads: 512. Deeper input is an
  /// error (``Error/Kind-swift.enum/tooDeep(limit:)``), never a stack overflow; so is input
  /// the thread's stack cannot hold (a 512 KiB dispatch queue's holds fewer levels).
  public static let maximumDepth = 512
}
