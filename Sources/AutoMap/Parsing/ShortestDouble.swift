/// The text of a `Double`, as `description` writes it, without the standard library's
/// formatter: the shortest decimal that reads back as the same double (of those, the one
/// closest to it), in `description`'s layout.
///
/// The digits come from Ulf Adams's Ryū method ("Ryū: fast float-to-string conversion",
/// PLDI 2018): the bounds of the interval that reads back as the double are scaled by a power
/// of ten with one 64×128-bit multiplication each, then digits are dropped while both bounds
/// agree. The powers (ShortestDouble+Tables.swift) are generated exactly by
/// Scripts/generate-double-tables.py. The standard library's own method costs about three
/// times as many instructions per double; a number-heavy document spends most of its
/// encoding time here.
///
/// `description`'s layout: `100.0`, `0.001`, `1e-05` (below 10⁻⁴), `1.5e+16` (above 2⁵³),
/// `-0.0`. ShortestDoubleTests compares every path with `description` over millions of
/// doubles.
enum ShortestDouble {
  /// The bytes ``write(_:to:)`` may store to.
  static var capacity: Int { 48 }

  /// Writes `value` (finite) as `description` does; returns the byte count, at most 24.
  /// `output` must have room for ``capacity`` bytes: words are stored past the text.
  static func write(_ value: Double, to output: UnsafeMutablePointer<UInt8>) -> Int {
    var position = output
    if value.sign == .minus {
      position[0] = UInt8(ascii: "-")
      position += 1
    }
    guard value != 0 else {
      position[0] = UInt8(ascii: "0")
      position[1] = UInt8(ascii: ".")
      position[2] = UInt8(ascii: "0")
      return position + 3 - output
    }
    let (digits, exponent) = decimal(value)
    let count = digitCount(digits)
    // Where the decimal point goes, counted in digits from the first.
    let point = count + exponent
    if point - 1 < -4 || value.magnitude > 0x1p53 {
      // d.ddde±XX
      let end = position + 1 + count
      _ = JSONWriter.writeDigits(digits, endingAt: end)
      position[0] = position[1]
      if count > 1 {
        position[1] = UInt8(ascii: ".")
        position = end
      } else {
        position += 1
      }
      position[0] = UInt8(ascii: "e")
      var power = point - 1
      if power < 0 {
        position[1] = UInt8(ascii: "-")
        power = -power
      } else {
        position[1] = UInt8(ascii: "+")
      }
      position += 2
      if power < 10 {
        position[0] = UInt8(ascii: "0")
        position += 1
      }
      let powerEnd = position + (power < 10 ? 1 : power < 100 ? 2 : 3)
      _ = JSONWriter.writeDigits(UInt64(power), endingAt: powerEnd)
      return powerEnd - output
    }
    // The decimal layout, |value| ≤ 2⁵³: the point comes after at most 16 digits, and at
    // most three zeros come before the first digit. Zeros and moved digits are written a
    // word at a time (`output` has room to spare), never with a loop the compiler would
    // make a call to `memset` or `memmove`.
    if point <= 0 {
      // 0.000ddd
      store(Self.zeroPoint, at: position)
      position += 2 - point
      let end = position + count
      _ = JSONWriter.writeDigits(digits, endingAt: end)
      return end - output
    }
    let end = position + count
    _ = JSONWriter.writeDigits(digits, endingAt: end)
    if point < count {
      // ddd.ddd: the fraction (at most 16 digits) moves one place right, read as two words
      // (the bytes after the digits written first, so that none read is uninitialized).
      store(0, at: end)
      store(0, at: end + 8)
      let fraction = UnsafeMutableRawPointer(position + point)
      let first = fraction.loadUnaligned(as: UInt64.self)
      let second = fraction.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
      fraction.storeBytes(of: first, toByteOffset: 1, as: UInt64.self)
      fraction.storeBytes(of: second, toByteOffset: 9, as: UInt64.self)
      position[point] = UInt8(ascii: ".")
      return end + 1 - output
    }
    // ddd000.0: at most 15 zeros.
    store(Self.zeros, at: end)
    store(Self.zeros, at: end + 8)
    position += point
    position[0] = UInt8(ascii: ".")
    position[1] = UInt8(ascii: "0")
    return position + 2 - output
  }

  /// The bytes of `00000000` and of `0.000000`, for one store each.
  private static let zeros = UInt64(littleEndian: 0x3030_3030_3030_3030)
  private static let zeroPoint = UInt64(littleEndian: 0x3030_3030_3030_2E30)

  @inline(__always)
  private static func store(_ word: UInt64, at position: UnsafeMutablePointer<UInt8>) {
    UnsafeMutableRawPointer(position).storeBytes(of: word, as: UInt64.self)
  }

