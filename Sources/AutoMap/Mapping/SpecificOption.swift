/// How one property maps, given in ``JSONMappable/specificOptions()``.
///
/// ```swift
/// static func specificOptions() -> [String: SpecificOption] {
///   [
///     "id": "user_id",                                   // a string is .index
///     "city": .index(["address", "city"]),               // a path
///     "website": [.transform(webTransform), .ignoreIfNull],  // an array combines options
///     "role": .defaultValue(Role.guest),
///     "tags": .nonNil,
///     "cache": .ignore,
///   ]
/// }
/// ```
///
/// Options are checked when the model is first used: an option naming no property, a
/// default of the wrong type or `.ignore` on a property that cannot be left out is a
/// ``JSON/Error`` of kind ``JSON/Error/Kind-swift.enum/invalidModel`` then.
public enum SpecificOption: @unchecked Sendable {  // defaults are values, read only
  /// The key or path to use instead of the property name (decode and encode).
  /// `.index([])` flattens: the property's own fields are read from and written to the
  /// enclosing object.
  case index(JSON.Index)
  /// Tried when the index yields no usable value (decode).
  case alternativeIndex(JSON.Index)
  /// Converts between the JSON form and the property value (see ``Transform``).
  case transform(any Transform)
  /// Used when the value is absent, `null` or unusable (decode).
  case defaultValue(Any)
  /// Absent, `null` or unusable gives the type's `init()` (decode).
  case nonNil
  /// Neither read nor written: the property keeps its default value (`DefaultInitable`
  /// models) or becomes `nil` (optionals).
  case ignore
  /// Leaves the key out when the value encodes to `null` (encode).
  case ignoreIfNull
  /// On an array, set or dictionary: elements that fail to map are left out instead of
  /// failing the model. On an optional: a value that fails to map gives `nil` (decode).
  case lossy
  /// Accepts the other scalar spellings: a number property reads `"123"`, a string property
  /// reads `123` or `true`, a Bool reads `"true"`, `"false"`, `0` and `1`. Text that is not
  /// a number (`"12abc"`) is still an error. Applies to scalars and to their optionals and
  /// arrays (decode).
  case lossless
  /// On an optional `String`: `""` gives `nil` (decode).
  case emptyAsNil
  /// Leaves the key out when the value is an empty string, array, set or dictionary (encode).
  case ignoreIfEmpty
  /// The key or path read when decoding; `.index` (or the property name) is still written.
  case decodeIndex(JSON.Index)
  /// The key or path written when encoding; `.index` (or the property name) is still read.
  case encodeIndex(JSON.Index)
  /// Read when decoding, never written when encoding.
  case decodeOnly
  /// Written when encoding, never read when decoding: like `.ignore` for decoding.
  case encodeOnly
  /// The JSON value is a string holding JSON text, as webhook and queue payloads often
  /// carry them: `"payload": "{\"id\": 1}"` decodes the property from what the string holds,
  /// and encoding writes the property's JSON back as such a string (both). `null` is `null`.
  ///
  /// ```swift
  /// struct Delivery: JSONCodable {
  ///   var event: String
  ///   var payload: Payload          // {"event": "paid", "payload": "{\"id\": 1}"}
  ///   static func specificOptions() -> [String: SpecificOption] { ["payload": .embeddedJSON] }
  /// }
  /// ```
  ///
  /// Malformed text inside the string is an error at the property's path that gives the
  /// position inside the string; such strings nest at most 8 deep.
  case embeddedJSON
  /// The key style of this property's key, instead of the model's or the call's (both). An
  /// explicit `.index` still wins. `.caseInsensitive` is a model's or a call's only.
  ///
  /// ```swift
  /// static func specificOptions() -> [String: SpecificOption] { ["requestID": .keyStyle(.kebabCase)] }
  /// // {"request-id": "…", "userName": "…"}
  /// ```
  case keyStyle(JSON.KeyStyle)
  /// The JSON Schema of the property's JSON form, for ``JSON/schema(for:keyStyle:)``: what a
  /// `.transform` or a type with a hand-written mapping reads and writes, which reflection
  /// cannot see. It changes nothing in decoding or encoding.
  ///
  /// ```swift
  /// static func specificOptions() -> [String: SpecificOption] {
  ///   ["color": [.transform(hexColor), .schema(["type": "string", "pattern": "^#[0-9a-f]{6}$"])]]
  /// }
  /// ```
  case schema(JSON)
  /// Several options at once; what an array literal makes.
  case combined([SpecificOption])

  /// The options this one stands for, with `.combined` flattened.
  var flattened: [SpecificOption] {
    if case .combined(let options) = self { return options.flatMap(\.flattened) }
    return [self]
  }
}

extension SpecificOption: ExpressibleByStringLiteral {
  /// `"user_id"` is `.index("user_id")`: one key, dots included.
  public init(stringLiteral value: String) { self = .index(.key(value)) }
}

extension SpecificOption: ExpressibleByArrayLiteral {
  /// `[.transform(t), .ignoreIfNull]` combines options.
  public init(arrayLiteral elements: SpecificOption...) { self = .combined(elements) }
}
