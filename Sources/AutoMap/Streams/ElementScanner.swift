#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Finds where each element of a top-level JSON array, or each line of JSON Lines, begins and
/// ends in a stream of bytes, without decoding it: the element's bytes are then decoded by the
/// same code as `T(jsonData:)`, so that streaming changes nothing about what an element means.
///
/// The scanner owns a buffer that the caller fills (``spaceForInput()``, ``didRead(_:)``).
/// For an array it tracks only what decides an element's extent: whether it is inside a
/// string (and after a backslash), and how deeply brackets nest; everything else is left to
/// the decoder, which checks the element's bytes in full. JSON Lines needs less: a line ends
/// at the next line feed. Scanning resumes where it stopped when more input arrives, so each
/// byte is scanned once however the input is split.
///
/// Invariants:
/// - `storage` holds `capacity` bytes; `0 <= start <= scan <= filled <= capacity`; the bytes
///   `start..<filled` are input not yet handed out or skipped, the bytes before `start` may
///   be overwritten by the next ``spaceForInput()``.
/// - `base` is the offset in the stream of `storage[0]`; positions reported (errors, lines)
///   are stream offsets, so compaction never changes them.
/// - An element handed out by ``next()`` stays valid until the next ``spaceForInput()``.
/// - Array nesting is bounded by ``JSON/maximumDepth`` (counting the array itself, as
///   `[T](jsonData:)` does) and a buffer by ``JSON/StreamOptions/maximumElementSize``, so no
///   input can make the scanner recurse, or grow without bound.
final class ElementScanner {
  /// One element's bytes and where they are.
  struct Element {
    var bytes: UnsafeRawBufferPointer
    /// The element's position among the stream's values, from 0.
    var index: Int
    /// Where its first byte is in the stream: offset from 0, line and column from 1.
    var offset: Int
    var line: Int
    var column: Int
  }

  enum Step {
    case element(Element)
    /// An array element begins: the bytes from its start to the end of the buffer. Decode it
    /// from there and ``accept(_:)`` its length, or call ``scanCandidate()`` to have it
    /// scanned for its extent first.
    case candidate(UnsafeRawBufferPointer)
    /// Call ``spaceForInput()`` and ``didRead(_:)``, then ``next()`` again.
    case needsInput
    case finished
  }

  private enum Phase {
    case start, afterOpen, inElement, afterElement, afterComma, afterClose, finished
  }

  let format: JSON.StreamFormat
  private let chunkSize: Int
  private let maximumElementSize: Int
  private var storage: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  private var filled = 0
  private var start = 0
  private var scan = 0
  private var base = 0
  /// The source has no more bytes: what the buffer holds is all there is.
  private(set) var sourceEnded = false
  private var phase = Phase.start
  private var checkedByteOrderMark = false
  /// Lines are counted from 1; `lineStart` is the stream offset of the current line's start.
  /// Elements handed out without a scan (``accept(_:)``, ``acceptFollowing(endingAt:)``)
  /// leave their line feeds to be counted from `uncountedFrom` up to `scan`, in one pass
  /// when scanning resumes (``next()``), or input is read.
  private(set) var line = 1
  private var lineStart = 0
  private var uncountedFrom: Int?
  /// Values found so far.
  private(set) var count = 0

  // The element being scanned (arrays).
  private var element = Element(
    bytes: UnsafeRawBufferPointer(start: nil, count: 0), index: 0, offset: 0, line: 1, column: 1)
  private var isScalar = false
  /// The element is being scanned for its extent (not handed out as a candidate).
  private var isScanning = false
  private var inString = false
  private var depth = 0
  /// The extensions to JSON the text may use (``JSON/StreamOptions/reading``); when there
  /// are any, elements are always scanned (``scanLenientElement()``), never read as
  /// candidates, and comments may stand between them.
  let reading: JSON.ReadingOptions
  private let isLenient: Bool
  /// Lenient scanning: the quote the string being scanned opened with, and whether a
  /// comment is being scanned.
  private var quote = UInt8(ascii: "\"")
  private var inLineComment = false
  private var inBlockComment = false
  /// JSON Lines: the rest of an over-long line is being dropped.
  private var discardingLine = false

