import AutoMap
import Foundation
import Observation
import Testing

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@Observable
final class ObservedProfile: JSONCodable, DefaultInitable {
  var name = ""
  var age = 0
  var tags: [String] = []
  var _links: [String] = []  // tracked too: its storage is `__links`, mapped as `_links`
  @ObservationIgnored var note = ""
  static func specificOptions() -> [String: SpecificOption] { ["age": "years"] }
}

/// A BetterCodable-style wrapper from a library that knows nothing of AutoMap: `Codable`,
/// generic over a strategy, with `init(wrappedValue:)`.
protocol DefaultStrategy { associatedtype Value: Codable; static var defaultValue: Value { get } }
enum FalseByDefault: DefaultStrategy { static var defaultValue: Bool { false } }

@propertyWrapper
struct DefaultCodable<Strategy: DefaultStrategy>: Codable {
  var wrappedValue: Strategy.Value
  init(wrappedValue: Strategy.Value) { self.wrappedValue = wrappedValue }
}

typealias DefaultFalse = DefaultCodable<FalseByDefault>

/// The one line that maps it.
extension DefaultCodable: JSONPropertyWrapper {}

struct ForeignFlags: JSONCodable, DefaultInitable, Equatable {
  @DefaultFalse var beta: Bool = false
  static func == (a: ForeignFlags, b: ForeignFlags) -> Bool { a.beta == b.beta }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
struct WideNumbers: JSONCodable, Equatable {
  var signed: Int128
  var unsigned: UInt128
  var optional: Int128?
  var list: [UInt128]
  var byKey: [Int128: Int]
}

// Float16 does not exist on Intel Macs (AutoMap's conformance is left out there too).
#if !((os(macOS) || targetEnvironment(macCatalyst)) && arch(x86_64))
  struct HalfFloats: JSONCodable, Equatable {
    var value: Float16
    var values: [Float16]
  }
#endif

@Suite("Modern models: @Observable, foreign wrappers, Int128, Float16")
struct ModernModelTests {
  @Test("an @Observable class maps by its declared names; the registrar is never a key")
  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  func observable() throws {
    let text = #"{"name": "Ada", "years": 36, "tags": ["math"], "_links": ["a"], "note": "n"}"#
    let profile = try ObservedProfile(jsonString: text)
    #expect(profile.name == "Ada" && profile.age == 36 && profile.tags == ["math"])
    #expect(profile._links == ["a"] && profile.note == "n")
    let again = try ObservedProfile(jsonData: Data(text.utf8))
    let viaJSON = try ObservedProfile(decode: JSON(jsonString: text))
    #expect(again.name == "Ada" && viaJSON.age == 36 && again._links == ["a"])
    let written = try textOnEveryPath(profile)
    #expect(written == #"{"_links":["a"],"name":"Ada","note":"n","tags":["math"],"years":36}"#)
    #expect(!written.contains("registrar"))
    // Observation still works on a decoded object.
    let observed = ObservationFlag(false)
    withObservationTracking {
      _ = profile.name
    } onChange: {
      observed.value = true
    }
    profile.name = "Grace"
    #expect(observed.value)
    let error = outcomeOnEveryPath(ForeignFlags.self, #"{"beta": 3}"#)
    #expect(error.kind == .typeMismatch)
    let missing = #expect(throws: JSON.Error.self) {
      try ObservedProfile(jsonString: #"{"_name": "x", "name": 1}"#)
    }
    #expect(missing?.path == "name")
  }

  @Test("a foreign Codable wrapper maps through its wrappedValue with one line")
  func foreignWrapper() throws {
    #expect(outcomeOnEveryPath(ForeignFlags.self, #"{"beta": true}"#).value?.beta == true)
    #expect(outcomeOnEveryPath(ForeignFlags.self, "{}").value?.beta == false)
    var flags = ForeignFlags()
    flags.beta = true
    #expect(try textOnEveryPath(flags) == #"{"beta":true}"#)
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
  static let int128Limits = (
    "-170141183460469231731687303715884105728", "170141183460469231731687303715884105727",
    "340282366920938463463374607431768211455"
  )

  @Test("Int128 and UInt128 are exact across their whole range, both ways")
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
  func wideIntegers() throws {
    let (min, max, umax) = Self.int128Limits
    let text = #"""
      {"signed": \#(min), "unsigned": \#(umax), "optional": \#(max),
       "list": [0, 18446744073709551616, 1.7e38, 12e2, \#(umax)],
       "byKey": {"\#(min)": 1, "-1": 2}}
      """#
    let wide = try #require(outcomeOnEveryPath(WideNumbers.self, text).value)
    #expect(wide.signed == .min && wide.unsigned == .max && wide.optional == .max)
    #expect(
      wide.list == [
        0, 18_446_744_073_709_551_616, 170_000_000_000_000_000_000_000_000_000_000_000_000, 1200,
        .max,
      ])
    #expect(wide.byKey == [.min: 1, -1: 2])
    let written = try textOnEveryPath(wide)
    #expect(
      written == #"{"byKey":{"-1":2,"\#(min)":1},"list":[0,18446744073709551616,"#
        + #"170000000000000000000000000000000000000,1200,\#(umax)],"optional":\#(max),"#
        + #""signed":\#(min),"unsigned":\#(umax)}"#)
    #expect(outcomeOnEveryPath(WideNumbers.self, written).value == wide)
    #expect(Int128(JSON(Int128.min)) == .min)
    #expect(UInt128(JSON(UInt128.max)) == .max)
  }

  @Test(
    "Int128 refuses what it cannot hold exactly",
    arguments: [
      "170141183460469231731687303715884105728", "-170141183460469231731687303715884105729",
      "1.5", "1e39", "1e400", "-1e400", "1.0000000000000000000000000000000000000001e38", "\"1\"",
      "true", "null",
    ])
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
  func wideRefusals(number: String) {
    let outcome = outcomeOnEveryPath([Int128].self, "[\(number)]")
    #expect(outcome.kind == .typeMismatch || outcome.kind == .missingValue, "\(outcome)")
    #expect(outcome.description?.hasPrefix("at [0]: expected Int128") == true, "\(outcome)")
    #expect(outcomeOnEveryPath([UInt128].self, "[-1]").kind == .typeMismatch)
    #expect(outcomeOnEveryPath([UInt128].self, "[-0, 0.0, -0e5]").value == [0, 0, 0])
  }

  #if !((os(macOS) || targetEnvironment(macCatalyst)) && arch(x86_64))
    @Test("Float16 reads any number in its range and writes its shortest form")
    func float16() throws {
      let half = try #require(
        outcomeOnEveryPath(HalfFloats.self, #"{"value": 0.1, "values": [-0, 65504, 1e-8, 2.5]}"#)
          .value)
      #expect(half.value == Float16(0.1))
      #expect(half.values[0].sign == .minus && half.values[0] == 0)
      #expect(half.values[1] == .greatestFiniteMagnitude && half.values[2] == 0)
      #expect(try textOnEveryPath(half) == #"{"value":0.1,"values":[-0.0,65504.0,0.0,2.5]}"#)
      for bad in ["65520", "1e400", "\"1\""] {
        let outcome = outcomeOnEveryPath(HalfFloats.self, #"{"value": \#(bad), "values": []}"#)
        #expect(outcome.kind == .typeMismatch, "\(bad): \(outcome)")
        #expect(outcome.description?.hasPrefix("at value: expected Float16") == true, "\(outcome)")
      }
    }
  #endif

}

final class ObservationFlag<T>: @unchecked Sendable {
  var value: T
  init(_ value: T) { self.value = value }
}
