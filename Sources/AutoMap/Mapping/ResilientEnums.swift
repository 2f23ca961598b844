/// An enum that maps any value it does not know to one of its cases, so that a server adding
/// a case does not break old clients.
///
/// Adopt it on a raw-value or `CaseIterable` enum and name the case in one line. It applies
/// wherever the enum appears: a property, an array element, a dictionary value or key, an
/// optional's payload.
///
/// ```swift
/// enum Status: String, JSONCodable, JSONFallbackCase {
///   case active, suspended, unknown
///   static let fallbackCase = Status.unknown
/// }
///
/// try Status(jsonString: #""archived""#)      // .unknown
/// try [Status](jsonString: #"["active", "new"]"#)  // [.active, .unknown]
/// try Status(jsonString: "42")                 // error: expected String, found number 42
/// try Status.unknown.jsonString()              // "\"unknown\"": the case's own raw value
/// ```
///
/// The fallback is for values of the right JSON type that name no case (and no alias, see
/// ``JSONCaseAliases``). A value of the wrong JSON type (a number or an object for a
/// `String`-raw enum), `null` and absence stay errors, so a broken document is still noticed.
///
/// Precedence with a property's options: the fallback belongs to the type, so an unknown
/// value *is* the fallback case and never reaches the property's `.defaultValue` or
/// `.nonNil`, which still cover absence, `null` and a value of the wrong JSON type. `.lossy`
/// collections keep such elements as the fallback case instead of leaving them out.
///
/// Encoding the fallback case writes its own raw value (or case name): the unknown value that
/// was read is not kept. Hold the enum in a `JSON` property, or read the raw value alongside,
/// when it must be written back unchanged.
public protocol JSONFallbackCase {
  /// The case used for a value that names no case.
  static var fallbackCase: Self { get }
}

/// An enum whose cases accept more JSON values than their raw values (or case names): a
/// renamed or misspelled value read as the case it means.
///
/// ```swift
/// enum Order: String, JSONCodable, JSONCaseAliases {
///   case cancelled, shipped
///   static let aliases: [Order: [String]] = [.cancelled: ["canceled", "CANCELLED"]]
/// }
///
/// try Order(jsonString: #""canceled""#)         // .cancelled
/// try Order.cancelled.jsonString()              // "\"cancelled\"": the raw value is written
/// ```
///
/// A case accepts its raw value first and then its aliases, in that order; encoding writes the
/// first, the raw value. Aliases are values of the enum's raw value type (of `String` for a
/// `CaseIterable` enum without raw values, which maps by case name). Combine with
/// ``JSONFallbackCase`` for values that are neither.
///
/// An alias that no value can ever reach is a mistake in the declaration, and an error of kind
/// `.invalidModel` the first time a value is looked up among the aliases: an alias of another
/// type than the raw value, one listed for two cases, or one that is another case's raw value.
public protocol JSONCaseAliases: Hashable {
  /// The type of the aliases: the raw value type, or `String` for case names.
  associatedtype AliasValue: Hashable
  /// The extra values each case accepts when decoding.
  static var aliases: [Self: [AliasValue]] { get }
}

/// Where enums look up a value that names no case: the aliases, then the fallback case.
/// Consulted only after the raw value (or case name) failed, so enums that use neither, and
/// values that are a raw value, pay nothing.
enum EnumResilience {
  /// The case that `value` (of the enum's raw value type, or a case name) stands for through
  /// the enum's aliases or fallback; `nil` when there is none. `caseOf` maps a raw value (or
  /// case name) to its case, to find aliases that shadow another case.
  static func resolve<T, V>(_: T.Type, _ value: V, caseOf: (V) -> T?) throws -> T? {
    let raw = value
    if let aliased = T.self as? any JSONCaseAliases.Type {
      if let found = try lookUp(aliased, value, as: T.self, caseOf: caseOf) { return found }
    }
    if let fallback = T.self as? any JSONFallbackCase.Type {
      let value = fallback.fallbackCase as? T
      if let value {
        Substitutions.record(
          .fallbackCase, reason: "\(JSON.describe(raw)) names no case of \(typeName(T.self))",
          replacement: "its fallback case .\(value)")
      }
      return value
    }
    return nil
  }

  private static func lookUp<A: JSONCaseAliases, T, V>(
    _: A.Type, _ value: V, as _: T.Type, caseOf: (V) -> T?
  ) throws -> T? {
    guard A.AliasValue.self == V.self else {
      throw JSON.Error(
        .invalidModel,
        "\(typeName(A.self)).aliases lists \(typeName(A.AliasValue.self)) values, but"
          + " \(typeName(A.self)) is read from \(typeName(V.self)): declare the aliases as"
          + " [\(typeName(A.self)): [\(typeName(V.self))]]")
    }
    // Every alias is checked, whichever value is looked up, so a mistake is reported always.
    var owners: [A.AliasValue: A] = [:]
    for (owner, aliases) in A.aliases.sorted(by: { "\($0.key)" < "\($1.key)" }) {
      for alias in aliases {
        if let raw = alias as? V, let shadow = caseOf(raw), shadow as? A != owner {
          throw JSON.Error(
            .invalidModel,
            "\(typeName(A.self)).aliases lists \(JSON.describe(alias)) for .\(owner), but it"
              + " already names .\(shadow): remove the alias")
        }
        if let other = owners.updateValue(owner, forKey: alias), other != owner {
          throw JSON.Error(
            .invalidModel,
            "\(typeName(A.self)).aliases lists \(JSON.describe(alias)) for both .\(other) and"
              + " .\(owner): an alias names one case")
        }
      }
    }
    guard let key = value as? A.AliasValue else { return nil }
    return owners[key] as? T
  }
}

extension JSON {
  /// A raw value or alias as it reads in a message: `"canceled"`, `3`.
  static func describe(_ value: Any) -> String {
    if let string = value as? String { return JSON.string(string).description }
    return "\(value)"
  }
}
