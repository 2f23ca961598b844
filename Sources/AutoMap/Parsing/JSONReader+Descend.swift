extension JSONReader {
  /// Walks `steps` down from the value at the cursor and reads the value they lead to into
  /// `destination` through `codec`; everything else is stepped over (and still checked).
  /// Returns whether the path was found. A repeated key takes its last occurrence, as
  /// everywhere in AutoMap.
  mutating func descend(
    _ steps: ArraySlice<JSON.Index.Step>, into destination: UnsafeMutableRawPointer,
    _ codec: DecodeCodec
  ) throws -> Bool {
    guard let step = steps.first else {
      try codec.readBytes(&self, destination)
      return true
    }
    let rest = steps.dropFirst()
    var found = false
    do {
      try descend(step, rest, into: destination, codec, found: &found)
    } catch {
      if found { codec.destroy(destination) }  // malformed text after the value: drop it
      throw error
    }
    return found
  }

  private mutating func descend(
    _ step: JSON.Index.Step, _ rest: ArraySlice<JSON.Index.Step>,
    into destination: UnsafeMutableRawPointer, _ codec: DecodeCodec, found: inout Bool
  ) throws {
    switch step {
    case .token(let token):
      // A pointer token: a key in an object, a position in an array.
      if peekByte() == UInt8(ascii: "{") {
        try descend(.key(token), rest, into: destination, codec, found: &found)
      } else if peekByte() == UInt8(ascii: "["), let position = JSON.Index.arrayPosition(token) {
        try descend(.position(position), rest, into: destination, codec, found: &found)
      } else if peekByte() == UInt8(ascii: "[") {
        try skipValue()  // "-" or a key: no element of the array has that name
      } else {
        _ = try openContainer(
          UInt8(ascii: "{"), expected: "an object or array to look up \(JSON.string(token))")
      }
    case .key(let wanted):
      let hasMembers = try openContainer(
        UInt8(ascii: "{"), expected: "an object to look up key \(JSON.string(wanted))")
      defer { leaveContainer() }
      guard hasMembers else { return }
      repeat {
        skipWhitespace()
        let key = try string(from: scanKeyString())
        try expect(UInt8(ascii: ":"), "':' after object key")
        guard JSON.sameKey(key, wanted) else {
          try skipValue()
          continue
        }
        if found { codec.destroy(destination) }  // a later repeat of the key wins
        found = false
        do {
          found = try descend(rest, into: destination, codec)
        } catch {
          throw JSON.Error.wrapping(error).prefixed(key: key)
        }
      } while try nextMember()
    case .position(let wanted):
      let hasElements = try openContainer(
        UInt8(ascii: "["), expected: "an array to read index \(wanted)")
      defer { leaveContainer() }
      guard hasElements else { return }
      var position = 0
      repeat {
        if position == wanted {
          do {
            found = try descend(rest, into: destination, codec)
          } catch {
            throw JSON.Error.wrapping(error).prefixed(index: position)
          }
        } else {
          try skipValue()
        }
        position += 1
      } while try nextElement()
    }
  }
}
