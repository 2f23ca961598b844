@_spi(Testing) import AutoMap
import Foundation
import Testing

extension ProcessWideState {
  /// The differential harness (Trust/) run again with the reporting options: the generated
  /// documents give the same list of problems, and the same substitutions, through every entry
  /// point, first use and later; and collecting never changes the outcome, only adds to it.
  @Suite("Reporting: one report on every entry point", .serialized)
  struct ReportingDifferentialTests {
    static let collecting = JSON.Configuration(collectsAllErrors: true)

    /// Problems are collected only after the byte path failed, from the `JSON` path: the byte
    /// entry points' lists agree with the reference by construction. What does run the byte
    /// path here are the documents that decode: the probe compares those values, later uses on
    /// bytes going straight into memory, with the reference value by value.
    @Test("generated documents list the same problems on every entry point")
    func sameProblems() {
      var ledger = DiffLedger()
      var documents = 0
      for probe in DiffProbes.all {
        for seed in DifferentialTests.seeds.prefix(4) {
          var random = DiffRandom(seed: seed)
          for index in 0..<DifferentialTests.documentsPerSeed {
            let (text, traits) = DifferentialTests.document(probe.base, index: index, &random)
            ledger.context = "\(probe.name), seed \(seed), document \(index)"
            ledger.traits = traits
            JSON.withConfiguration(Self.collecting) { probe.run(text, &ledger) }
            documents += 1
          }
        }
      }
      // Each document went through the probe, which compared at least five entry points with
      // the reference (seven unless `JSON(jsonString:)` refuses it), and some documents failed,
      // so lists of problems were compared and not only values.
      #expect(ledger.documents == documents)
      #expect(ledger.calls >= 5 * documents)
      #expect(ledger.values > 0 && ledger.values < ledger.documents)
      #expect(ledger.count == 0, "\(ledger.count) disagreements:\n\(ledger.report)")
    }

    /// What one entry point gave with both options on: the outcome, and the substitutions.
    struct Report<T: Equatable>: Equatable {
      var value: T?
      var problems: [String] = []
      var count = 0
      var substitutions: [String]
    }

    static func report<T: Equatable>(_ body: () throws -> T) -> Report<T> {
      let ((value, problems, count), substitutions) = JSON.recordingSubstitutions {
        () -> (T?, [String], Int) in
        do {
          return (try JSON.withConfiguration(collecting) { try body() }, [], 0)
        } catch let error as JSON.Error {
          return (nil, error.problems.map(\.description), error.problemCount)
        } catch {
          return (nil, ["not a JSON.Error: \(error)"], 0)
        }
      }
      return Report(
        value: value, problems: problems, count: count,
        substitutions: substitutions.map(\.description))
    }

    /// Documents generated from `base`, each decoded with both options through every entry
    /// point and compared; and compared with a plain decode. Returns the disagreements.
    ///
    /// While substitutions are recorded, byte input is decoded through `JSON` values, so the
    /// byte entry points compared here run the reference path: their agreement holds by
    /// construction, and the comparison guards that routing. The byte path itself runs in the
    /// plain decode at the end, without the options, whose value is compared with the
    /// reference's value by value.
    static func check<T: JSONDecodable & Equatable>(_: T.Type, _ base: Doc) -> [String] {
      var found: [String] = []
      let warmUp = base.render(spacing: 0).text
      let entries: [(String, (String) throws -> T)] = [
        ("T(decode: JSON)", { try T(decode: JSON(jsonString: $0)) }),
        ("T(jsonString:)", { try T(jsonString: $0) }),
        ("T(jsonData: Data)", { try T(jsonData: Data($0.utf8)) }),
        ("T(jsonData: [UInt8])", { try T(jsonData: Array($0.utf8)) }),
      ]
      for seed in DifferentialTests.seeds {
        var random = DiffRandom(seed: seed)
        for index in 0..<DifferentialTests.documentsPerSeed {
          let (text, _) = DifferentialTests.document(base, index: index, &random)
          do {
            _ = try JSON(jsonString: text)
          } catch let error as JSON.Error {
            // `JSON(jsonString:)` refuses what models read as an unusable value.
            if case .numberOutOfRange = error.kind { continue }
          } catch {}
          let reference = report { try entries[0].1(text) }
          for (name, call) in entries.dropFirst() {
            ProcessWideState.forgetReflection()
            let first = report { try call(text) }
            if first != reference {
              found.append("\(name), first use: \(text)\n\(first)\nvs\n\(reference)")
            }
          }
          ProcessWideState.forgetReflection()
          _ = try? entries[0].1(warmUp)
          for (name, call) in entries {
            let later = report { try call(text) }
            if later != reference {
              found.append("\(name), later use: \(text)\n\(later)\nvs\n\(reference)")
            }
          }
          // Without the options: the same value, or an error that is the first problem.
          do {
            let plain = try entries[2].1(text)
            if reference.value != plain { found.append("collecting changed the value: \(text)") }
          } catch let error as JSON.Error {
            if reference.problems.first != error.description || reference.value != nil {
              found.append(
                "collecting changed the first problem: \(text)\n\(error)\nvs\n\(reference)")
            }
          } catch {
            found.append("not a JSON.Error: \(error)")
          }
        }
      }
      return found
    }

    @Test("generated documents record the same substitutions on every entry point")
    func sameSubstitutions() {
      var found: [String] = []
      found += Self.check(DiffOptions.self, DiffProbes.options)
      found += Self.check(DiffDefaults.self, DiffProbes.defaults)
      found += Self.check(DiffCollections.self, DiffProbes.collections)
      found += Self.check(DiffZoo.self, DiffProbes.zoo)
      found += Self.check(DiffOneWay.self, DiffProbes.oneWay)
      found += Self.check([DiffItem].self, [DiffProbes.item, DiffProbes.item2])
      found += Self.check([String: DiffPart].self, ["a": DiffProbes.part, "b": ["code": 2]])
      #expect(
        found.isEmpty, "\(found.count) disagreements:\n\(found.prefix(5).joined(separator: "\n\n"))"
      )
    }

    @Test("the generated documents do exercise substitutions and collected problems")
    func coverage() {
      var substitutions = 0
      var multiple = 0
      var random = DiffRandom(seed: 1)
      for index in 0..<DifferentialTests.documentsPerSeed * 4 {
        let (text, _) = DifferentialTests.document(DiffProbes.options, index: index, &random)
        let report = Self.report { try DiffOptions(jsonString: text) }
        substitutions += report.substitutions.count
        if report.count > 1 { multiple += 1 }
      }
      #expect(substitutions > 10)
      #expect(multiple > 0)
    }
  }
}
