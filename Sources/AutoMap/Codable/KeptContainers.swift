// Keyed containers a byte decoder or encoder handed out, kept for its next values.
//
// `KeyedDecodingContainer(_:)` and `KeyedEncodingContainer(_:)` put the container in a box, a
// class generic over the container's type. Made for each enum value (its root and its
// payload), the box, its type's metadata and that of AutoMap's container cost three lookups
// in the runtime's generic metadata cache and an allocation: about 1 000 instructions of a
// container, 2 000 of an enum value. A decoder or encoder that its session keeps for the next
// value keeps the containers it made too, one per key type, and hands the same one out again.
//
// That is sound only when nothing else holds the container: a copy `Codable` code kept would
// see the next value. The box is the container's storage, and a copy of the container is a
// reference to it, so the box's reference count tells: when the object goes back to its
// list (``Spare/settleContainers()``), a container whose box has references other than the
// kept one is let go, and its link to the object cut. Every container reaches its object
// through such a link (``ContainerLink``), also cut when the object goes: a container kept
// past its value refuses to work, as it always did, and holds no object.
//
// Containers are not `Sendable`. One that `Codable` code uses on another thread at the very
// moment its value ends may still reach its object as the object is reused; the case
// container's keys (`allKeys`, `contains`), which such code may ask from anywhere, are its
// own and reach nothing.
//
// The box is found once, when the container is made, with `Mirror` (its one stored
// property); its count is read with the runtime's `swift_retainCount`. Both are checked once
// per process (``KeptContainers/boxesAreObservable(_:)``): if a system's standard library
// stores its containers otherwise, nothing is kept and every container is made as before.

import CAutoMapShims

@_silgen_name("swift_retainCount")
private func runtimeRetainCount(_ object: UnsafeMutableRawPointer) -> Int

@_silgen_name("swift_weakRetainCount")
private func runtimeWeakRetainCount(_ object: UnsafeMutableRawPointer) -> Int

@_silgen_name("swift_unownedRetainCount")
private func runtimeUnownedRetainCount(_ object: UnsafeMutableRawPointer) -> Int

/// Whether only `strong` strong references hold `object`, and no weak or unowned one (the
/// runtime's counts include one weak and one unowned reference of the object's own).
@inline(__always)
private func isHeldOnly(_ object: UnsafeMutableRawPointer, by strong: Int) -> Bool {
  runtimeRetainCount(object) == strong && runtimeWeakRetainCount(object) <= 1
    && runtimeUnownedRetainCount(object) <= 1
}

/// A byte decoder or encoder that keeps the containers it hands out.
protocol ContainerNode: AnyObject {
  associatedtype Session: CodingSession
  var session: Session { get }
}

/// A byte decoding or encoding session: one value at a time, counted.
protocol CodingSession: AnyObject {
  /// How many values the session began before the one it is in.
  var generation: UInt { get }
}

/// How a container reaches the object it reads or writes: unowned, and cut (`nil`) when
/// `Codable` code kept a copy of the container past its value, or when the object goes.
///
/// A container whose link was cut refuses to work. Used in the value it was cut in (a child's
/// container kept by `Codable` code while its parent goes on), it also fails the session: the
/// reference reads or writes that value, and a container kept there still works. Used later,
/// while its session is at another value, it fails nothing.
///
/// Not `weak`: an object that something refers to weakly keeps its counts in a side table,
/// and every retain and release of it takes the runtime's slow path (callgrind: 1 400
/// instructions more per `[InternalStroke]` value encoded).
final class ContainerLink<Node: ContainerNode> {
  @exclusivity(unchecked) unowned(safe) private(set) var node: Node?
  let session: Node.Session
  /// The session's ``CodingSession/generation`` when the link was cut.
  private var cutIn: UInt?
  /// For a container that was not kept: holds its object, which is then never reused (no
  /// spare is taken while a container holds it).
  private let pin: Node?

  init(_ node: Node, pinned: Bool) {
    self.node = node
    session = node.session
    pin = pinned ? node : nil
  }

  func cut() {
    node = nil
    cutIn = session.generation
  }

  /// Whether the link was cut in the value its session is at.
  var wasCutInThisValue: Bool { cutIn == session.generation }
}

/// A kept container, of any type.
private final class KeptContainer<Container> {
  let container: Container
  init(_ container: Container) { self.container = container }

  /// A copy of the container. A method of the class, not inlined: it finds the container's
  /// type in the object's own metadata, where its caller, generic over the key, would ask the
  /// runtime for `KeyedEncodingContainer<Key>` (a lookup of 460 instructions) to copy it.
  @inline(never) @_semantics("optimize.sil.specialize.generic.never")
  func copy() -> Container { container }
}

/// The keyed containers one byte decoder or encoder made, by key type (and case name, for
/// an enum's external-tag view), handed out again for its next values.
struct KeptContainers<Node: ContainerNode> {
  private struct Entry {
    let key: ObjectIdentifier
    let name: String?
    /// A `KeptContainer` of the container.
    let kept: AnyObject
    let link: ContainerLink<Node>
  }

