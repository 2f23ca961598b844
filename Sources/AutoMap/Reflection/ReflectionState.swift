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
  private let plan = AtomicLazyReference<PlanResult>()
  private let build: @Sendable () throws -> Plan

  /// A built plan, or the error that building it threw (thrown again at every use).
  final class PlanResult: Sendable {
    let result: Result<Plan, JSON.Error>
    init(_ result: Result<Plan, JSON.Error>) { self.result = result }
  }

  init(build: @escaping @Sendable () throws -> Plan) { self.build = build }

  var isReflected: Bool { reflected.load(ordering: .acquiring) }

  func markReflected() {
    if !reflected.load(ordering: .relaxed) { reflected.store(true, ordering: .releasing) }
  }

  /// The plan, built by the first caller (racing first callers may each build one; the first
  /// stored is the one everyone uses).
  func resolvedPlan() throws -> Plan {
    if let built = plan.load() { return try built.result.get() }
    let made = PlanResult(Result { try build() }.mapError(JSON.Error.wrapping))
    return try plan.storeIfNil(made).result.get()
  }
}

typealias ModelDecodeState = ReflectionState<DecodePlan>
typealias ModelEncodeState = ReflectionState<EncodePlan>