  init(format: JSON.StreamFormat, options: JSON.StreamOptions, reading: JSON.ReadingOptions) {
    self.format = format
    self.reading = reading
    isLenient = !reading.isEmpty
    chunkSize = max(options.chunkSize, 1)
    maximumElementSize = max(options.maximumElementSize, 1)
    capacity = chunkSize
    storage = .allocate(capacity: capacity)
  }

  deinit { storage.deallocate() }

  // MARK: Input

  /// Room for more input: compacts the buffer, and grows it when one element fills it.
  ///
  /// - Throws: when the pending element is larger than `maximumElementSize`.
  func spaceForInput() throws(JSON.Error) -> UnsafeMutableRawBufferPointer {
    countSkippedLines()
    if start > 0 {
      let pending = filled - start
      if pending > 0 { storage.update(from: storage + start, count: pending) }
      base += start
      scan -= start
      filled = pending
      start = 0
    }
    if filled == capacity {
      guard capacity < maximumElementSize else {
        throw JSON.Error(
          .custom,
          "\(format == .lines ? "line \(line)" : "element \(count)") is larger than"
            + " maximumElementSize (\(maximumElementSize) bytes)"
        ).prefixed(index: count)
      }
      let larger = UnsafeMutablePointer<UInt8>.allocate(
        capacity: min(capacity * 2, max(maximumElementSize, chunkSize)))
      larger.update(from: storage, count: filled)
      storage.deallocate()
      storage = larger
      capacity = min(capacity * 2, max(maximumElementSize, chunkSize))
    }
    let room = min(capacity - filled, chunkSize)
    return UnsafeMutableRawBufferPointer(start: storage + filled, count: room)
  }

  /// `count` bytes were written at the start of the last ``spaceForInput()``; `0` means the
  /// source has ended.
  func didRead(_ count: Int) {
    if count == 0 { sourceEnded = true }
    filled += count
  }

  /// JSON Lines: drops the over-long line being read (after ``spaceForInput()`` refused it),
  /// and the rest of it as it arrives.
  func discardLine() {
    base += filled
    filled = 0
    start = 0
    scan = 0
    discardingLine = true
    count += 1
  }

  // MARK: Elements

  /// The next element, or what the scanner needs to find it.
  ///
  /// - Throws: ``JSON/Error`` for broken array structure, with the stream offset, line and
  ///   column.
  func next() throws(JSON.Error) -> Step {
    countSkippedLines()
    if !checkedByteOrderMark {
      // A byte order mark may open the stream, as it may open a document.
      let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
      let available = min(filled - scan, 3)
      let couldBeMark = (0..<available).allSatisfy { storage[scan + $0] == mark[$0] }
      if available < 3, couldBeMark, !sourceEnded { return .needsInput }
      if filled - scan >= 3, storage[scan] == 0xEF, storage[scan + 1] == 0xBB,
        storage[scan + 2] == 0xBF
      {
        scan += 3
        start = scan
      }
      checkedByteOrderMark = true
    }
    return format == .lines ? nextLine() : try nextInArray()
  }

  private func nextLine() -> Step {
    while phase != .finished {
      let end = filled
      if scan < end, let found = memchr(storage + scan, 0x0A, end - scan) {
        let feed = UnsafeMutablePointer(found.assumingMemoryBound(to: UInt8.self)) - storage
        let lineStartIndex = start
        let number = line
        scan = feed + 1
        start = scan
        line += 1
        lineStart = base + scan
        if discardingLine {
          discardingLine = false
          continue
        }
        if let element = lineElement(lineStartIndex, feed, number) { return .element(element) }
        continue
      }
      scan = end
      guard sourceEnded else {
        if discardingLine {
          base += filled
          filled = 0
          start = 0
          scan = 0
        }
        return .needsInput
      }
      phase = .finished
      if !discardingLine, let element = lineElement(start, end, line) {
        start = end
        return .element(element)
      }
    }
    return .finished
  }

  /// The line `from..<to` as an element, or `nil` when it is blank.
  private func lineElement(_ from: Int, _ to: Int, _ number: Int) -> Element? {
    var index = from
    while index < to, isWhitespace(storage[index]) { index += 1 }
    guard index < to else { return nil }
    if isLenient,
      LenientText.isBlank(
        UnsafeRawBufferPointer(start: storage + index, count: to - index), options: reading)
    {
      return nil  // a comment alone on its line
    }
    defer { count += 1 }
    return Element(
      bytes: UnsafeRawBufferPointer(start: storage + from, count: to - from), index: count,
      offset: base + from, line: number, column: 1)
  }

