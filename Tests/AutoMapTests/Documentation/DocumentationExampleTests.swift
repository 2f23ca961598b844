import Foundation
import Testing

/// The DocC articles show only code that these tests run. Every ```swift block of an article in
/// Sources/AutoMap/AutoMap.docc must be, line for line, one `// docc:begin` … `// docc:end`
/// region of the example file that the article names in an HTML comment
/// (`<!-- Examples: Tests/AutoMapTests/Documentation/OptionsExamples.swift, run by … -->`), and
/// every region of that file must be shown in its article. So an example that stops compiling, or whose
/// result changes, fails here, and an article cannot show code that was edited only there.
@Suite("Documentation: the articles show the code the tests run")
struct DocumentationExampleTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let catalog = root.appendingPathComponent("Sources/AutoMap/AutoMap.docc")

  static func articles() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: catalog.path)
      .filter { $0.hasSuffix(".md") }.sorted()
  }

  /// The ```swift blocks of a Markdown file, each without its fences.
  static func swiftBlocks(_ markdown: String) -> [String] {
    var blocks: [String] = []
    var current: [Substring]?
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
        current = []
      } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
        blocks.append(current.map { $0.joined(separator: "\n") } ?? "")
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks
  }

  /// The regions of a Swift file, each without its markers and without the indentation of its
  /// `// docc:begin` line.
  static func regions(_ source: String) -> [String] {
    var regions: [String] = []
    var current: [Substring]?
    var indent = 0
    for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed == "// docc:begin" {
        indent = line.prefix { $0 == " " }.count
        current = []
      } else if trimmed == "// docc:end" {
        regions.append(current.map { $0.joined(separator: "\n") } ?? "")
        current = nil
      } else if current != nil {
        let dropped = line.prefix(indent).allSatisfy { $0 == " " } ? line.dropFirst(indent) : line
        current?.append(dropped)
      }
    }
    return regions
  }

  static func examplesFile(of markdown: String) -> String? {
    guard let start = markdown.range(of: "<!-- Examples: ") else { return nil }
    let rest = markdown[start.upperBound...]
    // The path, then optional words: `<!-- Examples: Tests/…/X.swift, run by … -->`.
    let path = rest.prefix { $0 != " " && $0 != "," }
    return path.hasSuffix(".swift") ? String(path) : nil
  }

  @Test("The catalog has the articles of README's order")
  func catalogHasArticles() throws {
    let expected = [
      "AutoMap.md", "ClassesAndPolymorphism.md", "Codable.md", "ComingFrom.md",
      "ConfigurationAndReports.md", "Enums.md", "Errors.md", "GettingStarted.md",
      "KeyStylesAndPaths.md", "Options.md", "Performance.md", "ReflectionRules.md", "Streams.md",
    ]
    #expect(Set(expected).isSubset(of: Set(try Self.articles())))
  }

  @Test("Each swift block of an article is a region its example file runs, and back")
  func blocksAreTested() throws {
    var checkedBlocks = 0
    var shown: [String: [String]] = [:]  // examples file -> the blocks of articles naming it
    for article in try Self.articles() {
      let markdown = try String(
        contentsOf: Self.catalog.appendingPathComponent(article), encoding: .utf8)
      let blocks = Self.swiftBlocks(markdown)
      guard let file = Self.examplesFile(of: markdown) else {
        #expect(blocks.isEmpty, "\(article) shows Swift code but names no examples file")
        continue
      }
      let source = try String(
        contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
      let regions = Self.regions(source)
      for block in blocks {
        checkedBlocks += 1
        let isRegion = regions.contains(block)
        #expect(isRegion, "\(article): this block is not a docc region of \(file):\n\(block)")
      }
      shown[file, default: []].append(contentsOf: blocks)
    }
    // Every region is shown by an article naming its file.
    for (file, blocks) in shown {
      let source = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
      for region in Self.regions(source) {
        let isShown = blocks.contains(region)
        #expect(isShown, "\(file): this region is in no article:\n\(region)")
      }
    }
    #expect(checkedBlocks >= 20)
  }

  @Test("The checker finds a block that is not a region")
  func checkerCatchesDrift() {
    let source = "enum E {\n  // docc:begin\n  let a = 1  // one\n  // docc:end\n}\n"
    #expect(Self.regions(source) == ["let a = 1  // one"])
    #expect(Self.swiftBlocks("x\n```swift\nlet a = 1  // one\n```\n") == ["let a = 1  // one"])
    #expect(!Self.regions(source).contains("let a = 2  // one"))
  }
}
