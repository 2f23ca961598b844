import AutoMap

/// Runs the tour's steps: each prints its statement and result, the way a playground's
/// sidebar shows them, and checks the result against what the tour says it is.
struct Tour {
  private(set) var failures = 0
  private var steps = 0

  mutating func section(_ title: String) {
    print("\n━━ \(title) " + String(repeating: "━", count: max(0, 70 - title.count)))
  }

  mutating func note(_ text: String) {
    print("   // \(text)")
  }

  /// Shows `statement` and what it evaluates to; the result must read as `expected`.
  mutating func step(_ statement: String, _ expected: String, _ body: () throws -> Any) {
    steps += 1
    let shown: String
    do {
      shown = Self.describe(try body())
    } catch {
      shown = "throws \(error)"
    }
    let ok = shown == expected
    if !ok { failures += 1 }
    print(ok ? "   \(statement)" : "✘  \(statement)")
    for line in shown.split(separator: "\n", omittingEmptySubsequences: false) {
      print("      → \(line)")
    }
    if !ok { print("      expected: \(expected)") }
  }

  private static func describe(_ value: Any) -> String {
    if let string = value as? String { return string }
    if let optional = value as? (any OptionalProtocol) { return optional.describedOrNil }
    return String(describing: value)
  }

  func finish() -> Int32 {
    print("\n\(steps) steps, \(failures) did not show what they should.")
    return failures == 0 ? 0 : 1
  }
}

protocol OptionalProtocol { var describedOrNil: String { get } }
extension Optional: OptionalProtocol {
  var describedOrNil: String { map { String(describing: $0) } ?? "nil" }
}

/// A message shown as a step's error, for steps that abridge a long one.
struct PlaygroundMessage: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
