/// Turns text written with ``JSON/ReadingOptions`` into the strict JSON it means, in one pass,
/// and maps positions in the result back to the text as written.
///
/// It works on tokens, not structure: comments and the whitespace JSON lacks become spaces
/// (newlines kept, so lines stay where they were), a trailing comma a space, single-quoted
/// strings and identifier keys double-quoted strings, other numbers decimal ones. Whatever it
/// does not change is left for the strict reader to judge, which also checks the structure.
/// Each place where the result's length starts to differ from the input's is recorded, so
/// the reader's error positions are moved back to the text as written.
struct LenientText {
  private let input: UnsafeRawBufferPointer
  private let options: JSON.ReadingOptions
  private(set) var output: [UInt8] = []
  /// (output offset, input offset) at each point from which the two differ by a new amount.
  private var anchors: [(output: Int, input: Int)] = [(0, 0)]
  private var position = 0
  /// The containers open at the position: `{` or `[`.
  private var containers: [UInt8] = []
  /// The last byte written that is not whitespace, for keys and trailing commas.
  private var lastSignificant: UInt8 = 0

  init(_ input: UnsafeRawBufferPointer, options: JSON.ReadingOptions) throws {
    self.input = input
    self.options = options
    output.reserveCapacity(input.count + input.count / 16)
    try translate()
  }

  // MARK: Positions

