/// Turning `Codable`'s errors into ``JSON/Error``s, at the edge where a `Codable` value
/// meets AutoMap's engine.
enum CodableErrors {
  /// The `JSON.Error` for an error from decoding: AutoMap's `Decoder` puts its own, with the
  /// full path, in `underlyingError`; an error that `Codable` code made itself is described
  /// at its `codingPath`, whose keys are written in `style`.
  static func jsonError(_ error: any Swift.Error, style: JSON.KeyStyle) -> JSON.Error {
    switch error {
    case let error as JSON.Error: return error
    case let error as DecodingError:
      switch error {
      case .typeMismatch(_, let context):
        return convert(
          .typeMismatch, context.codingPath, context.debugDescription, context.underlyingError,
          style)
      case .valueNotFound(_, let context):
        return convert(
          .missingValue, context.codingPath, context.debugDescription, context.underlyingError,
          style)
      case .keyNotFound(let key, let context):
        return convert(
          .missingValue, context.codingPath + [key], context.debugDescription,
          context.underlyingError, style)
      case .dataCorrupted(let context):
        return convert(
          .custom, context.codingPath, context.debugDescription, context.underlyingError, style)
      @unknown default: return JSON.Error.wrapping(error)
      }
    case let error as EncodingError:
      switch error {
      case .invalidValue(_, let context):
        return convert(
          .unencodable, context.codingPath, context.debugDescription, context.underlyingError, style
        )
      @unknown default: return JSON.Error.wrapping(error)
      }
    default: return JSON.Error.wrapping(error)
    }
  }

  private static func convert(
    _ kind: JSON.Error.Kind, _ codingPath: [any CodingKey], _ message: String,
    _ underlying: (any Swift.Error)?, _ style: JSON.KeyStyle
  ) -> JSON.Error {
    if let own = underlying as? JSON.Error { return own }
    return JSON.Error(
      kind, message, path: path(codingPath, style), underlying: underlying.map(SendableBox.init))
  }

  /// A coding path as a JSON path: positions stay positions, keys are written in `style`.
  static func path(_ keys: [any CodingKey], _ style: JSON.KeyStyle) -> [JSON.Error.Component] {
    keys.map { key in
      if let index = key.intValue, key.stringValue == "Index \(index)" { return .index(index) }
      return .key(style.jsonKey(forCodingKey: key.stringValue))
    }
  }

  /// The type that declares a coding-key type, for messages: `Money` for `Money.CodingKeys`.
  static func owner(of keyType: Any.Type) -> String? {
    // Synthesized keys live in a private context: `Module.Price.(unknown context at $…).CodingKeys`.
    let components = String(reflecting: keyType).split(separator: ".").filter {
      !$0.hasPrefix("(")
    }
    guard components.count >= 2, components.last == "CodingKeys" else {
      return nil
    }
    return String(components[components.count - 2])
  }
}
