/// Whether the current call reports more than a value: every problem
/// (``JSON/Configuration/collectsAllErrors``) or substitutions
/// (``JSON/Configuration/onSubstitution``).
///
/// The `JSON` path's containers (models, arrays, sets, dictionaries) load one flag, which
/// stays clear until some call in the process first asks for a report, and only then take
/// their reporting loops; their usual loops are the same as without the feature. The byte
/// path needs nothing: whenever it fails, the document is decoded again through `JSON`
/// values (see ``ModelDecoding``), and a recording call does not take it.
enum Reporting {
  /// Set when a configuration that asks for a report is first bound; never cleared.
  private static var inUse: ProcessFlag { .reporting }

  static func noteInUse(_ configuration: JSON.Configuration) {
    guard configuration.collectsAllErrors == true || configuration.onSubstitution != nil,
      !inUse.isSet
    else { return }
    inUse.set()
  }

  /// Whether any call has asked for a report yet: a plain load.
  @inline(__always)
  static var mayBeActive: Bool { inUse.isSet }

  /// Whether the current call asks for a report.
  @inline(__always)
  static var isActive: Bool {
    guard inUse.isSet, let configuration = ConfigurationContext.current else {
      return false
    }
    return configuration.collectsAllErrors == true || configuration.onSubstitution != nil
  }
}

/// Collecting every problem of a failing decode (``JSON/Configuration/collectsAllErrors``),
/// in the reporting loops of the `JSON` path.
enum Problems {
  /// Whether the current call collects every problem, and `error` leaves the rest of the
  /// document readable (not malformed text, nesting too deep or a model that cannot be mapped).
  static func goOn(after error: JSON.Error) -> Bool {
    error.isRecoverable && !error.endsCollecting
      && ConfigurationContext.current?.collectsAllErrors == true
  }
}

extension Problems {
  /// Decodes the parts of a container (`read` each, in order) for a call that asks for a
  /// report: each at its place in the path (`place`) while substitutions are recorded; with
  /// `lossy`, a part that fails is left out and recorded as such; and, when the call collects
  /// every problem, past the parts that fail. Then throws every problem found. The reporting
  /// loop of arrays and dictionaries, of models and of protocol types alike.
  static func each<Part>(
    _ parts: some Sequence<Part>, at place: (Part) -> JSON.Error.Component, lossy: Bool = false,
    _ read: (Part) throws -> Void
  ) throws {
    let recording = Substitutions.isRecording
    var problems: ProblemList?
    for part in parts {
      let component = place(part)
      do {
        try Substitutions.within(recording ? [component] : []) { try read(part) }
      } catch {
        let wrapped = JSON.Error.wrapping(error)
        if lossy {
          guard wrapped.isRecoverable else { throw error }
          Substitutions.record(
            .lossyElement, at: [component], problem: wrapped.prefixed(component), replacement: "")
          continue
        }
        if problems == nil {
          guard goOn(after: wrapped) else { throw wrapped.prefixed(component) }
          problems = ProblemList()
        }
        problems?.add(wrapped) { $0.prefixed(component) }
        if let problems, problems.isFinal { throw problems.error }
      }
    }
    if let problems { throw problems.error }
  }
}

struct ProblemList {
  private var kept: [JSON.Error] = []
  private var total = 0
  /// Set once a problem that ends the collecting (not recoverable) was added.
  private(set) var isFinal = false

  /// Adds `error`'s problems (it may have collected several), each with `prefix` applied to
  /// its path; only those kept are prefixed, so a long list costs no more than the limit.
  mutating func add(_ error: JSON.Error, prefix: (JSON.Error) -> JSON.Error = { $0 }) {
    total += error.problemTotal
    if !error.isRecoverable || error.endsCollecting { isFinal = true }
    let room = JSON.Error.problemLimit - kept.count
    guard room > 0 else { return }
    for problem in error.problems.prefix(room) { kept.append(prefix(problem)) }
  }

  /// One error: the first problem, carrying the others and the count.
  var error: JSON.Error {
    guard var first = kept.first else {
      return JSON.Error(.custom, "no problem (internal)")
    }
    first.moreProblems = Array(kept.dropFirst())
    first.problemTotal = total
    first.endsCollecting = isFinal
    return first
  }
}
