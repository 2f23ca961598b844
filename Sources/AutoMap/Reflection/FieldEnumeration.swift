@_spi(Reflection) import Swift

/// A stored property as the runtime reports it.
struct ReflectedField {
  let name: String
  /// Byte offset from the start of the struct, or of the object for classes.
  let offset: Int
  let type: Any.Type
  /// Whether the property is a `let`; `nil` where the runtime cannot tell (classes).
  let isLet: Bool?
}

/// Stored-property enumeration through the standard library's own reflection SPI
/// (`_forEachField`, as swift-foundation uses it): names, offsets and types come from the
/// runtime, never from reading metadata layouts by hand.
enum FieldEnumeration {
  /// `_EachFieldOptions.classType`, which is declared as a mutable static and so cannot be
  /// read from Swift 6 code; its value is fixed by the SPI (`1 << 0`).
  private static let classType = _EachFieldOptions(rawValue: 1 << 0)

  /// The stored properties of a struct or class (inherited ones first), or `nil` for types
  /// that have none to enumerate (enums, tuples, existentials).
  static func fields<T>(of type: T.Type) -> [ReflectedField]? {
    let isClass = T.self is AnyClass
    var fields: [ReflectedField] = []
    let ok = _forEachField(of: T.self, options: isClass ? classType : []) { name, offset, type, _ in
      fields.append(
        ReflectedField(name: String(cString: name), offset: offset, type: type, isLet: nil))
      return true
    }
    guard ok else { return nil }
    if isClass { return fields }
    let writable = writableFieldNames(of: T.self)
    return fields.map {
      ReflectedField(
        name: $0.name, offset: $0.offset, type: $0.type, isLet: !writable.contains($0.name))
    }
  }

  /// The names of a struct's `var` properties: the key-path enumeration gives a
  /// `WritableKeyPath` for those and a read-only `KeyPath` for `let`s.
  private static func writableFieldNames<T>(of type: T.Type) -> Set<String> {
    var names = Set<String>()
    _ = _forEachFieldWithKeyPath(of: T.self) { name, keyPath in
      func isWritable<V>(_: V.Type) -> Bool { keyPath is WritableKeyPath<T, V> }
      if _openExistential(Swift.type(of: keyPath).valueType, do: isWritable) {
        names.insert(String(cString: name))
      }
      return true
    }
    return names
  }
}
