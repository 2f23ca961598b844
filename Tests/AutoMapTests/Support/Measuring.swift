import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The CPU time the calling thread has used. Unlike wall time it does not grow while other
/// processes hold the cores, so a loaded machine moves it little.
func threadCPUTime() -> Duration {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return .seconds(Int64(time.tv_sec)) + .nanoseconds(Int64(time.tv_nsec))
}

/// How much more `body` costs at `large` than at `small`, in one run: the ratio of the least
/// thread CPU time of `runs` alternating runs at each size. A linear cost gives about
/// `large / small`, a quadratic one its square; taking the least of each filters out what
/// the rest of the machine added.
func costGrowth(
  from small: Int, to large: Int, runs: Int = 3, _ body: (Int) throws -> Void
) rethrows -> Double {
  var least: [Int: Duration] = [:]
  for _ in 0..<runs {
    for size in [small, large] {
      let start = threadCPUTime()
      try body(size)
      let elapsed = threadCPUTime() - start
      least[size] = min(least[size] ?? elapsed, elapsed)
    }
  }
  let smallest = max(least[small] ?? .zero, .microseconds(1))
  return (least[large] ?? .zero) / smallest
}
