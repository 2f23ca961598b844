import AutoMap
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// `Benchmarks --stream [--stream-size-mb N] [--stream-memory-mb M]`: streams versus
/// `[T](jsonData:)`.
///
/// 1. Throughput on the same bytes in memory (`M` MB, default 64), in alternating rounds:
///    `[APIUser](jsonData:)`, and the synchronous and asynchronous streams over the same
///    array, and over the same users as JSON Lines.
/// 2. A file of `N` MB (default 1024) of users in one array, generated into a temporary
///    folder and streamed from disk once in a fresh process, which reports its throughput
///    and its peak resident size (`VmHWM`: the whole process, runtime included). The folder
///    is removed afterwards.
enum StreamBenchmark {
  static func run(arguments: [String], rounds: Int) throws {
    func megabytes(_ flag: String, _ fallback: Int) -> Int {
      arguments.firstIndex(of: flag).flatMap { Int(arguments[$0 + 1]) } ?? fallback
    }
    let fileMB = megabytes("--stream-size-mb", 1024)
    let memoryMB = min(megabytes("--stream-memory-mb", 64), fileMB)
    try inMemory(megabytes: memoryMB, rounds: rounds)
    try fromFile(megabytes: fileMB)
  }

  private static func inMemory(megabytes: Int, rounds: Int) throws {
    var array = Data()
    var lines = Data()
    DocumentGenerator.users(targetBytes: megabytes << 20, lines: false) { array.append($0) }
    DocumentGenerator.users(targetBytes: megabytes << 20, lines: true) { lines.append($0) }
    let arrayData = array
    let expected = try [APIUser](jsonData: array).count
    func count(_ stream: SyncJSONStream<APIUser>) throws -> Int {
      var iterator = stream.makeIterator()
      var count = 0
      while try iterator.nextElement() != nil { count += 1 }
      return count
    }
    for (name, data, format) in [
      ("array", array, JSON.StreamFormat.array), ("lines", lines, .lines),
    ] {
      let got = try count(SyncJSONStream(data: data, format: format))
      guard got == expected else {
        throw JSON.Error.custom("the \(name) stream read \(got) users, not \(expected)")
      }
    }
    let seconds = try Timing.compare(
      [
        Measurement(name: "AutoMap") { _ = try [APIUser](jsonData: array) },
        Measurement(name: "AutoMap sync array") {
          _ = try count(SyncJSONStream(data: array, format: .array))
        },
        Measurement(name: "AutoMap async array") {
          _ = try blocking { try await countAsync(JSONStream(data: arrayData, format: .array)) }
        },
        Measurement(name: "AutoMap sync lines") {
          _ = try count(SyncJSONStream(data: lines, format: .lines))
        },
      ], rounds: rounds, minimum: 0.5)
    let whole = Double(array.count) / 1e6 / seconds[0]
    print(
      "Streams, in memory: \(expected) users, \(array.count / 1_000_000) MB as an array,"
        + " \(lines.count / 1_000_000) MB as JSON Lines (median of \(rounds) alternating rounds):")
    let rows: [(String, Int, Double)] = [
      ("[APIUser](jsonData:)", array.count, seconds[0]),
      ("SyncJSONStream, array", array.count, seconds[1]),
      ("JSONStream (async), array", array.count, seconds[2]),
      ("SyncJSONStream, lines", lines.count, seconds[3]),
    ]
    for (name, size, time) in rows {
      let rate = Double(size) / 1e6 / time
      print(
        "  \(name.padding(toLength: 28, withPad: " ", startingAt: 0))"
          + String(format: "%6.0f MB/s  %5.1f%%", rate, rate / whole * 100))
    }
    lastWholeRate = whole
  }

  /// `[APIUser](jsonData:)` on the in-memory document, to compare the file's rate with.
  nonisolated(unsafe) private static var lastWholeRate = 0.0

  private static func fromFile(megabytes: Int) throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("automap-stream-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("users.json").path
    guard FileManager.default.createFile(atPath: path, contents: nil),
      let handle = FileHandle(forWritingAtPath: path)
    else { throw JSON.Error.custom("cannot create \(path)") }
    let started = Date()
    try DocumentGenerator.users(targetBytes: megabytes << 20, lines: false) {
      try handle.write(contentsOf: $0)
    }
    try handle.close()
    let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
    print(
      String(
        format: "\nStreams, from a file: %d MB generated in %.0f s at %@", size / 1_000_000,
        Date().timeIntervalSince(started), path))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = ["--stream-child", path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let fields = output.split(whereSeparator: \.isWhitespace)
    guard fields.count == 3, let users = Int(fields[0]), let seconds = Double(fields[1]),
      let peak = Int(fields[2])
    else { throw JSON.Error.custom("the stream child failed: \(output)") }
    let rate = Double(size) / 1e6 / seconds
    print(
      String(
        format:
          "  SyncJSONStream from disk: %d users in %.1f s, %.0f MB/s (%.1f%% of [APIUser](jsonData:)"
          + " in memory above); peak resident size %.1f MiB (whole process)",
        users, seconds, rate, rate / lastWholeRate * 100, Double(peak) / 1024))
  }

  /// Runs in a fresh process: streams the file once; prints users, seconds, peak KiB.
  static func child(path: String) throws {
    let start = DispatchTime.now().uptimeNanoseconds
    let format = path.hasSuffix(".jsonl") ? JSON.StreamFormat.lines : .array
    var iterator = SyncJSONStream(of: APIUser.self, contentsOfFile: path, format: format)
      .makeIterator()
    var users = 0
    var likes = 0
    while let user = try iterator.nextElement() {
      users += 1
      likes &+= user.posts.count
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    FileHandle.standardError.write(Data("stream child: \(users) users, \(likes) posts\n".utf8))
    print(users, seconds, PeakMemory.peakKiB())
  }

  private static func countAsync(_ stream: JSONStream<APIUser>) async throws -> Int {
    var count = 0
    for try await _ in stream { count += 1 }
    return count
  }

  /// Runs `body` in a task and waits for it (the benchmark's top level is synchronous).
  private static func blocking<R: Sendable>(_ body: @escaping @Sendable () async throws -> R)
    throws -> R
  {
    // The semaphore orders the task's write before the read: no lock is needed.
    nonisolated(unsafe) var result: Result<R, any Error>?
    let done = DispatchSemaphore(value: 0)
    Task {
      let outcome: Result<R, any Error>
      do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
      result = outcome
      done.signal()
    }
    done.wait()
    return try result?.get() ?? { throw JSON.Error.custom("no result") }()
  }
}
