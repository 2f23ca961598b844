import AutoMap
import Foundation
import Testing

/// The same lenient text through every entry point that reads text: the explicit `reading:`
/// argument, a configuration (a call's, a scope's), `JSON`, `update`, any-type decoding, and
/// streams (each element, array and JSON Lines, sync and async, in chunks of every size).
/// All give one answer; strict reading, the default, refuses the text everywhere.
@Suite("Lenient reading through every entry point")
struct LenientEntryPointTests {
  /// Pieces of lenient text that mean nothing: comments holding what a scanner could
  /// mistake for structure.
  static let comments = [
    "// a ] and a \" and a '\n", "/* } ] \" ' [ { */", "/* multi\nline ] */", "//\n",
    "/**/", "/* // */",
  ]

  /// A user as lenient text (comments, single quotes, unquoted keys, hexadecimal, `+`,
  /// trailing commas), and the user it means.
  static func lenientUser(_ random: inout DiffRandom, id: Int) -> (String, StreamUser) {
    func gap() -> String { random.chance(30) ? " " + random.pick(comments) + " " : " " }
    let name = random.pick([
      ("'it\\'s'", "it's"), ("'a \"]\" b'", "a \"]\" b"), ("\"plain\"", "plain"),
    ])
    let tags = (0..<random.below(3)).map { _ in
      random.pick([("'b,c'", "b,c"), ("\"]\"", "]"), ("'{'", "{")])
    }
    let hasAddress = random.chance(50)
    let zip = random.below(5000)
    func key(_ name: String) -> String { random.chance(50) ? name : "'\(name)'" }
    let tagText =
      tags.map(\.0).joined(separator: ",\(gap())") + (tags.isEmpty || random.chance(50) ? "" : ",")
    var text = "{\(gap())\(key("id")):\(gap())0x\(String(id, radix: 16)),\(gap())"
    text += "\(key("name")): \(name.0), tags: [\(tagText)\(gap())]"
    if hasAddress {
      text += ",\(gap())address: {city: 'Oslo', zip: +\(zip),\(gap())}"
    }
    if random.chance(50) { text += "," }
    text += "\(gap())}"
    let user = StreamUser(
      id: id, name: name.1, tags: tags.map(\.1),
      address: hasAddress ? StreamAddress(city: "Oslo", zip: zip) : nil, score: nil)
    return (text, user)
  }

  /// A lenient array of users: comments between the elements, a trailing comma.
  static func lenientArray(_ random: inout DiffRandom, count: Int) -> (String, [StreamUser]) {
    var users: [StreamUser] = []
    var text = random.chance(50) ? "// users\n[" : "["
    for id in 0..<count {
      let (element, user) = lenientUser(&random, id: id)
      users.append(user)
      text += (id == 0 ? "" : ",") + (random.chance(40) ? random.pick(comments) : "\n  ") + element
    }
    text +=
      (count > 0 && random.chance(50) ? ",\n" : "\n")
      + random.pick(["]", "] // end", "]/* end */\n"])
    return (text, users)
  }

  /// Every way to read `text` as `[StreamUser]` leniently.
  static func everyReading(_ text: String, _ options: JSON.ReadingOptions) async -> [(
    String, Result<[StreamUser], any Error>
  )] {
    let data = Data(text.utf8)
    let configured = JSON.Configuration(reading: options)
    var streamOptions = JSON.StreamOptions.chunked(7)
    streamOptions.reading = options
    var configuredStream = JSON.StreamOptions.chunked(5)
    configuredStream.configuration = configured
    var readings: [(String, Result<[StreamUser], any Error>)] = [
      ("[T](jsonData:reading:)", Result { try [StreamUser](jsonData: data, reading: options) }),
      ("[T](jsonString:reading:)", Result { try [StreamUser](jsonString: text, reading: options) }),
      (
        "[T](jsonData:configuration:)",
        Result { try [StreamUser](jsonData: data, configuration: configured) }
      ),
      (
        "[T](jsonString:configuration:)",
        Result { try [StreamUser](jsonString: text, configuration: configured) }
      ),
      (
        "[T](jsonData:at:configuration:)",
        Result { try [StreamUser](jsonData: data, at: [], configuration: configured) }
      ),
      (
        "withConfiguration { [T](jsonData:) }",
        Result { try JSON.withConfiguration(configured) { try [StreamUser](jsonData: data) } }
      ),
      (
        "withConfiguration { JSON.decode(_:fromJSONData:) }",
        Result {
          try JSON.withConfiguration(configured) {
            try JSON.decode([StreamUser].self, fromJSONData: data)
          }
        }
      ),
      (
        "JSON(jsonData:reading:) then decode",
        Result { try [StreamUser](decode: JSON(jsonData: data, reading: options)) }
      ),
      (
        "JSON(jsonData:configuration:) then decode",
        Result { try [StreamUser](decode: JSON(jsonData: data, configuration: configured)) }
      ),
      (
        "withConfiguration { JSON(jsonString:) } then decode",
        Result {
          try [StreamUser](
            decode: JSON.withConfiguration(configured) { try JSON(jsonString: text) })
        }
      ),
      (
        "update(fromJSONData:configuration:)",
        Result {
          var holder = UsersHolder()
          try holder.update(
            fromJSONData: Data("{users: \(text)\n}".utf8),
            configuration: .init(reading: options.union(.unquotedKeys)))
          return holder.users
        }
      ),
      (
        "SyncJSONStream, reading",
        streamed(StreamRun.sync(StreamUser.self, data, .array, options: streamOptions))
      ),
      (
        "SyncJSONStream, configuration",
        streamed(StreamRun.sync(StreamUser.self, data, .array, options: configuredStream))
      ),
      (
        "SyncJSONStream in withConfiguration",
        streamed(
          JSON.withConfiguration(configured) {
            StreamRun.sync(StreamUser.self, data, .array, options: .chunked(3))
          })
      ),
    ]
    var random = DiffRandom(seed: UInt64(text.utf8.count))
    for largest in [1, 2, 5, 64] {
      let chunks = StreamDocuments.chunks(Array(text.utf8), &random, largest: largest)
      readings.append(
        (
          "JSONStream in chunks up to \(largest)",
          streamed(
            await StreamRun.async(StreamUser.self, chunks: chunks, .array, options: streamOptions))
        ))
    }
    return readings
  }

