import Foundation

/// RFC 1123 dates, as HTTP headers and many older APIs write them:
/// `Sun, 06 Nov 1994 08:49:37 GMT`. Parsed and written without a formatter.
enum RFC1123 {
  private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
  private static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// `[Day, ]DD Mon YYYY HH:MM[:SS] (GMT|UTC|UT|Z|±HHMM)`, names in any case; `nil` when the
  /// text is not that. The weekday, when present, must be a day name (it is not checked
  /// against the date).
  static func parse(_ text: String) -> Date? {
    var words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    if let first = words.first, first.hasSuffix(",") {
      guard
        weekdays.contains(where: { $0.caseInsensitiveCompare(first.dropLast()) == .orderedSame })
      else { return nil }
      words.removeFirst()
    }
    guard words.count == 5, let day = Int(digits: words[0], count: 1...2),
      let monthIndex = months.firstIndex(where: {
        $0.caseInsensitiveCompare(words[1]) == .orderedSame
      }),
      let year = Int(digits: words[2], count: 4...4)
    else { return nil }
    let month = monthIndex + 1
    let time = words[3].split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    guard (2...3).contains(time.count), let hour = Int(digits: time[0], count: 2...2),
      let minute = Int(digits: time[1], count: 2...2),
      let second = time.count == 3 ? Int(digits: time[2], count: 2...2) : 0,
      let offset = zoneOffset(words[4]),
      (1...ISO8601.daysIn(month, year)).contains(day), hour < 24, minute < 60, second < 61
    else { return nil }
    let days = ISO8601.daysFromCivil(year, month, day)
    return Date(
      timeIntervalSince1970: Double(days * 86400 + hour * 3600 + minute * 60 + second - offset))
  }

  /// Seconds east of UTC for a zone, or `nil` when it is not one of the accepted forms.
  private static func zoneOffset(_ zone: String) -> Int? {
    switch zone.uppercased() {
    case "GMT", "UTC", "UT", "Z": return 0
    default:
      let bytes = Array(zone.utf8)
      guard bytes.count == 5, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
        let hours = Int(digits: String(zone.dropFirst().prefix(2)), count: 2...2),
        let minutes = Int(digits: String(zone.suffix(2)), count: 2...2), minutes < 60
      else { return nil }
      return (bytes[0] == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60)
    }
  }

  /// In GMT, whole seconds (a fraction is dropped: the format has none).
  ///
  /// - Throws: for a date outside the years 0000–9999, which the format cannot hold.
  static func format(_ date: Date) throws -> String {
    let interval = date.timeIntervalSince1970.rounded(.down)
    // 0000-01-01 and 10000-01-01, in seconds since 1970.
    guard interval.isFinite, interval >= -62_167_219_200, interval < 253_402_300_800 else {
      throw JSON.Error(
        .unencodable, "\(date) is outside the years 0000–9999 that an RFC 1123 date can hold")
    }
    let seconds = Int(interval)
    var (day, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86400)
    if secondOfDay < 0 {
      secondOfDay += 86400
      day -= 1
    }
    let (year, month, dayOfMonth) = ISO8601.civilFromDays(day)
    // 1970-01-01 was a Thursday.
    let weekday = weekdays[((day % 7) + 11) % 7]
    func pad(_ value: Int, _ width: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return "\(weekday), \(pad(dayOfMonth, 2)) \(months[month - 1]) \(pad(year, 4)) "
      + "\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)) GMT"
  }
}

extension Int {
  /// The number `text` spells in ASCII digits only, `count` of them; `nil` otherwise.
  fileprivate init?(digits text: String, count: ClosedRange<Int>) {
    guard count.contains(text.utf8.count),
      text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
      let value = Int(text)
    else { return nil }
    self = value
  }
}
