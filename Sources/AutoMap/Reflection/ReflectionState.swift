import CAutoMapShims

/// A model type's reflection state for one direction (decode or encode): whether its
/// `init(decode:)` (or `json`) is AutoMap's reflection default, and its plan, built on first
/// use and then shared by every thread.
///
/// Whether a model's `init(decode:)` is hand-written cannot be asked of the language, so it
/// is observed: the default implementation reports itself (``markReflected()``) each time it
/// runs. Until it has, the byte paths go through `JSON` and call the real witness,
/// hand-written or not; from then on they use the plan directly. A hand-written
/// implementation never reports, so it is always the one called.
///
/// The plans are read on every value, so ``withPlan(_:_:)`` reads them with no reference
/// counting: each style's plan, once published, also sits unretained in `planWords`, kept
/// alive by its slot, which never replaces it, for as long as the state lives. (A retain
/// and release per model value, and as many for the slot and its result, took a quarter of
/// the time encoding citm_catalog.) `@unchecked`: `planWords` is written only once per word,
/// atomically, with the same value by every racer.
final class ReflectionState<Plan: AnyObject & Sendable>: @unchecked Sendable {
  private let reflected = AtomicWord(0)
  /// One plan per key style, each built on first use.
  private let slots: [Slot]
  /// Each style's published plan, unretained (0 until published).
  private let planWords: UnsafeMutablePointer<UInt>
  private let build: @Sendable (JSON.KeyStyle) throws -> Plan
  /// The model's own key style, used when a call sets none.
  let defaultStyle: JSON.KeyStyle

  /// A built plan, or the error that building it threw (thrown again at every use).
  final class PlanResult: Sendable {
    let plan: Plan?
    let error: JSON.Error?
    init(_ result: Result<Plan, JSON.Error>) {
      switch result {
      case .success(let plan):
        self.plan = plan
        error = nil
      case .failure(let error):
        plan = nil
        self.error = error
      }
    }
  }

  /// Where one style's plan is published, once: an atomic word holding a retained
  /// `PlanResult` (0 until built). Reading it is one acquiring load, inlined; the standard
  /// library's `AtomicLazyReference` does the same but is not specialized across modules, so
  /// each load looked up generic metadata (8% of encoding citm_catalog), and it needs
  /// macOS 15.
  final class Slot: Sendable {
    private let word = AtomicWord(0)

    @inline(__always)
    func load() -> PlanResult? { AtomicObject<PlanResult>.load(word.word) }

    /// Publishes `result` unless another thread published first; returns the one that won.
    func storeIfNil(_ result: PlanResult) -> PlanResult {
      AtomicObject.storeIfNil(result, in: word.word)
    }

    deinit { AtomicObject<PlanResult>.release(word.word) }
  }

  init(defaultStyle: JSON.KeyStyle, build: @escaping @Sendable (JSON.KeyStyle) throws -> Plan) {
    self.defaultStyle = defaultStyle
    self.build = build
    slots = JSON.KeyStyle.allCases.map { _ in Slot() }
    planWords = .allocate(capacity: JSON.KeyStyle.allCases.count)
    planWords.initialize(repeating: 0, count: JSON.KeyStyle.allCases.count)
  }

  deinit { planWords.deallocate() }

  var isReflected: Bool { reflected.loadAcquiring() != 0 }

  /// Forgets that the default implementation was seen (tests only: the next use goes
  /// through `init(decode:)`/`json` again, as a first use does).
  func forgetReflected() { reflected.storeReleasing(0) }

  func markReflected() {
    if reflected.loadRelaxed() == 0 { reflected.storeReleasing(1) }
  }

  /// The plan for `style` (the model's own when `nil`), built by the first caller (racing
  /// first callers may each build one; the first stored is the one everyone uses).
  @inline(__always)
  func resolvedPlan(_ style: JSON.KeyStyle? = nil) throws -> Plan {
    let style = style ?? defaultStyle
    let slot = slots[style.slot]
    let built =
      slot.load()
      ?? slot.storeIfNil(PlanResult(Result { try build(style) }.mapError(JSON.Error.wrapping)))
    guard let plan = built.plan else {
      throw built.error ?? JSON.Error(.invalidModel, "no plan")
    }
    // The slot's result keeps it: every racer publishes the same plan.
    automap_atomic_store_release(
      planWords + style.slot, UInt(bitPattern: Unmanaged.passUnretained(plan).toOpaque()))
    return plan
  }

  /// Runs `body` with the plan for `style` (see ``resolvedPlan(_:)``), which it must not
  /// keep: once published, the plan is read with no reference counting.
  @inline(__always)
  func withPlan<R>(_ style: JSON.KeyStyle?, _ body: (Plan) throws -> R) throws -> R {
    guard let published = AtomicObject<Plan>.unmanaged(planWords + (style ?? defaultStyle).slot)
    else { return try body(resolvedPlan(style)) }
    return try published._withUnsafeGuaranteedRef(body)
  }
}

typealias ModelDecodeState = ReflectionState<DecodePlan>
typealias ModelEncodeState = ReflectionState<EncodePlan>