  static func streamed(_ run: Streamed<StreamUser>) -> Result<[StreamUser], any Error> {
    if let error = run.error { return .failure(error) }
    return .success(run.values)
  }

  struct UsersHolder: JSONCodable, DefaultInitable {
    var users: [StreamUser] = []
    init() {}
  }

  @Test("one lenient document, every entry point, one answer; strict refuses it", arguments: 0..<40)
  func everyEntryPoint(seed: Int) async throws {
    var random = DiffRandom(seed: UInt64(seed) &* 7919)
    let (text, users) = Self.lenientArray(&random, count: random.below(5) + 1)
    for (name, result) in await Self.everyReading(text, .json5) {
      switch result {
      case .success(let values): #expect(values == users, "\(name)\n\(text)")
      case .failure(let error): Issue.record("\(name): \(error)\n\(text)")
      }
    }
    // Strict, the default, refuses it everywhere.
    let data = Data(text.utf8)
    #expect(throws: JSON.Error.self) { try [StreamUser](jsonData: data) }
    #expect(throws: JSON.Error.self) { try JSON(jsonData: data) }
    #expect(throws: JSON.Error.self) { try [StreamUser](jsonData: data, configuration: .init()) }
    #expect(StreamRun.sync(StreamUser.self, data, .array, options: .chunked(4)).error != nil)
  }