  private func nextInArray() throws(JSON.Error) -> Step {
    while true {
      if phase == .inElement {
        guard isScanning else {
          let offset = element.offset - base
          return .candidate(UnsafeRawBufferPointer(start: storage + offset, count: filled - offset))
        }
        guard try scanElement() else {
          if sourceEnded { throw truncated() }
          return .needsInput
        }
        element.bytes = UnsafeRawBufferPointer(
          start: storage + (element.offset - base), count: base + scan - element.offset)
        count += 1
        start = scan
        phase = .afterElement
        return .element(element)
      }
      guard let byte = isLenient ? try skipTrivia() : skipWhitespace() else {
        guard sourceEnded else { return .needsInput }
        switch phase {
        case .afterClose, .finished:
          phase = .finished
          return .finished
        case .start where base + filled == 0:
          throw JSON.Error(
            .malformed(offset: 0, line: 1, column: 1),
            "malformed JSON at byte 0 (line 1, column 1): empty input, expected a JSON value")
        default: throw unexpected()
        }
      }
      switch (phase, byte) {
      case (.start, UInt8(ascii: "[")):
        advance(to: .afterOpen)
      case (.afterOpen, UInt8(ascii: "]")), (.afterElement, UInt8(ascii: "]")):
        advance(to: .afterClose)
      case (.afterElement, UInt8(ascii: ",")):
        advance(to: .afterComma)
      case (.afterComma, UInt8(ascii: "]")) where reading.contains(.trailingCommas):
        advance(to: .afterClose)
      case (.afterOpen, _):
        beginElement(byte)
      case (.afterComma, _) where byte != UInt8(ascii: "]"):
        beginElement(byte)
      default:
        throw unexpected()
      }
    }
  }

  /// The candidate element was read and took `length` bytes: it is consumed, unless it is a
  /// number or literal that reaches the end of the buffer (and might go on in the next
  /// read), when this returns `nil`.
  func accept(_ length: Int) -> Element? {
    let from = element.offset - base
    let to = from + length
    guard length > 0, to <= filled, !isScalar || to < filled || sourceEnded else { return nil }
    uncountedFrom = uncountedFrom ?? from
    element.bytes = UnsafeRawBufferPointer(start: storage + from, count: length)
    scan = to
    start = to
    count += 1
    phase = .afterElement
    return element
  }

  /// The array element that follows the last one handed out ends at `end` (in the buffer):
  /// it was decoded ahead, from the bytes after the last one (``ElementDecoder``), and is
  /// consumed with what stands before it (whitespace and a comma).
  @inline(__always)
  func acceptFollowing(endingAt end: UnsafePointer<UInt8>) {
    let to = UnsafeMutablePointer(mutating: end) - storage
    uncountedFrom = uncountedFrom ?? scan
    scan = to
    start = to
    count += 1
    phase = .afterElement
  }

  /// The candidate element is to be scanned for its extent, then handed out as `.element`.
  func scanCandidate() { isScanning = true }

  private func advance(to next: Phase) {
    scan += 1
    start = scan
    phase = next
  }

  /// "expected …, found …" for the current phase, at `scan`.
  private func unexpected() -> JSON.Error {
    let expected =
      switch phase {
      case .start: "'[' to open the array of a JSON array stream"
      case .afterOpen: "a JSON value or ']'"
      case .afterComma: "a JSON value"
      case .afterElement: "',' or ']' after array element"
      default: "end of input after the JSON value"
      }
    let found = scan < filled ? JSONReader.describe(storage[scan]) : "end of input"
    return syntaxError("expected \(expected), found \(found)")
  }

  /// Skips whitespace from `scan`, counting lines; the next byte, or `nil` when the
  /// buffer has none.
  private func skipWhitespace() -> UInt8? {
    while scan < filled {
      let byte = storage[scan]
      guard isWhitespace(byte) else {
        start = scan
        return byte
      }
      if byte == 0x0A { newLine(at: scan) }
      scan += 1
    }
    start = scan
    return nil
  }

