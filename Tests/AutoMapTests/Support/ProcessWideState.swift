import Testing

/// The parent of the suites whose tests change process-wide state: forget every model's
/// reflection (`AutoMapTesting.forgetReflection()`) or assign `DateTransform.default`.
///
/// `.serialized` on a suite runs its own tests one at a time, and on a parent the tests of all
/// the suites nested in it, but it does not stop other suites from running beside them. So
/// every test that forgets reflection lives under this parent: none can turn another's
/// "later use" back into a first use. A first use is certain only for a type that no suite
/// outside this parent uses (another suite could observe its reflection at any moment), so
/// such tests use their own types. What they change stays harmless to the suites running
/// beside them: forgetting reflection changes which path a call takes, never its result, and
/// the date transform assigned reads and writes every date the others use as the default does.
@Suite("Process-wide state", .serialized)
enum ProcessWideState {}