  @Test("an explicit reading argument wins over the configuration's")
  func explicitWins() throws {
    let text = "[1, 2, ] // done"
    let strictScope = JSON.Configuration(reading: [])
    #expect(throws: JSON.Error.self) {
      try JSON.withConfiguration(strictScope) { try [Int](jsonString: text) }
    }
    let both = try JSON.withConfiguration(.init(reading: .comments)) {
      try [Int](jsonString: text, reading: [.comments, .trailingCommas])
    }
    #expect(both == [1, 2])
    // Only comments from the scope: the trailing comma is refused.
    #expect(throws: JSON.Error.self) {
      try JSON.withConfiguration(.init(reading: .comments)) { try [Int](jsonString: text) }
    }
    // A nested configuration without reading keeps the enclosing one's.
    let nested = try JSON.withConfiguration(.init(reading: .json5)) {
      try [Int](jsonString: text, configuration: .init(keyStyle: .snakeCase))
    }
    #expect(nested == [1, 2])
  }

  @Test("JSON inside a string and lossless numbers stay strict under a lenient configuration")
  func innerTextStaysStrict() throws {
    struct Wrapped: JSONCodable, Equatable {
      var inner: [Int]?
      var count: Int
      static func specificOptions() -> [String: SpecificOption] {
        ["inner": .embeddedJSON, "count": .lossless]
      }
    }
    let lenient = JSON.Configuration(reading: .json5)
    let good = try Wrapped(jsonString: "{inner: '[1, 2]', count: '3'}", configuration: lenient)
    #expect(good == Wrapped(inner: [1, 2], count: 3))
    #expect(throws: JSON.Error.self) {
      try Wrapped(jsonString: "{inner: '[1, 2,]', count: '3'}", configuration: lenient)
    }
    #expect(throws: JSON.Error.self) {
      try Wrapped(jsonString: "{inner: null, count: '0x3'}", configuration: lenient)
    }
  }

  @Test("errors give the line and column of the text as written, through the configuration")
  func configuredErrorPositions() throws {
    let text = "[\n  {id: 1, name: 'a', tags: []},\n  /* two */ {id: 2, name: 'b', tags: [,]},\n]"
    let lenient = JSON.Configuration(reading: .json5)
    #expect {
      try [StreamUser](jsonString: text, configuration: lenient)
    } throws: { error in
      guard case .malformed(_, let line, let column)? = (error as? JSON.Error)?.kind else {
        return false
      }
      return line == 3 && column == 39
    }
    // The same error from a stream, placed in the stream.
    var options = JSON.StreamOptions.chunked(8)
    options.reading = .json5
    let run = StreamRun.sync(StreamUser.self, Data(text.utf8), .array, options: options)
    #expect(run.values.count == 1)
    let error = try #require(run.error)
    guard case .malformed(_, let line, let column) = error.kind else {
      Issue.record("\(error)")
      return
    }
    #expect(line == 3 && column == 39, "\(error)")
  }

  @Test("lenient streams: comments and trailing commas between elements, refused when strict")
  func streamStructure() async throws {
    let cases: [(String, JSON.ReadingOptions, [Int]?)] = [
      ("/* head */ [1, /* ] */ 2, // ,\n 3, ] // tail", [.comments, .trailingCommas], [1, 2, 3]),
      ("[1, 2,]", [.trailingCommas], [1, 2]),
      ("[1, 2,]", [.comments], nil),
      ("[1, /* 2 */]", [.comments], nil),
      ("[1 /* never closed ", [.comments], nil),
      ("[1] /* never closed ", [.comments], nil),
      ("[1] // to the end", [.comments], [1]),
      ("[0x10, +2, .5e1, Infinity]", [.hexadecimalNumbers, .plusSigns, .decimalPoints], nil),
      ("\u{FEFF}[1,\u{A0}2\u{2028}]", [.json5Whitespace], [1, 2]),
      ("[,]", .json5, nil),
      ("[1,,2]", .json5, nil),
      ("[]", .json5, []),
      ("[ /* only */ ]", .json5, []),
    ]
    for (text, options, expected) in cases {
      let whole = Result { try [Int](jsonString: text, reading: options) }
      if let expected {
        #expect((try? whole.get()) == expected, "\(text)")
      } else {
        #expect((try? whole.get()) == nil, "\(text)")
      }
      var streamOptions = JSON.StreamOptions.chunked(2)
      streamOptions.reading = options
      var random = DiffRandom(seed: 5)
      for largest in [1, 3, 100] {
        let chunks = StreamDocuments.chunks(Array(text.utf8), &random, largest: largest)
        let run = await StreamRun.async(Int.self, chunks: chunks, .array, options: streamOptions)
        if let expected {
          #expect(run.error == nil && run.values == expected, "\(text) in chunks up to \(largest)")
        } else {
          #expect(run.error != nil, "\(text) in chunks up to \(largest): \(run.values)")
        }
      }
    }
  }

  @Test("lenient JSON Lines: each line leniently, a comment alone on a line is blank")
  func lines() throws {
    let text = """
      // header comment
      {id: 1, name: 'a', tags: ['x',],}   // first

      /* a line of its own */
      {id: 0x2, name: "b", tags: []}
      """
    var options = JSON.StreamOptions.chunked(6)
    options.reading = .json5
    let run = StreamRun.sync(StreamUser.self, Data(text.utf8), .lines, options: options)
    #expect(run.error == nil, "\(String(describing: run.error))")
    #expect(run.values.map(\.id) == [1, 2])
    #expect(run.values.first?.tags == ["x"])
    let strict = StreamRun.sync(StreamUser.self, Data(text.utf8), .lines, options: .chunked(6))
    #expect(strict.error != nil)
    // A bad line is placed on its line, column from the text as written.
    let bad = "{id: 1, name: 'a', tags: []}\n{id: 2, name: 'b', tags: [tru]}"
    let failed = StreamRun.sync(StreamUser.self, Data(bad.utf8), .lines, options: options)
    #expect(failed.values.count == 1)
    guard case .malformed(_, let line, let column)? = failed.error?.kind else {
      Issue.record("\(String(describing: failed.error))")
      return
    }
    #expect(line == 2 && column == 27)
  }

  @Test(
    "random lenient streams in random chunks agree with [T](jsonData:reading:)", arguments: 0..<60)
  func randomStreams(seed: Int) async {
    var random = DiffRandom(seed: UInt64(seed) &+ 1000)
    let (text, _) = Self.lenientArray(&random, count: random.below(6))
    // Cut it short, or break one byte, now and then: both must still agree.
    var bytes = Array(text.utf8)
    if random.chance(40), !bytes.isEmpty {
      if random.chance(50) {
        bytes.removeLast(random.below(bytes.count))
      } else {
        bytes[random.below(bytes.count)] = random.pick(Array("/*'\"],}{[ ".utf8))
      }
    }
    let reference = Result { try [StreamUser](jsonData: bytes, reading: .json5) }
    var options = JSON.StreamOptions.chunked(1 + random.below(16))
    options.reading = .json5
    let chunks = StreamDocuments.chunks(bytes, &random, largest: 1 + random.below(20))
    let run = await StreamRun.async(StreamUser.self, chunks: chunks, .array, options: options)
    switch reference {
    case .success(let users):
      #expect(run.error == nil && run.values == users, "\(String(decoding: bytes, as: UTF8.self))")
    case .failure:
      #expect(run.error != nil, "\(String(decoding: bytes, as: UTF8.self))")
    }
  }
}
