/// `.embeddedJSON`: a property whose JSON value is a string holding JSON text
/// (`"payload": "{\"id\": 1}"`), as webhook and queue payloads carry them.
///
/// It works as a transform the plan builds for the property's type: decoding parses the
/// string and reads the property from what it holds through the type's own codec, encoding
/// writes the property to JSON through its codec and puts that text in a string. Being a
/// transform, the byte path reads such a property through `JSON` too, so both paths share
/// one implementation; other properties are not affected.
struct EmbeddedJSONTransform: Transform {
  /// How deep strings holding JSON may nest inside each other's JSON.
  static let maximumDepth = 8

  @TaskLocal static var depth = 0

  private let decoder: (@Sendable (JSON) throws -> Any)?
  private let encoder: (@Sendable (Any) throws -> JSON)?

  /// The transform for a property decoded through `codec`.
  static func decoding(_ propertyType: Any.Type, through codec: DecodeCodec) -> Self {
    func make<T>(_: T.Type) -> Self {
      Self(
        decoder: { json in
          try RawValue.produce(T.self) { try codec.readJSON(json, $0) }
        }, encoder: nil)
    }
    return _openExistential(propertyType, do: make)
  }

  /// The transform for a property encoded through `codec`.
  static func encoding(_ propertyType: Any.Type, through codec: EncodeCodec) -> Self {
    func make<T>(_: T.Type) -> Self {
      Self(
        decoder: nil,
        encoder: { value in
          guard let value = value as? T else {
            throw JSON.Error(
              .invalidModel, "expected \(typeName(T.self)), found \(typeName(type(of: value)))")
          }
          return try withUnsafePointer(to: value) { try codec.writeJSON(UnsafeRawPointer($0)) }
        })
    }
    return _openExistential(propertyType, do: make)
  }

  /// The property value for the JSON held in a string; `nil` for `null`, which the property
  /// reads as usual (`nil` for an optional, its fallback or an error otherwise).
  func decodeValue(from json: JSON) throws -> Any? {
    guard let decoder else { return nil }
    switch json {
    case .null: return nil
    case .string(let text):
      guard Self.depth < Self.maximumDepth else {
        throw JSON.Error(
          .tooDeep(limit: Self.maximumDepth),
          "strings holding JSON nested deeper than \(Self.maximumDepth)")
      }
      let inner: JSON
      do {
        inner = try JSON(strictString: text)
      } catch let error as JSON.Error {
        // Too deep for this thread's stack: not the value's fault, passed on as it is.
        if error.exhaustsStack { throw error }
        // The document around the string is well-formed: the value is unusable, so a
        // property's fallback may stand in. The inner position stays in the message.
        throw JSON.Error(.typeMismatch, "the string holds malformed JSON: \(error.message)")
      }
      // Another document: the untagged trials under way on the outer bytes are not its.
      let value: Any = try Self.$depth.withValue(Self.depth + 1) {
        try UntaggedByteMemo.outside { try decoder(inner) }
      }
      return value
    default:
      throw JSON.Error.mismatch(expected: "a string holding JSON", found: json)
    }
  }

  /// The property value's JSON, written as text in a string; `null` stays `null`.
  func encodeValue(_ value: Any) throws -> JSON? {
    guard let encoder else { return nil }
    let json = try encoder(value)
    if case .null = json { return .null }
    return .string(try json.jsonString())
  }
}