  /// The number of decimal digits of `value` (at least 1).
  @inline(__always)
  static func digitCount(_ value: UInt64) -> Int {
    // log10 from the bit length (1233/4096 ≈ log10 2), then one comparison.
    let estimate = ((64 - value.leadingZeroBitCount) * 1233) >> 12
    return estimate + (value >= powersOfTen[estimate] ? 1 : 0)
  }

  /// 10^0 through 10^19.
  private static let powersOfTen: [UInt64] = [
    1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
    10_000_000_000, 100_000_000_000, 1_000_000_000_000, 10_000_000_000_000,
    100_000_000_000_000, 1_000_000_000_000_000, 10_000_000_000_000_000,
    100_000_000_000_000_000, 1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
  ]

  /// `value` (finite, not zero; its sign ignored) as `digits × 10^exponent`: the fewest
  /// digits that read back as `value`, the closest to it of those, with no trailing zero.
  static func decimal(_ value: Double) -> (digits: UInt64, exponent: Int) {
    let fraction = value.significandBitPattern
    let biased = Int(value.exponentBitPattern)
    // value = m2 × 2^e2; the interval that reads back as it is (m2 ± ½) × 2^e2, halved at
    // the bottom when m2 is a power of two (the next double down is closer).
    let m2: UInt64
    let e2: Int
    if biased == 0 {
      (m2, e2) = (fraction, 1 - 1023 - 52 - 2)
    } else {
      (m2, e2) = ((1 << 52) | fraction, biased - 1023 - 52 - 2)
    }
    if let integer = smallInteger(m2, e2 + 2) { return integer }
    let isEven = m2 & 1 == 0
    let acceptsBounds = isEven
    // Four times the value and the bounds, so that the halves are integers.
    let mv = 4 * m2
    let lowerShift: UInt64 = fraction != 0 || biased <= 1 ? 1 : 0
    var vr: UInt64
    var vp: UInt64
    var vm: UInt64
    let e10: Int
    var vmIsTrailingZeros = false
    var vrIsTrailingZeros = false
    if e2 >= 0 {
      let q = log10Pow2(e2) - (e2 > 3 ? 1 : 0)
      e10 = q
      let k = 125 + pow5Bits(q) - 1
      let shift = -e2 + q + k
      (vr, vp, vm) = inversePowersOfFive.withUnsafeBufferPointer { table in
        scaled(m2, table[2 * q], table[2 * q + 1], shift, lowerShift)
      }
      if q <= 21 {
        // Exact when the scaled value is a multiple of 5^q: only small q can be.
        if mv % 5 == 0 {
          vrIsTrailingZeros = isMultipleOfPowerOfFive(mv, q)
        } else if acceptsBounds {
          vmIsTrailingZeros = isMultipleOfPowerOfFive(mv - 1 - lowerShift, q)
        } else if isMultipleOfPowerOfFive(mv + 2, q) {
          vp -= 1
        }
      }
    } else {
      let q = log10Pow5(-e2) - (-e2 > 1 ? 1 : 0)
      e10 = q + e2
      let i = -e2 - q
      let k = pow5Bits(i) - 125
      let shift = q - k
      (vr, vp, vm) = powersOfFive.withUnsafeBufferPointer { table in
        scaled(m2, table[2 * i], table[2 * i + 1], shift, lowerShift)
      }
      if q <= 1 {
        // Every bit of mv lies in the part kept: exact.
        vrIsTrailingZeros = true
        if acceptsBounds {
          vmIsTrailingZeros = lowerShift == 1
        } else {
          vp -= 1
        }
      } else if q < 63 {
        vrIsTrailingZeros = mv & ((1 << UInt64(q)) - 1) == 0
      }
    }
    // Drop digits while the bounds still differ in what is left.
    var removed = 0
    var lastRemoved: UInt64 = 0
    let output: UInt64
    if vmIsTrailingZeros || vrIsTrailingZeros {
      // Rare: the value or the lower bound may be exact; ties need care.
      while vp / 10 > vm / 10 {
        vmIsTrailingZeros = vmIsTrailingZeros && vm % 10 == 0
        vrIsTrailingZeros = vrIsTrailingZeros && lastRemoved == 0
        lastRemoved = vr % 10
        (vr, vp, vm) = (vr / 10, vp / 10, vm / 10)
        removed += 1
      }
      if vmIsTrailingZeros {
        while vm % 10 == 0 {
          vrIsTrailingZeros = vrIsTrailingZeros && lastRemoved == 0
          lastRemoved = vr % 10
          (vr, vp, vm) = (vr / 10, vp / 10, vm / 10)
          removed += 1
        }
      }
      if vrIsTrailingZeros && lastRemoved == 5 && vr % 2 == 0 {
        lastRemoved = 4  // exactly halfway: to even
      }
      let roundsUp = (vr == vm && (!acceptsBounds || !vmIsTrailingZeros)) || lastRemoved >= 5
      output = vr + (roundsUp ? 1 : 0)
    } else {
      var roundsUp = false
      // Digits go while the bounds differ in what is left, as many as the one-by-one rule
      // drops (the bounds differ after a few only when they differ after each; the rounding
      // looks at the last digit dropped), several at a time where it can: a short decimal (a
      // price, a measurement) drops a dozen. Two first: a long one (seventeen digits) drops
      // none, and pays for no other test.
      if vp / 100 > vm / 100 {
        roundsUp = vr % 100 >= 50
        (vr, vp, vm) = (vr / 100, vp / 100, vm / 100)
        removed += 2
        while vp / 10_000 > vm / 10_000 {
          roundsUp = vr % 10_000 >= 5_000
          (vr, vp, vm) = (vr / 10_000, vp / 10_000, vm / 10_000)
          removed += 4
        }
        if vp / 100 > vm / 100 {
          roundsUp = vr % 100 >= 50
          (vr, vp, vm) = (vr / 100, vp / 100, vm / 100)
          removed += 2
        }
      }
      while vp / 10 > vm / 10 {
        roundsUp = vr % 10 >= 5
        (vr, vp, vm) = (vr / 10, vp / 10, vm / 10)
        removed += 1
      }
      output = vr + (vr == vm || roundsUp ? 1 : 0)
    }
    return withoutTrailingZeros(output, e10 + removed)
  }

