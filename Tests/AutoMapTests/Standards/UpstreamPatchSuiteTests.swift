import AutoMap
import Foundation
import Testing

/// The public json-patch test suite (github.com/json-patch/json-patch-tests): its
/// `tests.json` and `spec_tests.json`, read from the folder `AUTOMAP_JSON_PATCH_TESTS` names
/// (or `../shared/data/json-patch-tests`). Nothing of it is copied into this repository.
@Suite("json-patch-tests conformance")
struct UpstreamPatchSuiteTests {
  static let folder = SharedData.suite("AUTOMAP_JSON_PATCH_TESTS", "json-patch-tests")

  static let absent =
    "set AUTOMAP_JSON_PATCH_TESTS to a folder with json-patch-tests' tests.json and"
    + " spec_tests.json (or put them in ../shared/data/json-patch-tests)"

  /// Cases that cannot pass, each with why. The suite disables both itself.
  static let unreachable: [String: String] = [
    "duplicate ops":
      "two \"op\" members in one operation: a JSON value holds one (the reader keeps the last)",
    "A.13 Invalid JSON Patch Document":
      "two \"op\" members in one operation: a JSON value holds one (the reader keeps the last)",
  ]

  @Test(
    "every case of tests.json and spec_tests.json passes, or is listed with why",
    .enabled(if: folder != nil, Comment(rawValue: absent)),
    arguments: ["tests.json", "spec_tests.json"])
  func suite(file: String) throws {
    let folder = try #require(Self.folder)
    let cases = try JSON(jsonData: Data(contentsOf: folder.appendingPathComponent(file)))
    var passed = 0
    var listed = 0
    var total = 0
    for (position, testCase) in cases.enumerated() {
      guard !testCase["doc"].isMissing else { continue }  // a comment alone
      total += 1
      let name = String(testCase["comment"]) ?? "case \(position)"
      if let reason = Self.unreachable[name] {
        listed += 1
        print("\(file) \(name): not run: \(reason)")
        continue
      }
      let result = Result {
        try testCase["doc"].applying(try JSON.Patch(decode: testCase["patch"]))
      }
      if !testCase["error"].isMissing {
        if case .success(let value) = result {
          Issue.record("\(file) \(name): must fail (\(testCase["error"])), gave \(value)")
          continue
        }
      } else if !testCase["expected"].isMissing {
        guard case .success(let value) = result, value == testCase["expected"] else {
          Issue.record("\(file) \(name): expected \(testCase["expected"]), got \(result)")
          continue
        }
      } else if case .failure(let error) = result {
        Issue.record("\(file) \(name): must apply, failed: \(error)")
        continue
      }
      passed += 1
    }
    print("\(file): \(passed) of \(total) cases pass, \(listed) listed as not runnable")
    #expect(passed + listed == total)
    #expect(total > 10, "the suite was read")
  }
}
