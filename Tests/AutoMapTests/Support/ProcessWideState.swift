@_spi(Testing) import AutoMap
import Testing

/// The parent of the suites whose tests change process-wide state: forget every model's
/// reflection (``forgetReflection(sourceLocation:)``) or assign `DateTransform.default`.
///
/// `.serialized` on a suite runs its own tests one at a time, and on a parent the tests of all
/// the suites nested in it, but it does not stop other suites from running beside them. So
/// every test that forgets reflection lives under this parent: none can turn another's
/// "later use" back into a first use. A first use is certain only for a type that no suite
/// outside this parent uses (another suite could observe its reflection at any moment), so
/// such tests use their own types. What they change stays harmless to the suites running
/// beside them: forgetting reflection changes which path a call takes, never its result, and
/// the date transform assigned reads and writes every date the others use as the default does.
/// A test that asserts the path itself (which `Decoder` ran, what it kept) lives here too:
/// beside a forgetting test, its "later use" may become a first use through `JSON`.
@Suite("Process-wide state", .serialized)
enum ProcessWideState {}

extension ProcessWideState {
  /// Makes every model's next use a first use again (`AutoMapTesting.forgetReflection()`),
  /// checking that the test calling it runs under this parent.
  static func forgetReflection(sourceLocation: SourceLocation = #_sourceLocation) {
    expectInside(sourceLocation: sourceLocation)
    AutoMapTesting.forgetReflection()
  }

  /// Records an issue unless the running test is one of this parent's: for tests that forget
  /// reflection, and for tests that assert which path a call takes (the byte `Decoder` or the
  /// reference, bytes or `JSON`), which a forgetting test running beside them would change.
  /// (A test that runs a call on a thread of its own is not checked there.)
  static func expectInside(sourceLocation: SourceLocation = #_sourceLocation) {
    guard let test = Test.current else { return }
    #expect(
      test.id.nameComponents.first == "ProcessWideState",
      "\(test.id) changes or observes process-wide state: move it under ProcessWideState",
      sourceLocation: sourceLocation)
  }
}
