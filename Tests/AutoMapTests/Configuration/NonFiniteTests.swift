import AutoMap
import Foundation
import Testing

@Suite("Non-finite numbers as strings")
struct NonFiniteTests {
  let javaScript = JSON.Configuration(nonFiniteNumbers: .strings())
  let python = JSON.Configuration(
    nonFiniteNumbers: .strings(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan"))

  @Test("opted in: read from strings and written back, on every path")
  func roundTrip() throws {
    let text =
      #"{"value": "NaN", "maybe": "-Infinity", "values": [1.5, "Infinity", "NaN"], "ratio": "-Infinity"}"#
    let sample = Sample(
      value: .nan, maybe: -.infinity, values: [1.5, .infinity, .nan], ratio: -.infinity)
    #expect(configuredOutcome(Sample.self, text, javaScript) == .value(sample))
    #expect(
      try configuredText(sample, javaScript)
        == #"{"maybe":"-Infinity","ratio":"-Infinity","value":"NaN","values":[1.5,"Infinity","NaN"]}"#
    )
    // Finite values are untouched, and still numbers.
    let finite = Sample(value: 1, maybe: nil, values: [], ratio: 0.5)
    #expect(
      try configuredText(finite, javaScript)
        == #"{"maybe":null,"ratio":0.5,"value":1.0,"values":[]}"#)
  }

  @Test("not opted in: a non-finite string is an error naming the path and how to opt in")
  func defaultIsAnError() throws {
    let outcome = outcomeOnEveryPath(
      Sample.self, #"{"value": 1, "values": [2, "NaN"], "ratio": 0}"#)
    #expect(outcome.kind == .typeMismatch)
    #expect(
      outcome.description
        == #"at values[1]: expected Double, found string "NaN" (non-finite numbers are read from strings only with JSON.Configuration's nonFiniteNumbers = .strings())"#
    )
    // Writing one is an error too.
    #expect(throws: JSON.Error.self) { try [Double.nan].jsonString() }
    #expect(throws: JSON.Error.self) { try [Double.nan].json.jsonString() }
  }

  @Test(
    "the spellings are the configured ones, exactly",
    arguments: ["inf", "Inf", "+Infinity", "nan", "infinity"])
  func otherSpellings(text: String) {
    let outcome = configuredOutcome(Double.self, "\"\(text)\"", javaScript)
    #expect(
      outcome.description
        == #"at the root: expected Double, found string "\#(text)" (the call reads non-finite numbers only as "Infinity", "-Infinity" and "NaN")"#
    )
  }

  @Test("other spellings, configured")
  func pythonSpellings() throws {
    #expect(
      configuredOutcome([Float].self, #"["inf", "-inf", 2]"#, python)
        == .value([.infinity, -.infinity, 2]))
    #expect(configuredOutcome(Double.self, #""Infinity""#, python).kind == .typeMismatch)
    #expect(try configuredText([Double.infinity, -.infinity], python) == #"["inf","-inf"]"#)
    let sample = Sample(value: .nan, maybe: .nan, values: [.nan], ratio: .nan)
    let text = #"{"value": "nan", "maybe": "nan", "values": ["nan"], "ratio": "nan"}"#
    #expect(configuredOutcome(Sample.self, text, python) == .value(sample))
  }

  @Test("a fallback and a lossy array agree on both paths about what is usable")
  func fallbacksAgree() {
    let text =
      #"{"level": "NaN", "samples": [{"value": "Infinity", "values": [], "ratio": 0}, {"value": "x", "values": [], "ratio": 0}], "spare": "NaN"}"#
    let opted = Gauge(
      level: .nan, samples: [Sample(value: .infinity, maybe: nil, values: [], ratio: 0)],
      spare: .nan)
    #expect(configuredOutcome(Gauge.self, text, javaScript) == .value(opted))
    // Not opted in: the fallback stands in, the lossy array leaves both samples out, and
    // the plain property is the error.
    #expect(
      outcomeOnEveryPath(
        Gauge.self, text.replacingOccurrences(of: #""level": "NaN""#, with: #""level": 1"#))
        == .value(Gauge(level: 1, samples: [], spare: -1)))
  }

  @Test("Codable types inside models follow the call's configuration too")
  func codable() throws {
    let text = #"{"measurement": {"amount": "NaN", "at": 0}}"#
    let lab = try #require(
      configuredOutcome(
        Lab.self, text,
        JSON.Configuration(dateTransform: .secondsSince1970, nonFiniteNumbers: .strings())
      ).value)
    #expect(lab.measurement.amount.isNaN && lab.measurement.at == epoch)
    #expect(
      try configuredText(
        lab, JSON.Configuration(dateTransform: .secondsSince1970, nonFiniteNumbers: .strings()))
        == #"{"measurement":{"amount":"NaN","at":0.0}}"#)
    #expect(outcomeOnEveryPath(Lab.self, text).kind != nil)
  }

  @Test("a date is never non-finite, whatever the configuration")
  func datesStayFinite() {
    let call = JSON.Configuration(dateTransform: .secondsSince1970, nonFiniteNumbers: .strings())
    #expect(
      configuredOutcome(Date.self, #""NaN""#, call).description
        == #"at the root: expected Double, found string "NaN""#)
  }
}
