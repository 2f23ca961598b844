import Foundation

/// Locates `../shared/data` (present in CI, absent in a user's clone).
enum SharedData {
  static let folder: URL? = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }  // Tests/AutoMapTests/Support/ -> root
    let candidate = url.deletingLastPathComponent().appendingPathComponent("shared/data")
    return FileManager.default.fileExists(atPath: candidate.path) ? candidate : nil
  }()

  static func folder(_ name: String) -> URL? {
    folder.map { $0.appendingPathComponent(name) }
  }

  /// A public test suite's folder: the one the environment variable `variable` names, else
  /// `../shared/data/<name>`; `nil` when that folder is absent.
  static func suite(_ variable: String, _ name: String) -> URL? {
    let candidate =
      ProcessInfo.processInfo.environment[variable].map { URL(fileURLWithPath: $0) }
      ?? folder(name)
    return candidate.flatMap { FileManager.default.fileExists(atPath: $0.path) ? $0 : nil }
  }

  /// The message a test prints when it skips for lack of shared data.
  static let absentMessage =
    "../shared/data is absent (a user's clone has none); CI runs these tests"
}
