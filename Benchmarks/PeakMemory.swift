import AutoMap
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Peak memory of each path, measured in a fresh process per task (peak resident size is
/// per process, so tasks cannot share one): `Benchmarks --peak-memory`.
enum PeakMemory {
  static let tasks = [
    "automap-parse", "foundation-parse", "automap-decode", "foundation-decode", "automap-encode",
    "foundation-encode",
  ]

  /// Runs in the child: reads the document from `path`, then does `task` once, and prints
  /// the peak resident size in KiB before and after it. (For the encode tasks the models
  /// are decoded first, with AutoMap for both, and the baseline is taken after that.)
  static func child(_ task: String, path: String) throws {
    let data = try readExactly(path)
    let model = task.hasSuffix("encode") ? try APIResponse(jsonData: data) : nil
    let before = peakKiB()
    // Each result is used (its size printed to standard error) so none can be optimized away.
    var size = 0
    switch task {
    case "automap-parse": size = try JSON(jsonData: data).count
    case "foundation-parse":
      size = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?.count ?? 0
    case "automap-decode": size = try APIResponse(jsonData: data).users.count
    case "foundation-decode":
      size = try JSONDecoder().decode(APIResponse.self, from: data).users.count
    case "automap-encode": size = try model?.jsonData().count ?? 0
    case "foundation-encode": size = try JSONEncoder().encode(model).count
    default: throw JSON.Error.custom("unknown task \(task)")
    }
    FileHandle.standardError.write(Data("\(task): \(size)\n".utf8))
    print(before, peakKiB())
  }

  /// Runs every task in a child process and prints how much each raised the peak.
  static func report() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("automap-16mb.json")
      .path
    let data = DocumentGenerator.apiResponse(targetBytes: 16 << 20)
    try data.write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    print(
      "Peak memory on the \(data.count >> 20) MiB document (growth of peak resident size over the"
        + " loaded document; one process per task):")
    for task in tasks {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
      process.arguments = ["--peak-memory-child", task, path]
      let pipe = Pipe()
      process.standardOutput = pipe
      try process.run()
      process.waitUntilExit()
      let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      let numbers = output.split(separator: " ").compactMap {
        Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
      }
      guard numbers.count == 2 else {
        print("  \(task): failed (\(output))")
        continue
      }
      print(
        "  \(task.padding(toLength: 18, withPad: " ", startingAt: 0)) +\((numbers[1] - numbers[0]) / 1024) MiB"
      )
    }
  }

  /// The file's bytes in one exact-size allocation, read with `read(2)`: reading leaves no
  /// freed buffer behind for the measured task to reuse, which would hide its growth.
  private static func readExactly(_ path: String) throws -> Data {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw JSON.Error.custom("cannot open \(path)") }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, let buffer = malloc(max(Int(status.st_size), 1)) else {
      throw JSON.Error.custom("cannot read \(path)")
    }
    var filled = 0
    while filled < Int(status.st_size) {
      let count = read(descriptor, buffer + filled, Int(status.st_size) - filled)
      guard count > 0 else {
        free(buffer)
        throw JSON.Error.custom("cannot read \(path)")
      }
      filled += count
    }
    return Data(bytesNoCopy: buffer, count: filled, deallocator: .free)
  }

  /// The peak resident size of this process's address space, in KiB (`VmHWM`). Not
  /// `getrusage`'s `ru_maxrss`: on Linux that survives `exec`, so a child started by this
  /// benchmark would report the parent's peak.
  static func peakKiB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return 0 }
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
  }
}
