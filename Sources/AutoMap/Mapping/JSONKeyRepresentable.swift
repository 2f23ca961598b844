/// A type whose values are dictionary keys in JSON: `[Key: Value]` maps to a JSON object whose
/// member names are the keys' text, both ways.
///
/// `String`, the integer types (`Int`, `Int8`…`Int64`, `UInt`, `UInt8`…`UInt64`, `Int128`,
/// `UInt128`) and `UUID` adopt it. An enum with `String` or `Int` raw values adopts it with
/// one word, like `CodingKeyRepresentable`:
///
/// ```swift
/// enum Region: String, JSONCodable, JSONKeyRepresentable { case eu, us }
///
/// struct Inventory: JSONCodable {
///   var byShelf: [Int: String]            // {"1": "tea", "12": "coffee"}
///   var byRegion: [Region: Int]           // {"eu": 3}
///   var owners: [UUID: String]            // {"E621E1F8-C36C-495A-93FC-0C247A3E6E5F": "ada"}
/// }
/// ```
///
/// Integers are read only in the form they are written (as `JSONEncoder` writes `Int` keys):
/// an optional `-` and digits, with no leading zero, so `"01"`, `"+1"`, `"-0"`, `" 1"`,
/// `"1.0"` and `"1e2"` are errors, and so is a number out of the type's range: each key names
/// exactly one value and each value has one key. A `UUID` key is read as `UUID` values are
/// (either case; written upper-case). An enum key is its raw value, with its
/// ``JSONCaseAliases`` and ``JSONFallbackCase`` applied as for values. A key that does not
/// convert is an error whose path ends in that key (`byShelf.abc: expected an Int key, found
/// "abc"`); under `.lossy` its member is left out. When two keys name the same value (`"x"`
/// and `"y"` both falling back to `.unknown`), the later one wins.
///
/// Adopt it for a type of your own by giving its text both ways:
///
/// ```swift
/// struct Version: JSONKeyRepresentable {
///   var major: Int
///   init(jsonKey: String) throws {
///     guard jsonKey.hasPrefix("v"), let major = Int(jsonKey.dropFirst()) else {
///       throw JSON.Error.custom("expected a version key like v2, found \(jsonKey)")
///     }
///     self.major = major
///   }
///   var jsonKey: String { "v\(major)" }
/// }
/// ```
///
/// Give each key its own name: two keys with one name (a `jsonKey` that forgets case, say)
/// are written as one member twice, which reads back as one, with the value written last;
/// the `json` of such a dictionary holds that one member too.
public protocol JSONKeyRepresentable: Hashable {
  /// The key for a JSON member name; throws when the name names no key.
  init(jsonKey: String) throws
  /// The JSON member name for this key.
  var jsonKey: String { get }
}
