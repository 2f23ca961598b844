/// A class hierarchy whose base chooses, from each JSON object, which subclass to build.
///
/// The base class adopts it once, naming a discriminator key and a table of its values; every
/// subclass inherits it. Then a property, array, dictionary or optional declared as the base
/// holds instances of the subclasses, each with its own fields, and encoding writes each
/// instance's own fields with its discriminator first, so decode → encode → decode gives the
/// same objects.
///
/// ```swift
/// class Animal: JSONCodable, DefaultInitable, JSONPolymorphic {
///   var name = ""
///   required init() {}
///   static let discriminator = "type"             // the default: "type"
///   static let subclasses: [String: Animal.Type] = ["dog": Dog.self, "cat": Cat.self]
/// }
/// final class Dog: Animal { var barks = true }
/// final class Cat: Animal { var lives = 9 }
///
/// let zoo = try [Animal](jsonString: #"[{"type": "dog", "name": "Rex", "barks": false}]"#)
/// zoo[0] is Dog                                   // true
/// try zoo.jsonString()                            // [{"type":"dog","name":"Rex","barks":false}]
/// ```
///
/// ## Choosing
///
/// - The discriminator's string value selects the class in ``subclasses``. A value the table
///   does not have selects ``defaultSubclass`` when there is one, and is otherwise an error
///   naming the path and the value.
/// - A missing (or `null`) discriminator selects ``defaultSubclass`` when there is one. Asked
///   for a subclass by name (`Dog(jsonData:)`, a property declared `Dog`), it builds that
///   subclass; asked for the base, it is an error naming the key.
/// - A discriminator that is not a string (a number, an array, …) is an error, whatever the
///   default.
/// - The chosen class must be the requested type or one of its subclasses: `Dog(jsonData:)`
///   of `{"type": "cat"}` is an error, not a `Dog`.
/// - ``subclass(for:)``, when implemented, chooses first, from the whole object.
///
/// The key is read and written as given, whatever the key style. A value that is not an
/// object is left to the requested class, which reports it as usual.
///
/// ## Encoding
///
/// Each instance is written as its dynamic class with the discriminator value the table
/// gives that class (the first in key order when several values name it). A class the table
/// does not name is an error the first time it is encoded, unless it is ``defaultSubclass``,
/// which is then written without a discriminator. A stored property mapped to the
/// discriminator key is decoded as usual and never encoded: the discriminator is written from
/// the table, once. A class with a hand-written `json` writes what it writes.
public protocol JSONPolymorphic: AnyObject, JSONMappable {
  /// The class at the root of the hierarchy: the type of the table's values.
  associatedtype PolymorphicBase: AnyObject

  /// The key whose string value chooses the subclass. The default is `"type"`.
  static var discriminator: String { get }

  /// The classes that can be built, by discriminator value.
  static var subclasses: [String: PolymorphicBase.Type] { get }

  /// What an unknown or missing discriminator builds. The default, `nil`, makes both errors.
  ///
  /// ```swift
  /// static var defaultSubclass: Animal.Type? { Animal.self }
  /// ```
  static var defaultSubclass: PolymorphicBase.Type? { get }

  /// Chooses the class for an object by any rule, before the discriminator is looked at;
  /// `nil` (the default) leaves the choice to the discriminator. What it returns must be
  /// the requested type or a subclass of it; what it throws fails the decode. AutoMap also
  /// calls it once with an empty object, the first time it reads the hierarchy from bytes, to
  /// learn whether it is this default (then the discriminator is found without building each
  /// object).
  ///
  /// ```swift
  /// static func subclass(for object: JSON) throws -> Animal.Type? {
  ///   object["meows"].isMissing ? nil : Cat.self
  /// }
  /// ```
  static func subclass(for object: JSON) throws -> PolymorphicBase.Type?
}

extension JSONPolymorphic {
  /// `"type"`.
  public static var discriminator: String { "type" }

  /// None: an unknown or missing discriminator is an error.
  public static var defaultSubclass: PolymorphicBase.Type? { nil }

  /// None: the discriminator chooses.
  public static func subclass(for object: JSON) throws -> PolymorphicBase.Type? {
    SubclassHook.probe?.sawDefault = true
    return nil
  }

  /// The hierarchy's rules, with its types erased, for the engine.
  static func makePolymorphism() -> Polymorphism {
    Polymorphism(
      key: discriminator, base: PolymorphicBase.self,
      table: subclasses.mapValues { $0 as Any.Type },
      defaultType: defaultSubclass.map { $0 as Any.Type },
      choose: { try subclass(for: $0).map { $0 as Any.Type } },
      probe: { _ = try subclass(for: $0) })
  }
}

/// Whether a hierarchy left ``JSONPolymorphic/subclass(for:)`` to its default, which
/// chooses nothing: then the discriminator alone chooses, and the byte path can find it
/// without building the object (``DiscriminatorKey``).
///
/// The language cannot say whether a requirement has its default implementation, so it is
/// observed, once per hierarchy, at the first object the byte path reads: the default reports
/// itself while an empty object is offered. A hand-written `subclass(for:)` is then called as
/// documented, with every object, as `JSON`. The offer counts a nesting level, so a
/// `subclass(for:)` that decodes its own base class ends in the depth error; byte reads
/// inside it decide nothing (``isProbing``).
enum SubclassHook {
  final class Probe: @unchecked Sendable {  // used by one thread, inside `isDefault`
    var sawDefault = false
  }
  @TaskLocal static var probe: Probe?

  static var isProbing: Bool { probe != nil }

  static func isDefault(_ call: (JSON) throws -> Void) -> Bool {
    let probe = Probe()
    $probe.withValue(probe) {
      _ = try? Nesting.level(encoding: false) { try call(.object(JSON.Object())) }
    }
    return probe.sawDefault
  }
}
