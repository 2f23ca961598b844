/// Collecting every problem of a failing decode (``JSON/Configuration/collectsAllErrors``).
///
/// Only the failure branches of the `JSON` path's loops (models, arrays, sets, dictionaries)
/// look here, once a value has failed: a decode that succeeds never does. The byte path
/// needs nothing: whenever it fails, the document is decoded again through `JSON` values
/// (see ``ModelDecoding``), and that decode collects.
enum Problems {
  /// Whether the current call collects every problem, and `error` leaves the rest of the
  /// document readable (not malformed text, nesting too deep or a model that cannot be mapped).
  static func goOn(after error: JSON.Error) -> Bool {
    error.isRecoverable && ConfigurationContext.current?.collectsAllErrors == true
  }
}

/// The problems found so far in one model, array or dictionary: the first
/// ``JSON/Error/problemLimit`` kept, all counted.
struct ProblemList {
  private var kept: [JSON.Error] = []
  private var total = 0
  /// Set once a problem that ends the collecting (not recoverable) was added.
  private(set) var isFinal = false

  /// Adds `error`'s problems (it may have collected several), each with `prefix` applied to
  /// its path; only those kept are prefixed, so a long list costs no more than the limit.
  mutating func add(_ error: JSON.Error, prefix: (JSON.Error) -> JSON.Error = { $0 }) {
    total += error.problemTotal
    if !error.isRecoverable { isFinal = true }
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
    return first
  }
}
