/// A stored property as the runtime reports it.
struct ReflectedField {
  /// The name the model's users see, and the one keys and options use: the declared name,
  /// also for a property wrapper's storage (`_count` of `@Clamped var count` is `count`) and
  /// for `lazy` storage.
  let name: String
  /// The name of the storage itself (`_count`, `$__lazy_storage_$_cache`).
  let storageName: String
  /// Byte offset from the start of the struct, or of the object for classes.
  let offset: Int
  let type: Any.Type
  /// `var` (`true`) or `let` (`false`), as the runtime records it.
  let isVar: Bool
  /// `false` for `weak`, `unowned` and `unowned(unsafe)` storage, which the engine never
  /// reads or writes.
  let isStrong: Bool
  let role: Role

  enum Role {
    case plain
    /// The storage of a `lazy var`: never mapped.
    case lazyStorage
    /// The storage of a property wrapper (`_name`), mapped under `name`.
    case wrapperStorage
    /// The storage an `@Observable` class keeps for a tracked property (`_name`), mapped
    /// under `name`.
    case observedStorage
    /// The `@Observable` macro's `_$observationRegistrar`: never mapped.
    case observationRegistrar
  }
}

/// What reflection finds in a model type.
enum ReflectedLayout {
  /// A struct's stored properties.
  case structure([ReflectedField])
  /// A class's stored properties, inherited ones first.
  case object([ReflectedField])
  /// Not a struct or class: there are no stored properties to map (`kind` names what it is,
  /// for messages).
  case unsupported(kind: String)
}

/// Stored-property enumeration through the Swift runtime's own reflection entry points, the
/// ones the standard library's `_forEachField` calls (and swift-foundation with it). Names,
/// offsets, types, ownership (`isStrong`) and mutability (`isVar`) all come from the runtime;
/// no metadata layout is ever read by hand.
enum FieldEnumeration {
  static let lazyPrefix = "$__lazy_storage_$_"

  static func layout(of type: Any.Type) -> ReflectedLayout {
    switch RuntimeReflection.kind(of: type) {
    case .structure: return .structure(fields(of: type))
    case .object: return .object(fields(of: type))
    case .other(let kind): return .unsupported(kind: kind)
    }
  }

  /// The stored property the `@Observable` macro adds to a class; the macro also renames
  /// each tracked property's storage `_name` (a plain value, not a wrapper).
  static let observationRegistrar = "_$observationRegistrar"

  private static func fields(of type: Any.Type) -> [ReflectedField] {
    let stored = RuntimeReflection.storedFields(of: type)
    let observable = stored.contains { $0.name == observationRegistrar }
    return stored.map { raw in
      var name = raw.name
      var role = ReflectedField.Role.plain
      if name.hasPrefix(lazyPrefix) {
        name.removeFirst(lazyPrefix.count)
        role = .lazyStorage
      } else if observable, name == observationRegistrar {
        role = .observationRegistrar
      } else if name.hasPrefix("_"), name.count > 1, isPropertyWrapper(raw.type) {
        name.removeFirst()
        role = .wrapperStorage
      } else if observable, name.hasPrefix("_"), name.count > 1 {
        name.removeFirst()
        role = .observedStorage
      }
      return ReflectedField(
        name: name, storageName: raw.name, offset: raw.offset, type: raw.type, isVar: raw.isVar,
        isStrong: raw.isStrong, role: role)
    }
  }

  /// Whether `type` is a property wrapper: it adopts ``JSONPropertyWrapper``, or it stores a
  /// `wrappedValue` (as most wrappers do).
  static func isPropertyWrapper(_ type: Any.Type) -> Bool {
    if type is any JSONPropertyWrapper.Type { return true }
    switch RuntimeReflection.kind(of: type) {
    case .structure, .object:
      return RuntimeReflection.storedFields(of: type).contains { $0.name == "wrappedValue" }
    case .other:
      return false
    }
  }
}
