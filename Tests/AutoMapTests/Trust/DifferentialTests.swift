@_spi(Testing) import AutoMap
import Foundation
import Testing

extension ProcessWideState {
  /// One semantics on every entry point (issue 8, item 5): the same input and options give the
  /// same value, or an error with the same kind, path and description, whether the JSON comes
  /// as `JSON`, `String`, `Data` or `[UInt8]`, on a model's first use (through `JSON`) or later
  /// (bytes straight into memory); encoding gives the same text through `json` and through
  /// `jsonString`/`jsonData`; and a decoded value survives encoding and decoding again.
  ///
  /// Documents are generated from a valid one per model by seeded mutations
  /// (DifferentialGenerator.swift); a failure names the probe, seed and document. Each
  /// disagreement found is kept below as its own minimised test, and set apart in the generated
  /// run (`DiffLedger.knownIssue`) so that only new ones fail it.
  @Suite("Differential: one semantics on every entry point", .serialized)
  struct DifferentialTests {
    /// Fixed, so CI runs the same documents every time. For a longer hunt, set
    /// `AUTOMAP_DIFFERENTIAL_SEEDS=n` to add seeds 1000 to 1000 + n - 1.
    static let seeds: [UInt64] = {
      let fixed: [UInt64] = [1, 2, 3, 5, 8, 13, 21, 34]
      let extra = ProcessInfo.processInfo.environment["AUTOMAP_DIFFERENTIAL_SEEDS"].flatMap(
        UInt64.init)
      return fixed + (1000..<1000 + (extra ?? 0)).map { $0 }
    }()
    static let documentsPerSeed = 16

    @Test("generated documents decode and encode alike on every entry point")
    func generated() {
      var ledger = DiffLedger()
      for probe in DiffProbes.all {
        for seed in Self.seeds {
          var random = DiffRandom(seed: seed)
          for index in 0..<Self.documentsPerSeed {
            let (text, traits) = Self.document(probe.base, index: index, &random)
            ledger.context = "\(probe.name), seed \(seed), document \(index)"
            ledger.traits = traits
            probe.run(text, &ledger)
          }
        }
      }
      print(
        "Differential: \(ledger.documents) documents (\(ledger.values) decode to a value),"
          + " \(ledger.calls) entry-point results;"
          + " pinned by regression tests: \(ledger.known.sorted { $0.key < $1.key })")
      #expect(ledger.count == 0, "\(ledger.count) disagreements:\n\(ledger.report)")
    }

    /// Document `index` of a seed's sequence: the valid document first, then mutations of it,
    /// some made malformed; with the traits of its repeated keys.
    static func document(_ base: Doc, index: Int, _ random: inout DiffRandom)
      -> (String, Set<String>)
    {
      guard index > 0 else { return (base.render(spacing: 0).text, []) }
      let mutated = DiffMutation.mutate(base, count: 1 + random.below(3), &random)
      var traits: Set<String> = []
      mutated.repeatedKeys(into: &traits)
      let rendered = mutated.render(spacing: random.below(4))
      let text = random.chance(12) ? DiffMutation.malform(rendered, &random) : rendered.text
      return (text, traits)
    }

    @Test("hand-built values encode alike on every entry point")
    func handBuilt() {
      var ledger = DiffLedger()
      for (name, encode) in DiffProbes.handBuilt { encode(name, &ledger) }
      #expect(ledger.count == 0, "\(ledger.count) disagreements:\n\(ledger.report)")
    }

    /// `text` through every decoding entry point (and, when it decodes, every encoding one),
    /// with nothing set apart.
    static func agreement<T: JSONCodable & Equatable>(_: T.Type, _ text: String, warmUp: Doc)
      -> DiffLedger
    {
      var ledger = DiffLedger()
      ledger.setsKnownApart = false
      DiffProbe.of(T.self, warmUp).run(text, &ledger)
      return ledger
    }

    // MARK: Disagreements found, minimised

    @Test("a model's first use reports text after the root value before a mapping error in it")
    func trailingTextOnFirstUse() {
      do {
        let text = #"{"n": "x"} x"#
        ProcessWideState.forgetReflection()
        let error = #expect(throws: JSON.Error.self) { try DiffTiny(jsonString: text) }
        #expect(error?.kind == .malformed(offset: 11, line: 1, column: 12))
        let ledger = Self.agreement(DiffTiny.self, text, warmUp: ["n": 1])
        #expect(ledger.count == 0, "\(ledger.report)")
      }
    }