  private func beginElement(_ first: UInt8) {
    element.index = count
    element.offset = base + scan
    element.line = line
    element.column = base + scan - lineStart + 1
    start = scan
    phase = .inElement
    depth = 0
    inString = false
    isScalar = false
    isScanning = isLenient
    quote = first
    inLineComment = false
    inBlockComment = false
    switch first {
    case UInt8(ascii: "{"), UInt8(ascii: "["): depth = 1
    case UInt8(ascii: "\""): inString = true
    case UInt8(ascii: "'") where reading.contains(.singleQuotedStrings): inString = true
    default:
      isScalar = true
      return
    }
    scan += 1
  }

  /// Scans the element from `scan`; `true` when it ended (`scan` is just past it).
  private func scanElement() throws(JSON.Error) -> Bool {
    if isLenient { return try scanLenientElement() }
    let end = filled
    var index = scan
    defer { scan = index }
    if isScalar { return scanScalar(&index, end) }
    // The state lives in locals while the loop runs: properties of a class would be loaded,
    // stored and checked for exclusive access at every byte.
    let bytes = storage
    var depth = self.depth
    var inString = self.inString
    defer {
      self.depth = depth
      self.inString = inString
    }
    // An array's elements are one level down: the limit counts the array, as the reader does.
    let limit = JSON.maximumDepth - 1
    while index < end {
      if inString {
        while end - index >= 8 {
          let word = UInt64(
            littleEndian: UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self))
          let stop = firstStringStop(word)
          index += stop
          if stop < 8 { break }
        }
        guard index < end else { break }
        switch bytes[index] {
        case UInt8(ascii: "\\"):
          guard end - index >= 2 else { return false }  // the escaped byte is still to come
          index += 2
        case UInt8(ascii: "\""):
          inString = false
          index += 1
          if depth == 0 { return true }
        case 0x0A:
          newLine(at: index)
          index += 1
        default:
          index += 1
        }
        continue
      }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        inString = true
      } else if try closes(byte, at: index, depth: &depth, limit: limit) {
        index += 1
        return true
      }
      index += 1
    }
    return false
  }

  /// A byte of an element outside strings: a bracket changes `depth`, a line feed counts a
  /// line. `true` when it closes the element.
  @inline(__always)
  private func closes(_ byte: UInt8, at index: Int, depth: inout Int, limit: Int)
    throws(JSON.Error) -> Bool
  {
    switch byte {
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      depth += 1
      if depth > limit { throw tooDeep(at: index) }
    case UInt8(ascii: "}"), UInt8(ascii: "]"):
      depth -= 1
      return depth == 0
    case 0x0A:
      newLine(at: index)
    default: break
    }
    return false
  }

  /// A number or literal ends at the first byte that cannot be part of one; the decoder
  /// checks what it is. At the end of input the element may be cut short: not complete.
  /// Lenient text: a quote or a comment ends one too.
  private func scanScalar(_ index: inout Int, _ end: Int) -> Bool {
    while index < end {
      switch storage[index] {
      case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"),
        UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "\""), UInt8(ascii: ":"):
        return true
      case UInt8(ascii: "'") where isLenient, UInt8(ascii: "/") where isLenient:
        return true
      default: index += 1
      }
    }
    return false
  }

  /// The error for nesting past ``JSON/maximumDepth`` at `index`.
  private func tooDeep(at index: Int) -> JSON.Error {
    JSON.Error(
      .tooDeep(limit: JSON.maximumDepth),
      "nesting deeper than \(JSON.maximumDepth) arrays and objects at byte \(base + index)"
    ).prefixed(index: element.index)
  }

  /// ``scanElement()`` for text with extensions: strings may open with `'`, comments may
  /// hold quotes and brackets, a number or name ends at a comment or quote too. Each stop
  /// that needs the next bytes to be read (a backslash, a `/`, a `*` in a comment, a
  /// character that may end a `//` comment) waits for them without moving past it.
  private func scanLenientElement() throws(JSON.Error) -> Bool {
    let end = filled
    var index = scan
    defer { scan = index }
    let comments = reading.contains(.comments)
    if isScalar { return scanScalar(&index, end) }
    let limit = JSON.maximumDepth - 1
    while index < end {
      let byte = storage[index]
      if inLineComment {
        if byte == 0x0A || byte == 0x0D {
          inLineComment = false
          continue  // the line break is scanned as any
        }
        if byte == 0xE2 {
          guard end - index >= 3 else { return false }
          if storage[index + 1] == 0x80, storage[index + 2] == 0xA8 || storage[index + 2] == 0xA9 {
            inLineComment = false
          }
        }
        index += 1
        continue
      }
      if inBlockComment {
        if byte == UInt8(ascii: "*") {
          guard end - index >= 2 else { return false }
          if storage[index + 1] == UInt8(ascii: "/") {
            inBlockComment = false
            index += 2
            continue
          }
        } else if byte == 0x0A {
          newLine(at: index)
        }
        index += 1
        continue
      }
      if inString {
        switch byte {
        case UInt8(ascii: "\\"):
          guard end - index >= 2 else { return false }
          if storage[index + 1] == 0x0A { newLine(at: index + 1) }  // a line continuation
          index += 2
        case quote:
          inString = false
          index += 1
          if depth == 0 { return true }
        case 0x0A:
          newLine(at: index)
          index += 1
        default:
          index += 1
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""):
        inString = true
        quote = byte
      case UInt8(ascii: "'") where reading.contains(.singleQuotedStrings):
        inString = true
        quote = byte
      case UInt8(ascii: "/") where comments:
        guard end - index >= 2 else { return false }
        if storage[index + 1] == UInt8(ascii: "/") {
          inLineComment = true
          index += 1
        } else if storage[index + 1] == UInt8(ascii: "*") {
          inBlockComment = true
          index += 1
        }
      default:
        if try closes(byte, at: index, depth: &depth, limit: limit) {
          index += 1
          return true
        }
      }
      index += 1
    }
    return false
  }

  /// Skips whitespace and comments from `scan` (lenient text), counting lines; the next
  /// byte, or `nil` when the buffer has none or ends inside a comment.
  ///
  /// - Throws: at the end of input inside a `/*` comment.
  private func skipTrivia() throws(JSON.Error) -> UInt8? {
    let bytes = UnsafeRawBufferPointer(start: storage, count: filled)
    while scan < filled {
      switch LenientText.trivia(in: bytes, at: scan, options: reading, atEnd: sourceEnded) {
      case .none:
        start = scan
        return storage[scan]
      case .length(let width):
        var index = scan
        while index < scan + width, let found = memchr(storage + index, 0x0A, scan + width - index)
        {
          index = UnsafeMutablePointer(found.assumingMemoryBound(to: UInt8.self)) - storage
          newLine(at: index)
          index += 1
        }
        scan += width
      case .incomplete:
        start = scan
        return nil
      case .unterminated:
        start = scan
        throw syntaxError("unterminated /* comment")
      }
    }
    start = scan
    return nil
  }

  /// The error for input that ends inside an element: what parsing the element's bytes says
  /// (as `[T](jsonData:)` would say it, an unterminated string at its opening quote), or for
  /// a number or literal that parses, the missing `,` or `]` after it.
  private func truncated() -> JSON.Error {
    let bytes = UnsafeRawBufferPointer(
      start: storage + (element.offset - base), count: base + filled - element.offset)
    do {
      if isLenient {
        _ = try LenientText.reading(bytes, reading) {
          try $0.withUnsafeBytes(JSON.init(mappingBytes:))
        }
      } else {
        _ = try JSON(mappingBytes: bytes)
      }
    } catch {
      return JSON.Error.wrapping(error).located(in: element, format: format)
    }
    return syntaxError("expected ',' or ']' after array element, found end of input")
  }

  // MARK: Positions

  private func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  /// Counts the line feeds of the elements handed out without a scan.
  private func countSkippedLines() {
    guard let from = uncountedFrom else { return }
    uncountedFrom = nil
    var index = from
    while index < scan, let found = memchr(storage + index, 0x0A, scan - index) {
      index = UnsafeMutablePointer(found.assumingMemoryBound(to: UInt8.self)) - storage
      newLine(at: index)
      index += 1
    }
  }

  private func newLine(at index: Int) {
    line += 1
    lineStart = base + index + 1
  }

  /// A malformed-input error at `scan`, with its stream offset, line and column, worded as
  /// the reader words them.
  private func syntaxError(_ message: String) -> JSON.Error {
    let offset = base + scan
    let column = offset - lineStart + 1
    return JSON.Error(
      .malformed(offset: offset, line: line, column: column),
      "malformed JSON at byte \(offset) (line \(line), column \(column)): \(message)")
  }
}
