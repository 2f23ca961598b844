import AutoMap
import Foundation
import Testing

/// A stream must read exactly what `[T](jsonData:)` reads, however its input is split.
@Suite struct StreamDifferentialTests {
  @Test(arguments: 0..<40)
  func arraysOfValuesMatchTheWholeDocument(seed: Int) async throws {
    var random = DiffRandom(seed: UInt64(seed))
    let elements = (0..<random.below(6)).map { _ in StreamDocuments.value(&random) }
    let text = Array(Doc.array(elements).render(spacing: seed % 4).text.utf8)
    let expected = StreamRun.whole(JSON.self, Data(text))
    try #require(expected.error == nil)
    for chunkSize in [1, 2, 3, 7, 64, 1 << 20] {
      let streamed = StreamRun.sync(JSON.self, Data(text), .array, options: .chunked(chunkSize))
      #expect(
        streamed.error == nil, "chunk size \(chunkSize): \(String(describing: streamed.error))")
      #expect(streamed.values == expected.values, "chunk size \(chunkSize)")
    }
    let chunks = StreamDocuments.chunks(text, &random, largest: 9)
    let streamed = await StreamRun.async(JSON.self, chunks: chunks, .array, options: .chunked(4))
    #expect(streamed.values == expected.values)
    #expect(streamed.error == nil)
  }

  @Test func everySplitOfADocument() async throws {
    var random = DiffRandom(seed: 99)
    let users = (0..<3).map { StreamDocuments.user(&random, id: $0) }
    let text = Array(("[" + users.joined(separator: ",\n ") + "]").utf8)
    let expected = try [StreamUser](jsonData: Data(text))
    for split in 0...text.count {
      let chunks = [Array(text[..<split]), Array(text[split...])].filter { !$0.isEmpty }
      let streamed = await StreamRun.async(StreamUser.self, chunks: chunks, .array)
      #expect(streamed.values == expected, "split at \(split)")
      #expect(streamed.error == nil, "split at \(split)")
      let lines = Array(users.joined(separator: "\r\n").utf8)
      let cut = min(split, lines.count)
      let lineChunks = [Array(lines[..<cut]), Array(lines[cut...])].filter { !$0.isEmpty }
      let fromLines = await StreamRun.async(StreamUser.self, chunks: lineChunks, .lines)
      #expect(fromLines.values == expected, "lines split at \(split)")
    }
  }

  @Test func aByteOrderMarkSplitAnywhere() async {
    for (text, format) in [("\u{FEFF}[1, 22]", JSON.StreamFormat.array), ("\u{FEFF}1\n22", .lines)]
    {
      let bytes = Array(text.utf8)
      for split in 1..<bytes.count {
        let chunks = [Array(bytes[..<split]), Array(bytes[split...])]
        let streamed = await StreamRun.async(Int.self, chunks: chunks, format)
        #expect(streamed.values == [1, 22], "\(format) split at \(split)")
        #expect(streamed.error == nil)
      }
    }
  }

  @Test(arguments: 0..<30)
  func modelsMatchTheWholeDocumentValueForValueAndErrorForError(seed: Int) throws {
    var random = DiffRandom(seed: UInt64(1000 + seed))
    let users = (0..<(1 + random.below(8))).map {
      StreamDocuments.user(&random, id: $0, valid: !random.chance(10))
    }
    let array = Data(("[" + users.joined(separator: ",") + "]").utf8)
    let expected = StreamRun.whole(StreamUser.self, array)
    // Each element decoded alone: the stream yields those before the first that fails.
    let alone = users.map { try? StreamUser(jsonString: $0) }
    let firstFailing = alone.firstIndex { $0 == nil }
    #expect((firstFailing == nil) == (expected.error == nil), "seed \(seed)")
    for chunkSize in [1, 5, 1 << 20] {
      let streamed = StreamRun.sync(StreamUser.self, array, .array, options: .chunked(chunkSize))
      if let error = expected.error, let firstFailing {
        // The first element that fails is the one the whole document reports.
        #expect(error.path.hasPrefix("[\(firstFailing)]"), "seed \(seed): \(error)")
        #expect(streamed.error?.path == error.path)
        #expect(streamed.error?.message == error.message)
        #expect(streamed.values == alone[..<firstFailing].compactMap { $0 }, "seed \(seed)")
      } else {
        #expect(streamed.error == nil)
        #expect(streamed.values == expected.values)
      }
      let lines = Data(users.joined(separator: random.pick(["\n", "\r\n", "\n\n", "\n \n"])).utf8)
      let fromLines = StreamRun.sync(StreamUser.self, lines, .lines, options: .chunked(chunkSize))
      #expect(fromLines.values.count == streamed.values.count)
      #expect(fromLines.values == streamed.values)
      #expect(fromLines.error?.path == streamed.error?.path)
    }
  }

  /// Malformed text: a stream fails where the whole document fails, at the same byte, and
  /// never traps or hangs.
  @Test(arguments: 0..<60)
  func malformedArraysFailAsTheWholeDocumentDoes(seed: Int) throws {
    var random = DiffRandom(seed: UInt64(5000 + seed))
    let elements = (0..<(1 + random.below(4))).map { _ in StreamDocuments.value(&random) }
    let text = DiffMutation.malform(Doc.array(elements).render(spacing: seed % 3), &random)
    let data = Data(text.utf8)
    let expected = StreamRun.whole(JSON.self, data)
    for chunkSize in [1, 3, 1 << 20] {
      let streamed = StreamRun.sync(JSON.self, data, .array, options: .chunked(chunkSize))
      #expect(
        (streamed.error == nil) == (expected.error == nil),
        "\(text): stream \(String(describing: streamed.error)), whole \(String(describing: expected.error))"
      )
      if expected.error == nil { #expect(streamed.values == expected.values) }
      // Text that does not open with `[` is no array stream, and says so at its start.
      let opensArray = text.drop(while: \.isWhitespace).first == "["
      if opensArray, case .malformed? = expected.error?.kind,
        case .malformed? = streamed.error?.kind
      {
        #expect(
          streamed.error?.kind == expected.error?.kind,
          "\(text): \(String(describing: streamed.error)) vs \(String(describing: expected.error))"
        )
      }
    }
  }

  /// Random truncations and byte mutations of a valid document: the stream ends, with
  /// values or an error, and never yields more elements than the document has.
  @Test(arguments: 0..<20)
  func mutationsNeverTrapOrHang(seed: Int) throws {
    var random = DiffRandom(seed: UInt64(9000 + seed))
    let users = (0..<4).map { StreamDocuments.user(&random, id: $0) }
    let original = Array(("[" + users.joined(separator: ",") + "]").utf8)
    let pieces: [UInt8] = Array("[]{}\",:\\ \n0e-.tx".utf8) + [0, 0xFF, 0xC3]
    for _ in 0..<20 {
      var bytes = original
      switch random.below(3) {
      case 0: bytes = Array(bytes.prefix(random.below(bytes.count)))
      case 1: bytes[random.below(bytes.count)] = random.pick(pieces)
      default: bytes.insert(random.pick(pieces), at: random.below(bytes.count + 1))
      }
      for format in [JSON.StreamFormat.array, .lines] {
        let streamed = StreamRun.sync(
          StreamUser.self, Data(bytes), format, options: .chunked(random.pick([1, 4, 4096])))
        #expect(streamed.values.count <= 4)
        if format == .array, streamed.error == nil {
          #expect(streamed.values == (try? [StreamUser](jsonData: Data(bytes))))
        }
      }
    }
  }
}
