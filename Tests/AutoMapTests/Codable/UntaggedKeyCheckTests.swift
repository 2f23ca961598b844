@_spi(Testing) import AutoMap
import Foundation
import Testing

// Before a case that misses a key is taken as failed on bytes, the untagged byte path checks
// the document's keys are plain and distinct (the reference could read others as one key).

@Suite("The untagged byte path's check of a document's keys")
struct UntaggedKeyCheckTests {
  @Test("plain distinct keys pass; a repeat, under any spelling, at any position, does not")
  func keyCheck() {
    func object(_ keys: [String]) -> String {
      "{" + keys.enumerated().map { #""\#($1)":\#($0)"# }.joined(separator: ",") + "}"
    }
    let many = (0..<20).map { "key\($0)" }
    #expect(AutoMapTesting.keysAreClean(object(many)) == true)
    #expect(AutoMapTesting.keysAreClean(#"[{"a":1,"b":{"a":2}},{"a":3}]"#) == true)
    #expect(AutoMapTesting.keysAreClean("{}") == true)
    // A repeat among the first eight keys, past them, and across them; spellings that key
    // styles read as one key.
    for (first, second) in [(1, 3), (9, 15), (2, 12), (0, 8), (7, 19)] {
      var keys = many
      keys[second] = keys[first]
      #expect(AutoMapTesting.keysAreClean(object(keys)) == false, "\(first), \(second)")
      keys[second] = keys[first].uppercased().replacingOccurrences(of: "KEY", with: "K_E-Y")
      #expect(AutoMapTesting.keysAreClean(object(keys)) == false, "\(first), \(second)")
    }
    #expect(AutoMapTesting.keysAreClean(#"{"a":{"x":1,"X":2}}"#) == false)
    #expect(AutoMapTesting.keysAreClean(#"{"\u0061":1}"#) == false)
    #expect(AutoMapTesting.keysAreClean(#"{"é":1}"#) == false)
    #expect(AutoMapTesting.keysAreClean(#"{"a":1,"#) == nil)
  }
}
