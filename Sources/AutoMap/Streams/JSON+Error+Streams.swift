import Foundation

extension JSON.Error {
  /// The error of a stream's element, as the stream reports it: the path starts at the
  /// element's index (`[3].user.id`); positions of malformed text count from the start of the
  /// stream instead of the element; for JSON Lines, ``line`` is the element's line.
  func located(in element: ElementScanner.Element, format: JSON.StreamFormat) -> JSON.Error {
    var located = self
    switch kind {
    case .malformed(let offset, let line, let column):
      located = rebased(offset, line, column, in: element) {
        .malformed(offset: $0, line: $1, column: $2)
      }
    case .numberOutOfRange(let offset, let line, let column):
      located = rebased(offset, line, column, in: element) {
        .numberOutOfRange(offset: $0, line: $1, column: $2)
      }
    case .tooDeep:
      // "… at byte N": N counted from the element's start.
      if let range = message.range(of: "at byte ", options: .backwards),
        let offset = Int(message[range.upperBound...])
      {
        located.message = message[..<range.upperBound] + String(element.offset + offset)
      }
    default: break
    }
    located = located.prefixed(index: element.index)
    if format == .lines { located.streamLine = element.line }
    return located
  }

  /// The error with its position moved from the element's bytes to the stream's, in its
  /// kind and in its message ("… at byte 12 (line 1, column 13): …").
  private func rebased(
    _ offset: Int, _ line: Int, _ column: Int, in element: ElementScanner.Element,
    _ kind: (Int, Int, Int) -> Kind
  ) -> JSON.Error {
    let newOffset = element.offset + offset
    let newLine = element.line + line - 1
    let newColumn = line == 1 ? element.column + column - 1 : column
    let old = "at byte \(offset) (line \(line), column \(column))"
    let new = "at byte \(newOffset) (line \(newLine), column \(newColumn))"
    let text =
      message.range(of: old).map { message.replacingCharacters(in: $0, with: new) } ?? message
    var moved = JSON.Error(kind(newOffset, newLine, newColumn), text, underlying: underlying)
    moved.reversedPath = reversedPath
    return moved
  }

  /// A stream's own error (not an element's), on the line it was found for JSON Lines.
  func onLine(_ line: Int, format: JSON.StreamFormat) -> JSON.Error {
    guard format == .lines, self.line == nil else { return self }
    var copy = self
    copy.streamLine = line
    return copy
  }
}
