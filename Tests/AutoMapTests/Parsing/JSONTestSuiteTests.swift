import AutoMap
import Foundation
import Testing

/// The JSONTestSuite conformance corpus: `y_` must parse, `n_` must be rejected, `i_` may go
/// either way but must not crash.
@Suite("JSONTestSuite conformance")
struct JSONTestSuiteTests {
  static let cases: [URL] = {
    guard let folder = SharedData.folder("JSONTestSuite") else { return [] }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".json") }.sorted().map { folder.appendingPathComponent($0) }
  }()

  @Test(
    "every case answers as the suite requires",
    .enabled(if: !cases.isEmpty, Comment(rawValue: SharedData.absentMessage)))
  func conformance() throws {
    var checked = 0
    for url in Self.cases {
      let name = url.lastPathComponent
      let data = try Data(contentsOf: url)
      let result = Result { try JSON(jsonData: data) }
      switch name.first {
      case "y":
        let value = try #require(try? result.get(), "\(name) must parse")
        // What we read, we write back and read again unchanged.
        #expect(try JSON(jsonData: value.jsonData()) == value, "\(name) round-trips")
      case "n":
        if case .success(let value) = result {
          Issue.record("\(name) must be rejected, parsed \(value)")
        }
        if case .failure(let error) = result {
          #expect(error is JSON.Error, "\(name) fails with JSON.Error")
        }
      default:
        _ = result  // either answer is fine; not crashing is the test
      }
      checked += 1
    }
    #expect(checked > 300, "the whole suite was read")
  }
}