  /// What says who holds an entry's container: its storage (the box) and its link, not
  /// retained. Nothing but the entry holds the container when the box is held once (by the
  /// kept container) and the link twice (by the container in the box and by the entry), and
  /// neither weakly nor unowned: a copy of the container holds the box, and a copy of what
  /// the box holds (`Mirror` reaches it) holds the link. (A list of its own, of plain
  /// pointers: reading them makes no retain that would be counted.)
  private struct Counted {
    let box: UnsafeMutableRawPointer
    let link: UnsafeMutableRawPointer

    var isHeldOnlyByEntry: Bool { isHeldOnly(box, by: 1) && isHeldOnly(link, by: 2) }
  }

  private var entries: [Entry] = []
  private var counted: [Counted] = []
  /// The entries handed out since the last ``settle()``, a bit each: only those can have a
  /// copy that `Codable` code kept (a copy of one handed out before was let go then).
  private var handed: UInt = 0
  /// Key types beyond these get containers made each time.
  static var limit: Int { 8 }

  init() {}

  /// How many containers are kept: each holds its object unowned.
  var count: Int { entries.count }

  /// The container kept for `Key` (and `name`), or one `make` builds on a link to `node`,
  /// kept when there is room and `observable` (``boxesAreObservable(_:)``; asked only then:
  /// a static's lazy initialization is checked by a call each time it is read).
  @inline(__always)
  mutating func container<Key, Container>(
    _: Key.Type, name: String? = nil, node: Node, observable: @autoclosure () -> Bool,
    _ make: (ContainerLink<Node>) -> Container
  ) -> Container {
    let key = ObjectIdentifier(Key.self)
    for index in entries.indices
    where entries[index].key == key && Self.sameName(entries[index].name, name) {
      handed |= 1 << index
      return unsafeDowncast(entries[index].kept, to: KeptContainer<Container>.self).copy()
    }
    return made(key, name, node, observable, make)
  }

  /// Whether two names are the same bytes: canonically equivalent spellings (`é`, `e` and
  /// U+0301), which `==` takes for one, are two case names, as everywhere on the byte path.
  @inline(__always)
  private static func sameName(_ first: String?, _ second: String?) -> Bool {
    guard let first else { return second == nil }
    guard let second else { return false }
    return JSON.sameKey(first, second)
  }

  private mutating func made<Container>(
    _ key: ObjectIdentifier, _ name: String?, _ node: Node, _ observable: () -> Bool,
    _ make: (ContainerLink<Node>) -> Container
  ) -> Container {
    automap_count_container_made()
    guard entries.count < Self.limit, observable() else {
      return make(ContainerLink(node, pinned: true))
    }
    let link = ContainerLink(node, pinned: false)
    let kept = KeptContainer(make(link))
    guard let box = Self.storage(of: kept.container) else {
      link.cut()  // not expected after the check: the container is made again, pinned
      return make(ContainerLink(node, pinned: true))
    }
    if entries.capacity == 0 {
      entries.reserveCapacity(4)
      counted.reserveCapacity(4)
    }
    handed |= 1 << entries.count
    entries.append(Entry(key: key, name: name, kept: kept, link: link))
    counted.append(Counted(box: box, link: Unmanaged.passUnretained(link).toOpaque()))
    return kept.container
  }

  /// Lets go of every kept container that something else still holds, cutting its link:
  /// for an object whose value ended, before it is reused. Returns how many are kept.
  mutating func settle() -> Int {
    var index = entries.count
    while handed != 0, index > 0 {
      index -= 1
      guard handed & (1 << index) != 0 else { continue }
      handed &= ~(1 << index)
      if !counted[index].isHeldOnlyByEntry {
        entries[index].link.cut()
        entries.remove(at: index)
        counted.remove(at: index)
      }
    }
    return entries.count
  }

  /// Cuts every kept container's link: for an object that goes (`deinit`), whose containers
  /// `Codable` code may still hold.
  func cutAll() {
    for entry in entries { entry.link.cut() }
  }

  /// The object a container stores itself in: the one stored property `Mirror` shows, if it
  /// is an object.
  private static func storage<Container>(of container: Container) -> UnsafeMutableRawPointer? {
    let children = Mirror(reflecting: container).children
    guard children.count == 1, let value = children.first?.value,
      Swift.type(of: value) is AnyClass
    else { return nil }
    return Unmanaged.passUnretained(value as AnyObject).toOpaque()
  }

  /// Whether a container made by `make` keeps its storage in one object, which a kept
  /// container holds once: then each copy of the container is a reference to that object,
  /// counted in its reference count.
  static func boxesAreObservable<Container>(_ make: () -> Container?) -> Bool {
    guard let kept = make().map({ KeptContainer($0) }),
      let box = storage(of: kept.container)
    else { return false }
    return withExtendedLifetime(kept) { runtimeRetainCount(box) == 1 }
  }
}
