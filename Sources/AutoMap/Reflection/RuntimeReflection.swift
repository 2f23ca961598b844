// The Swift runtime's reflection entry points, declared as the standard library declares
// them in `ReflectionMirror.swift` (where `_forEachField` is built on the same three calls).
// They are stable runtime ABI: Mirror, `_forEachField` and swift-foundation depend on them.
// Nothing here reads type metadata; the runtime answers every question.

/// The record the runtime fills for one stored property (`_FieldReflectionMetadata` in the
/// standard library, `FieldReflectionMetadata` in the runtime): the name, the function that
/// frees it, and the field's ownership and mutability.
private struct FieldRecord {
  var name: UnsafePointer<CChar>? = nil
  var freeName: (@convention(c) (UnsafePointer<CChar>?) -> Void)? = nil
  var isStrong = false
  var isVar = false
}

@_silgen_name("swift_getMetadataKind")
private func runtimeMetadataKind(_ type: Any.Type) -> UInt

@_silgen_name("swift_reflectionMirror_recursiveCount")
private func runtimeRecursiveCount(_ type: Any.Type) -> Int

@_silgen_name("swift_reflectionMirror_recursiveChildOffset")
private func runtimeChildOffset(_ type: Any.Type, index: Int) -> Int

@_silgen_name("swift_reflectionMirror_recursiveChildMetadata")
private func runtimeChildMetadata(
  _ type: Any.Type, index: Int, fieldMetadata: UnsafeMutablePointer<FieldRecord>
) -> Any.Type

enum RuntimeReflection {
  enum Kind: Equatable {
    case structure
    case object
    /// Anything else: `enum`, `optional`, `tuple`, `function`, `existential`, …
    case other(String)
  }

  struct StoredField {
    let name: String
    let offset: Int
    let type: Any.Type
    let isStrong: Bool
    let isVar: Bool
  }

  /// The kind of type, from the runtime's metadata kind (`MetadataKind` in the runtime's
  /// `MetadataKind.def`: class 0, struct 0x200, enum 0x201, optional 0x202, …).
  static func kind(of type: Any.Type) -> Kind {
    switch runtimeMetadataKind(type) {
    case 0: return .object
    case 0x200: return .structure
    case 0x201: return .other("an enum")
    case 0x202: return .other("an optional")
    case 0x203, 0x204, 0x305: return .other("a foreign class")
    case 0x301: return .other("a tuple")
    case 0x302: return .other("a function type")
    // 0x307: a constrained existential (`any Store<Int>`), made of a protocol type too.
    case 0x303, 0x307: return .other("an existential")
    case 0x304, 0x306: return .other("a metatype")
    default: return .other("not a struct or class")
    }
  }

  /// The stored properties of a struct or class (for classes, inherited ones first). Only
  /// call it for types whose ``kind(of:)`` is `.structure` or `.object`: the runtime reads
  /// an enum's fields from a value, which there is none of here.
  static func storedFields(of type: Any.Type) -> [StoredField] {
    let count = runtimeRecursiveCount(type)
    var fields: [StoredField] = []
    fields.reserveCapacity(count)
    for index in 0..<count {
      var record = FieldRecord()
      let fieldType = runtimeChildMetadata(type, index: index, fieldMetadata: &record)
      defer { record.freeName?(record.name) }
      fields.append(
        StoredField(
          name: record.name.map { String(cString: $0) } ?? "",
          offset: runtimeChildOffset(type, index: index), type: fieldType,
          isStrong: record.isStrong, isVar: record.isVar))
    }
    return fields
  }
}
