import Foundation

/// Runs `body` on a new thread with `stackSize` bytes of stack and waits for it: for the
/// depth tests, which need a stack larger than the test runner's threads, and for the
/// small-stack tests, which need one as small as the threads users decode on.
func onThread<R: Sendable>(stackSize: Int, _ body: @escaping @Sendable () throws -> R) throws
  -> R
{
  let outcome = ThreadOutcome<R>()
  let done = DispatchSemaphore(value: 0)
  let thread = Thread {
    outcome.result = Result { try body() }
    done.signal()
  }
  thread.stackSize = stackSize
  thread.start()
  done.wait()
  return try outcome.result!.get()
}

/// What a thread's body gave: written by that thread before it signals, read after.
private final class ThreadOutcome<R>: @unchecked Sendable {
  var result: Result<R, any Error>?
}
