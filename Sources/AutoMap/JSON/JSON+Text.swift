import Foundation

extension JSON: CustomStringConvertible {
  /// The value as compact JSON text. A ``missing(_:)`` value, which has no text, is shown as
  /// `<missing: …>` with its error; a non-finite number as its Swift description.
  public var description: String {
    var writer = JSONWriter(options: [], capacity: 64)
    do {
      try writer.write(self)
      return String(decoding: writer.bytes.take(), as: UTF8.self)
    } catch {
      if case .missing(let error) = self { return "<missing: \(error)>" }
      return "<unwritable JSON: \(error)>"
    }
  }
}

extension JSON {
  /// The value as UTF-8 JSON text.
  ///
  /// ```swift
  /// let data = try json.jsonData(options: [.prettyPrinted])
  /// ```
  ///
  /// - Throws: ``JSON/Error`` with kind ``Error/Kind-swift.enum/unencodable`` for
  ///   non-finite numbers and ``missing(_:)`` values.
  public func jsonData(options: WritingOptions = []) throws -> Data {
    Data(try jsonBytes(options: options))
  }

  /// The value as JSON text.
  ///
  /// ```swift
  /// try json.jsonString(options: [.sortedKeys])   // {"a":1,"b":2}
  /// ```
  public func jsonString(options: WritingOptions = []) throws -> String {
    String(decoding: try jsonBytes(options: options), as: UTF8.self)
  }

  func jsonBytes(options: WritingOptions) throws -> [UInt8] {
    var writer = JSONWriter(options: options)
    try writer.write(self)
    return writer.bytes.take()
  }
}
