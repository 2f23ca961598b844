import CAutoMapShims

/// What the `Codable` bridge asks of a type on every value (is it `JSONDecodable`, is it
/// `JSONEncodable`), answered from a table instead of a dynamic cast each time: a cast to a
/// protocol type looks up the conformance, 300 to 800 instructions, and a `Codable` property
/// of an array of 3 values asks 5 times per model.
///
/// The table is a fixed array of words that threads share without a lock. A word holds a
/// type's identity (its metadata address, which is 8-aligned) with the facts in its low
/// bits, so a lookup is one load and one compare; a type that meets another in its slot
/// replaces it (the other is asked again next time). A word is complete in itself, so loads
/// and stores need no ordering.
///
/// A type's facts are taken as fixed once asked. The one way they change is a conformance
/// declared in a library the process loads later (`dlopen`) for a type asked about before:
/// the cast would see it, the table does not.
///
/// ```swift
/// if TypeFacts.of(T.self).contains(.decodable) { … }
/// ```
struct TypeFacts: OptionSet, Sendable {
  let rawValue: UInt

  static let decodable = TypeFacts(rawValue: 1)  // `any JSONDecodable`
  static let encodable = TypeFacts(rawValue: 2)  // `any JSONEncodable`

  private static let mask: UInt = 7
  private static let slotCount = 256
  private static let table = Table()

  /// The facts of `type`.
  @inline(__always)
  static func of(_ type: Any.Type) -> TypeFacts {
    let identity = UInt(bitPattern: ObjectIdentifier(type))
    let slot =
      table.words + Int(truncatingIfNeeded: (identity >> 3 ^ identity >> 11) & UInt(slotCount - 1))
    let word = automap_atomic_load_relaxed(slot)
    if word & ~mask == identity { return TypeFacts(rawValue: word & mask) }
    return learn(type, identity, slot)
  }

  private static func learn(_ type: Any.Type, _ identity: UInt, _ slot: UnsafeMutablePointer<UInt>)
    -> TypeFacts
  {
    var facts: TypeFacts = []
    if type is any JSONDecodable.Type { facts.insert(.decodable) }
    if type is any JSONEncodable.Type { facts.insert(.encodable) }
    // An identity with low bits set (never seen: metadata is pointer-aligned) is not kept.
    if identity & mask == 0 { automap_atomic_store_relaxed(slot, identity | facts.rawValue) }
    return facts
  }

  /// The words, allocated once for the process.
  private final class Table: Sendable {
    nonisolated(unsafe) let words: UnsafeMutablePointer<UInt>

    init() {
      words = .allocate(capacity: TypeFacts.slotCount)
      words.initialize(repeating: 0, count: TypeFacts.slotCount)
    }
  }
}
