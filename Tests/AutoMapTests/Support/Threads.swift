import Foundation

/// Runs `body` on a new thread with `stackSize` bytes of stack and waits for it: for the
/// depth tests, which need a stack larger than the test runner's threads, and for the
/// small-stack tests, which need one as small as the threads users decode on.
///
/// What `body` captures and what it returns are released on the caller's thread, never on the
/// new one: a value deeper than a small stack can free (Swift frees nested values by
/// recursion) is made and freed on a large stack, and only used on the small one.
func onThread<R: Sendable>(stackSize: Int, _ body: @escaping @Sendable () throws -> R) throws
  -> R
{
  let outcome = ThreadOutcome<R>(body)
  let done = DispatchSemaphore(value: 0)
  let thread = Thread {
    outcome.result = Result { try outcome.body!() }
    // Released now, while the caller still holds what it captured: released when the thread
    // ends, it could be the last reference.
    outcome.body = nil
    done.signal()
  }
  thread.stackSize = stackSize
  thread.start()
  done.wait()
  let result = outcome.result!
  outcome.result = nil
  return try result.get()
}

/// The body a thread runs, and what it gave: written by that thread before it signals, read
/// after.
private final class ThreadOutcome<R>: @unchecked Sendable {
  var body: (@Sendable () throws -> R)?
  var result: Result<R, any Error>?
  init(_ body: @escaping @Sendable () throws -> R) { self.body = body }
}