  /// The input offset an output offset came from.
  func inputOffset(_ offset: Int) -> Int {
    var low = 0
    var high = anchors.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if anchors[middle].output <= offset { low = middle } else { high = middle - 1 }
    }
    let anchor = anchors[low]
    return Swift.min(anchor.input + (offset - anchor.output), input.count)
  }

  /// `error` with its byte, line and column moved back to the text as written.
  func relocated(_ error: JSON.Error) -> JSON.Error {
    switch error.kind {
    case .malformed(let offset, _, _):
      return relocated(error, offset) { .malformed(offset: $0, line: $1, column: $2) }
    case .numberOutOfRange(let offset, _, _):
      return relocated(error, offset) { .numberOutOfRange(offset: $0, line: $1, column: $2) }
    default:
      return error
    }
  }

  private func relocated(
    _ error: JSON.Error, _ offset: Int, _ kind: (Int, Int, Int) -> JSON.Error.Kind
  ) -> JSON.Error {
    let original = inputOffset(offset)
    let (line, column) = Self.lineAndColumn(of: original, in: input)
    var message = error.message
    // "malformed JSON at byte 12 (line 1, column 13): …": the position part is rewritten.
    if let close = message.range(of: "): ") {
      let what = message.range(of: " at byte ").map { String(message[..<$0.lowerBound]) } ?? ""
      message =
        "\(what) at byte \(original) (line \(line), column \(column)): "
        + message[close.upperBound...]
    }
    var moved = JSON.Error(kind(original, line, column), message)
    moved.reversedPath = error.reversedPath
    return moved
  }

  static func lineAndColumn(of offset: Int, in bytes: UnsafeRawBufferPointer) -> (Int, Int) {
    var line = 1
    var lineStart = 0
    for index in 0..<Swift.min(offset, bytes.count) where bytes[index] == 0x0A {
      line += 1
      lineStart = index + 1
    }
    return (line, offset - lineStart + 1)
  }

  private func error(_ message: String, at offset: Int) -> JSON.Error {
    let (line, column) = Self.lineAndColumn(of: offset, in: input)
    return JSON.Error(
      .malformed(offset: offset, line: line, column: column),
      "malformed JSON at byte \(offset) (line \(line), column \(column)): \(message)")
  }

  // MARK: Translating

  private func byte(_ offset: Int) -> UInt8? {
    offset < input.count ? input[offset] : nil
  }

  /// Notes that from here on output and input offsets differ by a new amount.
  private mutating func anchor() {
    if let last = anchors.last, output.count - last.output == position - last.input { return }
    anchors.append((output.count, position))
  }

  private mutating func emit(_ bytes: [UInt8], consuming count: Int) {
    output.append(contentsOf: bytes)
    position += count
    anchor()
  }

  private mutating func emitSpaces(_ count: Int) {
    output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: count))
    position += count
  }

  private mutating func translate() throws {
    while position < input.count {
      let current = input[position]
      switch current {
      case 0x20, 0x09, 0x0A, 0x0D:
        output.append(current)
        position += 1
      case UInt8(ascii: "/") where options.contains(.comments):
        try skipComment()
      case UInt8(ascii: ","):
        if options.contains(.trailingCommas), lastSignificant != UInt8(ascii: ","),
          lastSignificant != UInt8(ascii: "["), lastSignificant != UInt8(ascii: "{"),
          let next = nextSignificant(after: position + 1),
          next == UInt8(ascii: "]") || next == UInt8(ascii: "}")
        {
          emitSpaces(1)  // the trailing comma
        } else {
          copy(1)
        }
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        containers.append(current)
        copy(1)
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        _ = containers.popLast()
        copy(1)
      case UInt8(ascii: "\""):
        try string(quote: current)
      case UInt8(ascii: "'") where options.contains(.singleQuotedStrings):
        try string(quote: current)
      case UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
        UInt8(ascii: "0")...UInt8(ascii: "9"):
        try number()
      default:
        if let width = json5Whitespace(at: position) {
          emitSpaces(width)
        } else if isIdentifierStart(current) {
          try identifier()
        } else {
          copy(1)
        }
      }
    }
  }

  private mutating func copy(_ count: Int) {
    let end = Swift.min(position + count, input.count)
    for offset in position..<end {
      output.append(input[offset])
    }
    if let last = output.last, !Self.isWhitespace(last) { lastSignificant = last }
    position = end
  }

  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  /// The width in bytes of the JSON5 whitespace character at `offset` that JSON lacks.
  private func json5Whitespace(at offset: Int) -> Int? {
    guard options.contains(.json5Whitespace) else { return nil }
    return Self.json5WhitespaceWidth(input, at: offset)
  }

  /// The width in bytes of the JSON5 whitespace character at `offset` in `input` that JSON
  /// lacks, `nil` when there is none.
  static func json5WhitespaceWidth(_ input: UnsafeRawBufferPointer, at offset: Int) -> Int? {
    func byte(_ offset: Int) -> UInt8? { offset < input.count ? input[offset] : nil }
    guard let first = byte(offset) else { return nil }
    switch first {
    case 0x0B, 0x0C: return 1
    case 0xC2: return byte(offset + 1) == 0xA0 ? 2 : nil
    case 0xE1: return byte(offset + 1) == 0x9A && byte(offset + 2) == 0x80 ? 3 : nil
    case 0xE2:
      switch (byte(offset + 1), byte(offset + 2)) {
      case (0x80, let third?)
      where (0x80...0x8A).contains(third) || third == 0xA8
        || third == 0xA9 || third == 0xAF:
        return 3
      case (0x81, 0x9F): return 3
      default: return nil
      }
    case 0xE3: return byte(offset + 1) == 0x80 && byte(offset + 2) == 0x80 ? 3 : nil
    case 0xEF: return byte(offset + 1) == 0xBB && byte(offset + 2) == 0xBF ? 3 : nil
    default: return nil
    }
  }

  /// The first byte after `offset` that is not whitespace or a comment.
  private func nextSignificant(after offset: Int) -> UInt8? {
    var offset = offset
    while let current = byte(offset) {
      if Self.isWhitespace(current) {
        offset += 1
      } else if let width = json5Whitespace(at: offset) {
        offset += width
      } else if options.contains(.comments), current == UInt8(ascii: "/"),
        byte(offset + 1) == UInt8(ascii: "/")
      {
        while let next = byte(offset), next != 0x0A, next != 0x0D { offset += 1 }
      } else if options.contains(.comments), current == UInt8(ascii: "/"),
        byte(offset + 1) == UInt8(ascii: "*")
      {
        offset += 2
        while byte(offset) != nil,
          !(byte(offset) == UInt8(ascii: "*") && byte(offset + 1) == UInt8(ascii: "/"))
        {
          offset += 1
        }
        offset += 2
      } else {
        return current
      }
    }
    return nil
  }

  private mutating func skipComment() throws {
    let start = position
    switch byte(position + 1) {
    case UInt8(ascii: "/"):
      while let current = byte(position), current != 0x0A, current != 0x0D {
        if current == 0xE2, byte(position + 1) == 0x80,
          byte(position + 2) == 0xA8 || byte(position + 2) == 0xA9
        {
          break  // a line or paragraph separator ends the comment too
        }
        emitSpaces(1)
      }
    case UInt8(ascii: "*"):
      emitSpaces(2)
      while true {
        guard let current = byte(position) else {
          throw error("unterminated /* comment", at: start)
        }
        if current == UInt8(ascii: "*"), byte(position + 1) == UInt8(ascii: "/") {
          emitSpaces(2)
          return
        }
        if current == 0x0A || current == 0x0D {
          output.append(current)
          position += 1
        } else {
          emitSpaces(1)
        }
      }
    default:
      copy(1)  // a lone slash: the strict reader says what is wrong
    }
  }

  /// A string in `quote`s, written as a double-quoted JSON string.
  private mutating func string(quote: UInt8) throws {
    let start = position
    output.append(UInt8(ascii: "\""))
    position += 1
    anchor()
    let escapes = options.contains(.stringEscapes)
    while true {
      guard let current = byte(position) else {
        throw error("unterminated string", at: start)
      }
      if current == quote {
        output.append(UInt8(ascii: "\""))
        position += 1
        lastSignificant = UInt8(ascii: "\"")
        anchor()
        return
      }
      if current == UInt8(ascii: "\"") {  // inside single quotes
        emit(Array(#"\""#.utf8), consuming: 1)
        continue
      }
      guard current == UInt8(ascii: "\\"), let escaped = byte(position + 1) else {
        output.append(current)
        position += 1
        continue
      }
      switch escaped {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
        UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"),
        UInt8(ascii: "u"):
        output.append(current)
        output.append(escaped)
        position += 2
      case UInt8(ascii: "'") where escapes || quote == UInt8(ascii: "'"):
        emit([UInt8(ascii: "'")], consuming: 2)
      case 0x0A where escapes:
        emit([], consuming: 2)
      case 0x0D where escapes:
        emit([], consuming: byte(position + 2) == 0x0A ? 3 : 2)
      case 0xE2
      where escapes && byte(position + 2) == 0x80
        && (byte(position + 3) == 0xA8 || byte(position + 3) == 0xA9):
        emit([], consuming: 4)
      case UInt8(ascii: "x") where escapes:
        guard let high = byte(position + 2), let low = byte(position + 3),
          Self.hexValue(high) != nil, Self.hexValue(low) != nil
        else { throw error("\\x must be followed by two hexadecimal digits", at: position) }
        emit(Array("\\u00".utf8) + [high, low], consuming: 4)
      case UInt8(ascii: "v") where escapes:
        emit(Array("\\u000b".utf8), consuming: 2)
      case UInt8(ascii: "0") where escapes:
        if let next = byte(position + 2), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) {
          throw error("\\0 may not be followed by a digit", at: position)
        }
        emit(Array("\\u0000".utf8), consuming: 2)
      case UInt8(ascii: "1")...UInt8(ascii: "9") where escapes:
        throw error("a digit may not be escaped", at: position)
      default:
        if escapes, escaped >= 0x20, escaped < 0x80 {
          emit([escaped], consuming: 2)  // any other character escaped is itself
        } else {
          output.append(current)  // left for the strict reader to refuse
          position += 1
        }
      }
    }
  }

  private static func hexValue(_ byte: UInt8) -> UInt64? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt64(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt64(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt64(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  private static func isDigit(_ byte: UInt8?) -> Bool {
    byte.map { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? false
  }

  private func isIdentifierStart(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "$"), UInt8(ascii: "_"), UInt8(ascii: "\\"), 0x80...0xFF:
      true
    default: false
    }
  }

  private func isIdentifierPart(_ byte: UInt8) -> Bool {
    isIdentifierStart(byte) || Self.isDigit(byte)
  }

  /// A number, with what the options allow turned into JSON's form.
  private mutating func number() throws {
    // Glued to a number or name before it ("1e2.3"): nothing to translate.
    if let last = output.last, isIdentifierPart(last) || last == UInt8(ascii: ".") {
      copy(1)
      return
    }
    var negative = false
    if byte(position) == UInt8(ascii: "+") {
      guard options.contains(.plusSigns) else { return copy(1) }
      emit([], consuming: 1)
    } else if byte(position) == UInt8(ascii: "-") {
      negative = true
      copy(1)
    }
    if options.contains(.nonFiniteNumbers), let name = nonFiniteName() {
      if negative { output.removeLast() }  // the sign goes inside the string
      let text = "\"" + (negative ? "-" : "") + name + "\""
      emit(Array(text.utf8), consuming: name.utf8.count)
      lastSignificant = UInt8(ascii: "\"")
      return
    }
    if options.contains(.hexadecimalNumbers), byte(position) == UInt8(ascii: "0"),
      byte(position + 1) == UInt8(ascii: "x") || byte(position + 1) == UInt8(ascii: "X")
    {
      var value: UInt64 = 0
      var digits = 0
      while let digit = byte(position + 2 + digits).flatMap(Self.hexValue) {
        let (times, overflow) = value.multipliedReportingOverflow(by: 16)
        guard !overflow else { throw error("hexadecimal number past 64 bits", at: position) }
        value = times + digit
        digits += 1
      }
      guard digits > 0 else {
        throw error("0x must be followed by hexadecimal digits", at: position)
      }
      emit(Array(String(value).utf8), consuming: 2 + digits)
      lastSignificant = UInt8(ascii: "0")
      return
    }
    let points = options.contains(.decimalPoints)
    if points, byte(position) == UInt8(ascii: "."), Self.isDigit(byte(position + 1)) {
      output.append(UInt8(ascii: "0"))
      anchor()
    }
    while Self.isDigit(byte(position)) { copy(1) }
    if byte(position) == UInt8(ascii: ".") {
      copy(1)
      if points, !Self.isDigit(byte(position)), Self.isDigit(output.dropLast().last) {
        output.append(UInt8(ascii: "0"))
        anchor()
      }
      while Self.isDigit(byte(position)) { copy(1) }
    }
    if byte(position) == UInt8(ascii: "e") || byte(position) == UInt8(ascii: "E") {
      copy(1)
      if byte(position) == UInt8(ascii: "+") || byte(position) == UInt8(ascii: "-") { copy(1) }
      while Self.isDigit(byte(position)) { copy(1) }
    }
  }

  /// `Infinity` or `NaN` at the position, whole.
  private func nonFiniteName() -> String? {
    for name in ["Infinity", "NaN"] {
      let bytes = Array(name.utf8)
      guard position + bytes.count <= input.count else { continue }
      if (0..<bytes.count).allSatisfy({ input[position + $0] == bytes[$0] }),
        !(byte(position + bytes.count).map(isIdentifierPart) ?? false)
      {
        return name
      }
    }
    return nil
  }

  /// A name: an unquoted key, `Infinity` or `NaN`, or a literal left as it is.
  private mutating func identifier() throws {
    var end = position
    while let current = byte(end), isIdentifierPart(current), json5Whitespace(at: end) == nil {
      if current == UInt8(ascii: "\\") {
        guard byte(end + 1) == UInt8(ascii: "u") else { break }
        end += 2
      } else {
        end += 1
      }
    }
    guard end > position else { return copy(1) }
    let isKey =
      containers.last == UInt8(ascii: "{")
      && (lastSignificant == UInt8(ascii: "{") || lastSignificant == UInt8(ascii: ","))
    if isKey, options.contains(.unquotedKeys) {
      let name = Array(UnsafeRawBufferPointer(rebasing: input[position..<end]))
      emit([UInt8(ascii: "\"")] + name + [UInt8(ascii: "\"")], consuming: end - position)
      lastSignificant = UInt8(ascii: "\"")
      return
    }
    if options.contains(.nonFiniteNumbers), let name = nonFiniteName() {
      emit(Array("\"\(name)\"".utf8), consuming: name.utf8.count)
      lastSignificant = UInt8(ascii: "\"")
      return
    }
    copy(end - position)
  }
}

extension LenientText {
  /// What stands at a place between tokens (see ``trivia(in:at:options:atEnd:)``).
  enum Trivia: Equatable {
    /// A token, or nothing (the end of the bytes).
    case none
    /// Whitespace or a comment, this many bytes long.
    case length(Int)
    /// The bytes end before it can be told: more input is needed.
    case incomplete
    /// A `/*` comment that the input ends inside.
    case unterminated
  }

  /// The whitespace or comment `options` allow at `offset` in `bytes` (one whitespace
  /// character, one whole comment), for a stream between its elements. `atEnd`: no more
  /// bytes will come, so a `//` comment may end with the input.
  static func trivia(
    in bytes: UnsafeRawBufferPointer, at offset: Int, options: JSON.ReadingOptions, atEnd: Bool
  ) -> Trivia {
    guard offset < bytes.count else { return .none }
    switch bytes[offset] {
    case 0x20, 0x09, 0x0A, 0x0D: return .length(1)
    case UInt8(ascii: "/") where options.contains(.comments):
      guard offset + 1 < bytes.count else { return atEnd ? .none : .incomplete }
      switch bytes[offset + 1] {
      case UInt8(ascii: "/"):
        var index = offset + 2
        while index < bytes.count {
          let byte = bytes[index]
          if byte == 0x0A || byte == 0x0D { return .length(index - offset) }
          if byte == 0xE2 {
            guard index + 2 < bytes.count else {
              return atEnd ? .length(bytes.count - offset) : .incomplete
            }
            if bytes[index + 1] == 0x80, bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9 {
              return .length(index - offset)
            }
          }
          index += 1
        }
        return atEnd ? .length(index - offset) : .incomplete
      case UInt8(ascii: "*"):
        var index = offset + 2
        while index + 1 < bytes.count {
          if bytes[index] == UInt8(ascii: "*"), bytes[index + 1] == UInt8(ascii: "/") {
            return .length(index + 2 - offset)
          }
          index += 1
        }
        return atEnd ? .unterminated : .incomplete
      default: return .none
      }
    case let first:
      guard options.contains(.json5Whitespace) else { return .none }
      if let width = json5WhitespaceWidth(bytes, at: offset) { return .length(width) }
      // A character cut short by the end of the bytes may still be whitespace.
      let widest = first == 0xC2 ? 2 : [0xE1, 0xE2, 0xE3, 0xEF].contains(first) ? 3 : 1
      return !atEnd && bytes.count - offset < widest ? .incomplete : .none
    }
  }

  /// Whether `bytes` hold only whitespace and comments `options` allow (a blank line of
  /// JSON Lines).
  static func isBlank(_ bytes: UnsafeRawBufferPointer, options: JSON.ReadingOptions) -> Bool {
    var offset = 0
    while offset < bytes.count {
      guard case .length(let width) = trivia(in: bytes, at: offset, options: options, atEnd: true)
      else { return false }
      offset += width
    }
    return true
  }

  /// Runs `read` on a caller's document as the call's ``JSON/Configuration/reading`` allows:
  /// on `bytes` themselves when it allows nothing (one flag load when no configuration was
  /// ever set, once per document), else on their strict form.
  @inline(__always)
  static func configured<R>(
    _ bytes: UnsafeRawBufferPointer, _ read: (UnsafeRawBufferPointer) throws -> R
  ) throws -> R {
    guard let options = ConfigurationContext.current?.reading, !options.isEmpty else {
      return try read(bytes)
    }
    return try reading(bytes, options) { try $0.withUnsafeBytes(read) }
  }

  /// Runs `read` on the strict form of `bytes` (on `bytes` themselves when `options` is
  /// empty), with malformed-text errors placed in `bytes`.
  static func reading<R>(
    _ bytes: UnsafeRawBufferPointer, _ options: JSON.ReadingOptions,
    _ read: ([UInt8]) throws -> R
  ) throws -> R {
    let text = try LenientText(bytes, options: options)
    do {
      return try read(text.output)
    } catch let error as JSON.Error {
      throw text.relocated(error)
    }
  }
}
