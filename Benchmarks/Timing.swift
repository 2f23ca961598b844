import Foundation

/// Measures contenders in alternating rounds and reports medians, so that a change in the
/// machine's load affects all of them alike.
struct Measurement {
  let name: String
  let run: () throws -> Void
}

enum Timing {
  /// `--ours-only`: measure AutoMap alone (for a profiler); other contenders report NaN.
  nonisolated(unsafe) static var oursOnly = false
  /// `--contender <name>`: measure only the contender of that name.
  nonisolated(unsafe) static var only: String? = nil

  /// Seconds for one call of `body`, measured over enough calls to take `minimum` seconds.
  static func secondsPerCall(minimum: Double, _ body: () throws -> Void) rethrows -> Double {
    var calls = 0
    let start = DispatchTime.now().uptimeNanoseconds
    var elapsed: Double = 0
    repeat {
      try body()
      calls += 1
      elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    } while elapsed < minimum
    return elapsed / Double(calls)
  }

  /// Median seconds per call for each contender, over `rounds` alternating rounds.
  static func compare(_ contenders: [Measurement], rounds: Int, minimum: Double) throws -> [Double]
  {
    let skipped = contenders.map { contender in
      (oursOnly && !contender.name.hasPrefix("AutoMap"))
        || (only.map { $0 != contender.name } ?? false)
    }
    // Warm up: caches, plans, pages.
    for (contender, skip) in zip(contenders, skipped) where !skip { try contender.run() }
    var samples = Array(repeating: [Double](), count: contenders.count)
    for round in 0..<rounds {
      // Alternate which contender goes first.
      let order = round % 2 == 0 ? Array(contenders.indices) : contenders.indices.reversed()
      for index in order {
        if skipped[index] {
          samples[index].append(.nan)
          continue
        }
        samples[index].append(try secondsPerCall(minimum: minimum, contenders[index].run))
      }
    }
    return samples.map { $0.sorted()[$0.count / 2] }
  }
}
