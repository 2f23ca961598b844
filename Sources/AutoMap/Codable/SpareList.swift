/// An object that waits, finished, in a list of spares for its next use: byte `Decoder` roots
/// kept by a reader (``JSONReader/spareRoot``), `Encoder` roots and untagged enums' probes
/// kept by a writer (``JSONWriter/spareRoot``, ``JSONWriter/spareProbe``), child encoders and
/// decoders kept by their session (``ByteEncodingSession/spareChild``,
/// ``ByteDecodingSession/spareChild``), linked through ``nextSpare``.
///
/// The one rule of both lists: a spare is taken only when no copy of the list's owner holds
/// the list (copies never share a spare), and an object is kept only when nothing else holds
/// it (no decoder, encoder or container that `Codable` code kept can reach it later).
protocol Spare: AnyObject {
  /// The next object in the list, `nil` at its end and while the object is in use.
  var nextSpare: Self? { get set }
  /// Lets go of the containers it keeps that something else holds (``KeptContainers``);
  /// returns how many it keeps, each holding it unowned.
  func settleContainers() -> Int
}

extension Spare {
  func settleContainers() -> Int { 0 }
}

extension Optional where Wrapped: Spare {
  /// The list's first spare, unlinked from it, unless the list is shared or empty.
  @inline(__always)
  mutating func takeSpare() -> Wrapped? {
    guard isKnownUniquelyReferenced(&self), let spare = self else { return nil }
    self = spare.nextSpare
    spare.nextSpare = nil
    return spare
  }

  /// Puts `object`, which finished, at the head of the list, unless something else holds it:
  /// a strong reference, or a weak or unowned one, which `isKnownUniquelyReferenced` does not
  /// count (`Codable` code may keep its decoder `weak`: reused, it would show the next value).
  /// The containers it keeps, each of which holds it unowned, are settled first: those
  /// `Codable` code kept are let go, their links cut (``KeptContainers``).
  ///
  /// Call it with `consume` on the caller's last reference: without it the optimizer may
  /// leave the caller a copy, the object then looks shared, and nothing is ever kept (the
  /// values stay right, only slower: callgrind showed `Invoice` encode 25.7K -> 28.8K).
  ///
  /// `empty` runs on an object that is kept, before it joins the list: to let go of what a
  /// spare must not hold (a child's parent). Returns whether the object was kept.
  @inline(__always) @discardableResult
  mutating func keepSpare(
    _ object: consuming Wrapped, emptying empty: (Wrapped) -> Void = { _ in }
  ) -> Bool {
    var object = object
    let kept = object.settleContainers()
    // The runtime's counts include one weak and one unowned reference of the object's own.
    guard isKnownUniquelyReferenced(&object), _getWeakRetainCount(object) <= 1,
      _getUnownedRetainCount(object) <= 1 + UInt(kept)
    else { return false }
    empty(object)
    object.nextSpare = self
    self = consume object
    return true
  }
}

extension Array {
  /// Drops elements from the end until `count` are left, keeping the storage: for the short
  /// arrays spares keep (an object's keys, a payload's members). One at a time, since
  /// `removeLast(_:)` and `removeAll(keepingCapacity:)` go through `replaceSubrange` (75-175
  /// instructions a call).
  @inline(__always)
  mutating func truncate(to count: Int) {
    while self.count > count { removeLast() }
  }
}

/// A byte decoder or encoder made for a value inside another: kept, once its value ended, in
/// its session's list of spare children (``ByteDecodingSession/spareChild``,
/// ``ByteEncodingSession/spareChild``), without its parent.
protocol SpareChild: Spare, ByteStepNode {
  var step: ByteStep { get set }
  var parent: Self? { get set }
}

extension Optional where Wrapped: SpareChild {
  /// Keeps `child`, whose value ended, as ``keepSpare(_:emptying:)`` keeps an object, letting
  /// go of its parent and step (a spare must not keep its parent alive); a root (no parent) is
  /// not kept. Returns whether it was kept.
  @inline(__always) @discardableResult
  mutating func keepChild(_ child: consuming Wrapped) -> Bool {
    guard child.parent != nil else { return false }
    return keepSpare(consume child) {
      $0.parent = nil
      $0.step = .root
    }
  }
}
