import Synchronization

/// A model type's reflection state for one direction (decode or encode): whether its
/// `init(decode:)` (or `json`) is AutoMap's reflection default, and its plan, built on first
/// use and then shared by every thread.
///
/// Whether a model's `init(decode:)` is hand-written cannot be asked of the language, so it
/// is observed: the default implementation reports itself (``markReflected()``) each time it
/// runs. Until it has, the byte paths go through `JSON` and call the real witness,
/// hand-written or not; from then on they use the plan directly. A hand-written
/// implementation never reports, so it is always the one called.
final class ReflectionState<Plan: AnyObject & Sendable>: Sendable {
  private let reflected = Atomic<Bool>(false)
  /// One plan per key style, each built on first use.
  private let slots: [Slot]
  private let build: @Sendable (JSON.KeyStyle) throws -> Plan
  /// The model's own key style, used when a call sets none.
  let defaultStyle: JSON.KeyStyle

  /// A built plan, or the error that building it threw (thrown again at every use).
  final class PlanResult: Sendable {
    let result: Result<Plan, JSON.Error>
    init(_ result: Result<Plan, JSON.Error>) { self.result = result }
  }

  final class Slot: Sendable {
    let plan = AtomicLazyReference<PlanResult>()
  }

  init(defaultStyle: JSON.KeyStyle, build: @escaping @Sendable (JSON.KeyStyle) throws -> Plan) {
    self.defaultStyle = defaultStyle
    self.build = build
    slots = JSON.KeyStyle.allCases.map { _ in Slot() }
  }

  var isReflected: Bool { reflected.load(ordering: .acquiring) }

  /// Forgets that the default implementation was seen (tests only: the next use goes
  /// through `init(decode:)`/`json` again, as a first use does).
  func forgetReflected() { reflected.store(false, ordering: .releasing) }

  func markReflected() {
    if !reflected.load(ordering: .relaxed) { reflected.store(true, ordering: .releasing) }
  }

  /// The plan for `style` (the model's own when `nil`), built by the first caller (racing
  /// first callers may each build one; the first stored is the one everyone uses).
  @inline(__always)
  func resolvedPlan(_ style: JSON.KeyStyle? = nil) throws -> Plan {
    let style = style ?? defaultStyle
    let slot = slots[style.slot]
    if let built = slot.plan.load() { return try built.result.get() }
    let made = PlanResult(Result { try build(style) }.mapError(JSON.Error.wrapping))
    return try slot.plan.storeIfNil(made).result.get()
  }
}

typealias ModelDecodeState = ReflectionState<DecodePlan>
typealias ModelEncodeState = ReflectionState<EncodePlan>
