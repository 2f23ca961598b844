import AutoMap
import Foundation
import Testing

final class Link: JSONCodable, DefaultInitable {
  var id = 0
  var next: Link?
  required init() {}
}

struct Branch: JSONCodable, DefaultInitable {
  var children: [Branch] = []
}

/// Counts live instances, to prove a failed decode releases what it built.
final class Tracked: JSONCodable, DefaultInitable {
  nonisolated(unsafe) static var live = 0
  var id = 0
  required init() { Tracked.live += 1 }
  deinit { Tracked.live -= 1 }
}

@Suite("Encoding is bounded and uses dynamic types", .serialized)
struct EncodingBoundsTests {
  @Test("a reference cycle is an error naming the path, on every entry point, every time")
  func cycle() throws {
    let a = Link()
    let b = Link()
    a.next = b
    b.next = a
    defer { a.next = nil }  // break the cycle so both are freed
    for _ in 0..<2 {
      let viaJSON = #expect(throws: JSON.Error.self) { try a.json }
      let viaData = #expect(throws: JSON.Error.self) { try a.jsonData() }
      let viaString = #expect(throws: JSON.Error.self) {
        try a.jsonString(options: [.prettyPrinted])
      }
      for error in [viaJSON, viaData, viaString] {
        #expect(error?.kind == .unencodable)
        #expect(error?.path.hasPrefix("next.next.next") == true)
        #expect(error?.description.contains("nesting deeper than 512") == true)
      }
      #expect(viaJSON?.path == viaData?.path)
    }
  }

  @Test("100 000 nested objects or arrays are an error, not a stack overflow")
  func deepChains() throws {
    var head = Link()
    for id in 1...100_000 {
      let link = Link()
      link.id = id
      link.next = head
      head = link
    }
    #expect(throws: JSON.Error.self) { try head.jsonData() }
    #expect(throws: JSON.Error.self) { try head.json }
    // Unlink iteratively: releasing a 100 000-long chain recursively would itself overflow.
    var cursor: Link? = head
    while let link = cursor {
      cursor = link.next
      link.next = nil
    }
    var tree = Branch()
    for _ in 0..<2_000 { tree = Branch(children: [tree]) }
    #expect(throws: JSON.Error.self) { try tree.jsonString() }
    #expect(throws: JSON.Error.self) { try tree.json }
  }

  @Test("512 levels encode; the 513th is the error")
  func depthLimit() throws {
    func chain(_ depth: Int) -> Link {
      let head = Link()
      var tail = head
      for _ in 1..<depth {
        let link = Link()
        tail.next = link
        tail = link
      }
      return head
    }
    #expect(throws: Never.self) { try chain(512).jsonData() }
    #expect(throws: Never.self) { try chain(512).json }
    #expect(throws: JSON.Error.self) { try chain(513).jsonData() }
    #expect(throws: JSON.Error.self) { try chain(513).json }
  }

  @Test("a value held as its base class encodes as its dynamic class")
  func dynamicClass() throws {
    let dog = Dog()
    dog.name = "Rex"
    dog.breed = "corgi"
    let animal: Animal = dog
    let expected = #"{"breed":"corgi","good_boy":true,"leg_count":4,"name":"Rex"}"#
    #expect(try animal.jsonString(options: [.sortedKeys]) == expected)
    #expect(try animal.json.jsonString(options: [.sortedKeys]) == expected)
    #expect(try [animal].json == [try dog.json])
    #expect(try [animal].jsonString() == "[\(try dog.jsonString())]")
    let optional: Animal? = dog
    #expect(try optional.json == (try dog.json))
  }

  @Test("a designated path with malformed text after it releases the value it read")
  func designatedPathReleases() {
    Tracked.live = 0
    let texts = [
      #"{"a": {"id": 1}, "b": tru}"#, #"{"a": {"id": 1}, "a": {"id": 2}, "b": [}"#,
      #"[{"id": 1}, "#, #"{"a": {"id": 1}} x"#,
    ]
    for text in texts {
      #expect(throws: JSON.Error.self) { try Tracked(jsonString: text, at: ["a"]) }
      #expect(throws: JSON.Error.self) { try Tracked(jsonString: text, at: [0]) }
    }
    #expect(Tracked.live == 0)
  }
}