    @Test("a repeated key is the same key however it is spelled: the last occurrence wins")
    func repeatedKeySpelledWithAnEscape() throws {
      do {
        let json = try JSON(jsonString: #"{"a": 1, "\u0061": 2}"#)
        #expect(json.count == 1)
        #expect(json["a"] == 2)
        #expect(try json.jsonString() == #"{"a":2}"#, "one key written once")
        let text = #"{"code": 1, "label": "a", "l\u0061bel": "b"}"#
        #expect(try DiffPart(decode: JSON(jsonString: text)) == DiffPart(code: 1, label: "b"))
        let ledger = Self.agreement(DiffPart.self, text, warmUp: DiffProbes.part)
        #expect(ledger.count == 0, "\(ledger.report)")
      }
    }

    @Test("a repeated key whose last occurrence is null keeps the declared default")
    func repeatedKeyEndingInNull() throws {
      do {
        let text = #"{"n": 3, "n": null}"#
        #expect(try DiffTinyDefaults(decode: JSON(jsonString: text)) == DiffTinyDefaults())
        _ = try DiffTinyDefaults(jsonString: "{}")  // reflection observed: the byte path
        #expect(try DiffTinyDefaults(jsonString: text) == DiffTinyDefaults())
        let folded = #"{"n": 3, "N": null}"#
        #expect(try DiffTinyDefaults(jsonString: folded, keyStyle: .caseInsensitive).n == 7)
        let counter = #"{"hits": 3, "hits": null}"#
        _ = try DiffCounter(jsonString: "{}")
        #expect(try DiffCounter(jsonString: counter).hits == 0)
        let ledger = Self.agreement(DiffTinyDefaults.self, text, warmUp: ["n": 1])
        #expect(ledger.count == 0, "\(ledger.report)")
      }
    }

    // MARK: Numbers at the edges

    /// Runs a number check (the numbers rewrite has landed: these are plain expectations).
    static func checkNumbers(_ issue: String, _ body: () throws -> Void) {
      #expect(throws: Never.self, Comment(rawValue: issue)) { try body() }
    }

    @Test("numbers at the type limits decode alike on every entry point")
    func numbersPendingRewrite() {
      var ledger = DiffLedger()
      for probe in DiffProbes.all + [DiffProbes.decimals(roundTrips: true)] {
        var random = DiffRandom(seed: 99)
        for number in DiffPool.pendingNumbers {
          for _ in 0..<3 {
            let doc = DiffMutation.replaceNumber(probe.base, with: [number], &random)
            ledger.context = "\(probe.name), number \(number)"
            probe.run(doc.render(spacing: 0).text, &ledger)
          }
        }
      }
      print("Differential, numbers at the type limits:\n\(ledger.summary)")
      Self.checkNumbers("numbers at the type limits") {
        #expect(ledger.count == 0, "\(ledger.count) disagreements:\n\(ledger.report)")
      }
    }

    /// A number rule of the spec, on every decoding entry point.
    struct PendingNumber: Sendable, CustomTestStringConvertible {
      let testDescription: String
      let text: String
      let check:
        @Sendable (DiffOutcome<[Double]>, DiffOutcome<[Int64]>, DiffOutcome<[Decimal]>) ->
          Bool
    }

    static let pendingNumbers: [PendingNumber] = [
      PendingNumber(
        testDescription: "-9223372036854775809 does not fit Int64: an error, not Int64.min",
        text: "[-9223372036854775809]"
      ) { _, int, decimal in
        int.kind == .typeMismatch
          && decimal.value == Decimal(string: "-9223372036854775809").map { [$0] }
      },
      PendingNumber(
        testDescription: "9007199254740993.0 is an exact integer", text: "[9007199254740993.0]"
      ) { _, int, decimal in
        int.value == [9_007_199_254_740_993] && decimal.value == [Decimal(9_007_199_254_740_993)]
      },
      PendingNumber(
        testDescription: "1e400 is an unusable number, not malformed text", text: "[1e400]"
      ) { double, int, _ in double.kind == .typeMismatch && int.kind == .typeMismatch },
      PendingNumber(testDescription: "-0 keeps its sign", text: "[-0]") { double, int, _ in
        double.value?.first?.sign == .minus && int.value == [0]
      },
    ]

    @Test("numbers at the edges follow the spec", arguments: pendingNumbers)
    func numberRule(_ rule: PendingNumber) {
      Self.checkNumbers(rule.testDescription) {
        var ledger = DiffLedger()
        ledger.setsKnownApart = false
        let double = DiffProbe.decodeAllWays(
          [Double].self, rule.text, warmUp: "[1]", style: nil, "[Double]", &ledger)
        let int = DiffProbe.decodeAllWays(
          [Int64].self, rule.text, warmUp: "[1]", style: nil, "[Int64]", &ledger)
        let decimal = DiffProbe.decodeAllWays(
          [Decimal].self, rule.text, warmUp: "[1]", style: nil, "[Decimal]", &ledger)
        #expect(ledger.count == 0, "\(ledger.report)")
        #expect(rule.check(double, int, decimal))
      }
    }

    @Test("Decimal writes every digit it holds, so decoded decimals round-trip")
    func decimalWritesEveryDigit() {
      Self.checkNumbers("Decimal writes every digit") {
        let value = try Decimal(jsonString: "2.345")
        #expect(try value.jsonString() == "2.345")
        #expect(try Decimal(jsonString: value.jsonString()) == value)
      }
    }
  }
}

struct DiffTiny: JSONCodable, Equatable {
  var n: Int
}

struct DiffTinyDefaults: JSONCodable, DefaultInitable, Equatable {
  var n = 7
}
