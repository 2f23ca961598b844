import AutoMap
import Foundation
import Testing

/// AutoMap writes doubles with a formatter of its own (ShortestDouble.swift): its text must be
/// `description`'s, byte for byte, for every double. Random bit patterns rarely reach the
/// paths where the value or a bound of its interval is exact (short decimals, integers,
/// powers of two and ten, halfway cases): these are built on purpose here.
@Suite struct ShortestDoubleTests {
  /// Writes `values` as one array and compares it with their descriptions.
  private func expectDescriptions(_ values: [Double], _ what: String) throws {
    let written = try String(decoding: values.jsonData(), as: UTF8.self)
    let expected = "[" + values.map(\.description).joined(separator: ",") + "]"
    guard written != expected else { return }
    // Name the first double that differs.
    let texts = written.dropFirst().dropLast().split(separator: ",")
    for (value, text) in zip(values, texts) where text != value.description {
      Issue.record("\(what): \(value.description) written as \(text)")
      return
    }
    Issue.record("\(what): \(texts.count) texts for \(values.count) doubles")
  }

  /// A value, its neighbors, and the negatives of all three.
  private func around(_ value: Double) -> [Double] {
    [value, value.nextUp, value.nextDown].filter(\.isFinite).flatMap { [$0, -$0] }
  }

  @Test func powersOfTwoAndTen() throws {
    var values: [Double] = [0, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
    for exponent in -1074...1023 {
      values += around(Double(sign: .plus, exponent: exponent, significand: 1))
    }
    for exponent in -325...309 {
      if let value = Double("1e\(exponent)") { values += around(value) }
    }
    try expectDescriptions(values, "powers")
  }

  @Test func layoutBoundaries() throws {
    // Where `description` turns to exponents: 2^53 and 10^-4.
    var values = around(0x1p53) + around(0x1p54) + around(1e-4) + around(1e16) + around(1e15)
    for index in 0..<200 {
      values += around(9_007_199_254_740_992 + Double(index * 2))
      values += around(0.0001 + Double(index) * 1e-20)
    }
    try expectDescriptions(values, "boundaries")
  }

  @Test func integers() throws {
    var random = DiffRandom(seed: 71)
    var values: [Double] = []
    for _ in 0..<100_000 {
      let bits = random.below(64)
      let integer = UInt64.random(
        in: 0...(bits == 0 ? 1 : UInt64.max >> UInt64(63 - bits)), using: &random)
      values += around(Double(integer))
      values.append(Double(integer / 1000 * 1000))  // trailing zeros
    }
    try expectDescriptions(values, "integers")
  }

  /// Decimals of 1 to 17 digits at every exponent, as documents hold them: the paths where
  /// the scaled value or a bound is exact, and halfway cases between two shortest texts.
  @Test(arguments: 0..<4)
  func shortDecimals(part: Int) throws {
    var random = DiffRandom(seed: UInt64(72 + part))
    var values: [Double] = []
    for _ in 0..<60_000 {
      let count = 1 + random.below(17)
      var digits = String(1 + random.below(9))
      for _ in 1..<count { digits.append(String(random.below(10))) }
      if random.chance(30) { digits = String(digits.dropLast(min(3, count - 1))) + "5" }
      let exponent = random.below(650) - 340
      guard let value = Double("\(digits)e\(exponent)"), value.isFinite else { continue }
      values += around(value)
    }
    try expectDescriptions(values, "decimals")
  }

  @Test func subnormalsAndBitPatterns() throws {
    var random = DiffRandom(seed: 76)
    var values: [Double] = []
    for _ in 0..<100_000 {
      let fraction = random.next() & ((1 << 52) - 1)
      values.append(Double(bitPattern: fraction))  // subnormal
      values.append(Double(bitPattern: fraction | 1 << 52))  // smallest normal exponent
      let any = Double(bitPattern: random.next())
      if any.isFinite { values.append(any) }
      // Few fraction bits: short binary fractions.
      let short = Double(bitPattern: random.next() & ~((1 << 40) - 1))
      if short.isFinite { values.append(short) }
    }
    try expectDescriptions(values, "bit patterns")
  }
}
