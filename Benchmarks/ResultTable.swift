import Foundation

/// The benchmark's output: one row per document and task, throughput and ratio.
struct ResultTable {
  private var rows: [[String]] = []
  /// AutoMap's throughput in MB/s, by document and task.
  private var throughputs: [String: Double] = [:]

  var isEmpty: Bool { rows.isEmpty }

  func throughput(document: String, task: String) -> Double? {
    throughputs[document + "\u{0}" + task]
  }

  mutating func add(
    document: String, task: String, megabytes: Double, ours: Double, theirs: Double, versus: String
  ) {
    throughputs[document + "\u{0}" + task] = megabytes / ours
    rows.append([
      document, task, format(megabytes / ours), format(megabytes / theirs), versus,
      String(format: "%.2fx", theirs / ours),
    ])
  }

  private func format(_ throughput: Double) -> String { String(format: "%.0f MB/s", throughput) }

  func render() -> String {
    let header = ["document", "task", "AutoMap", "Foundation", "Foundation API", "ratio"]
    let all = [header] + rows
    let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
    func line(_ cells: [String]) -> String {
      "| "
        + zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(
          separator: " | ") + " |"
    }
    let rule =
      "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|"
    return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
  }
}