  /// An integer below 2⁵³ is its own shortest form: `m2 × 2^e2` when `e2` is in `-52...0`
  /// and the bits shifted out are zero.
  @inline(__always)
  private static func smallInteger(_ m2: UInt64, _ e2: Int) -> (digits: UInt64, exponent: Int)? {
    guard e2 <= 0, e2 >= -52 else { return nil }
    let shift = UInt64(-e2)
    guard m2 & ((1 << shift) - 1) == 0 else { return nil }
    return withoutTrailingZeros(m2 >> shift, 0)
  }

  @inline(__always)
  private static func withoutTrailingZeros(_ digits: UInt64, _ exponent: Int) -> (
    digits: UInt64, exponent: Int
  ) {
    var (digits, exponent) = (digits, exponent)
    while digits != 0, digits % 10 == 0 {
      digits /= 10
      exponent += 1
    }
    return (digits, exponent)
  }

  /// `4·m2`, `4·m2 + 2` and `4·m2 − 1 − lowerShift`, each times the 128-bit `(low, high)`
  /// and shifted right by `shift` (more than 64).
  @inline(__always)
  private static func scaled(
    _ m2: UInt64, _ low: UInt64, _ high: UInt64, _ shift: Int, _ lowerShift: UInt64
  ) -> (UInt64, UInt64, UInt64) {
    (
      multiplyShift(4 * m2, low, high, shift),
      multiplyShift(4 * m2 + 2, low, high, shift),
      multiplyShift(4 * m2 - 1 - lowerShift, low, high, shift)
    )
  }

  /// `(m × (high·2⁶⁴ + low)) >> shift`, for `shift` in 65..<128 and a result below 2⁶⁴.
  @inline(__always)
  private static func multiplyShift(_ m: UInt64, _ low: UInt64, _ high: UInt64, _ shift: Int)
    -> UInt64
  {
    let lowProduct = m.multipliedFullWidth(by: low)
    let highProduct = m.multipliedFullWidth(by: high)
    // (lowProduct >> 64) + highProduct, 128 bits.
    let (sumLow, carry) = highProduct.low.addingReportingOverflow(lowProduct.high)
    let sumHigh = highProduct.high &+ (carry ? 1 : 0)
    let bits = UInt64(truncatingIfNeeded: shift - 64)  // 1...63
    return (sumHigh &<< (64 - bits)) | (sumLow &>> bits)
  }

  /// ⌊log₁₀ 2^e⌋, for e in 0...1650.
  @inline(__always)
  private static func log10Pow2(_ e: Int) -> Int { (e * 78_913) >> 18 }

  /// ⌊log₁₀ 5^e⌋, for e in 0...2620.
  @inline(__always)
  private static func log10Pow5(_ e: Int) -> Int { (e * 732_923) >> 20 }

  /// The bit length of 5^e (1 for e = 0), for e in 0...3528.
  @inline(__always)
  private static func pow5Bits(_ e: Int) -> Int { ((e * 1_217_359) >> 19) + 1 }

  /// Whether 5^power divides `value` (not zero).
  @inline(__always)
  private static func isMultipleOfPowerOfFive(_ value: UInt64, _ power: Int) -> Bool {
    var value = value
    var count = 0
    while value % 5 == 0 {
      value /= 5
      count += 1
      if count >= power { return true }
    }
    return count >= power
  }
}
