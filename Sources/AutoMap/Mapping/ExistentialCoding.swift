/// How one type made of a registered protocol type decodes and encodes, built up from the
/// protocol type's own: optionals, arrays and string-keyed dictionaries of it.
///
/// Two ways each: through `JSON` (`decode`, `encode`: the reference), and through bytes
/// (`read`, `write`), which find each object's discriminator in place and read or write the
/// chosen type's fields straight away (``ExistentialBytes``).
struct ExistentialCoding<X> {
  let decode: (JSON) throws -> X
  let encode: (X) throws -> JSON
  let read: (inout JSONReader) throws -> X
  let write: (X, inout JSONWriter) throws -> Void
  /// For optionals: `nil`, and whether a value is `nil`.
  var none: (() -> X)? = nil
  var isNone: ((X) -> Bool)? = nil
  var isEmpty: ((X) -> Bool)? = nil

  var optional: ExistentialCoding<X?> {
    let (decode, encode, read, write) = (self.decode, self.encode, self.read, self.write)
    return ExistentialCoding<X?>(
      decode: { json in json.isNullOrMissing ? nil : try decode(json) },
      encode: { value in try value.map(encode) ?? .null },
      read: { reader in try reader.consumeNull() ? nil : read(&reader) },
      write: { value, writer in
        guard let value else { return writer.writeNull() }
        try write(value, &writer)
      }, none: { nil }, isNone: { $0 == nil })
  }

  var array: ExistentialCoding<[X]> {
    let (decode, encode) = (self.decode, self.encode)
    let element = decodeCodec()
    let elementEncoder = encodeCodec()
    return ExistentialCoding<[X]>(
      decode: { json in
        guard case .array(let elements) = json else {
          throw JSON.Error.mismatch(expected: typeName([X].self), found: json)
        }
        return try Nesting.level(encoding: false) {
          if Reporting.mayBeActive, Reporting.isActive {
            var result: [X] = []
            result.reserveCapacity(elements.count)
            try Problems.each(elements.enumerated(), at: { .index($0.offset) }) {
              result.append(try decode($0.element))
            }
            return result
          }
          return try elements.enumerated().map { position, element in
            do { return try decode(element) } catch {
              throw JSON.Error.wrapping(error).prefixed(index: position)
            }
          }
        }
      },
      encode: { values in
        try Nesting.level(encoding: true) {
          .array(
            try values.enumerated().map { position, element in
              do { return try encode(element) } catch {
                throw JSON.Error.wrapping(error).prefixed(index: position)
              }
            })
        }
      },
      read: { reader in try [X].readArray(&reader, element) },
      write: { values, writer in
        try values.withUnsafeBufferPointer { try [X].writeArray($0, elementEncoder, &writer) }
      }, isEmpty: { $0.isEmpty })
  }

  var dictionary: ExistentialCoding<[String: X]> {
    let (decode, encode, read) = (self.decode, self.encode, self.read)
    let encodeMembers: ([String: X]) throws -> JSON = { values in
      try Nesting.level(encoding: true) {
        var object = JSON.Object()
        for (name, member) in values {
          do { object.append(name, try encode(member)) } catch {
            throw JSON.Error.wrapping(error).prefixed(key: name)
          }
        }
        return .object(object)
      }
    }
    return ExistentialCoding<[String: X]>(
      decode: { json in
        guard case .object(let object) = json else {
          throw JSON.Error.mismatch(expected: typeName([String: X].self), found: json)
        }
        return try Nesting.level(encoding: false) {
          var result: [String: X] = [:]
          if Reporting.mayBeActive, Reporting.isActive {
            try Problems.each(object, at: { .key($0.0) }) { result[$0.0] = try decode($0.1) }
            return result
          }
          for (name, member) in object {
            do { result[name] = try decode(member) } catch {
              throw JSON.Error.wrapping(error).prefixed(key: name)
            }
          }
          return result
        }
      },
      encode: encodeMembers,
      read: { reader in
        let hasMembers = try reader.openContainer(
          UInt8(ascii: "{"), expected: typeName([String: X].self))
        defer { reader.leaveContainer() }
        var result: [String: X] = [:]
        guard hasMembers else { return result }
        repeat {
          reader.skipWhitespace()
          let key = try reader.string(from: reader.scanKeyString())
          try reader.expect(UInt8(ascii: ":"), "':' after object key")
          do { result[key] = try read(&reader) } catch {
            throw JSON.Error.wrapping(error).prefixed(key: key)
          }
        } while try reader.nextMember()
        return result
      },
      write: { values, writer in
        // Through `JSON`: members in its order, and `.sortedKeys` as it sorts them.
        try writer.write(encodeMembers(values))
      }, isEmpty: { $0.isEmpty })
  }

  func decodeCodec() -> DecodeCodec {
    let (decode, read) = (self.decode, self.read)
    return DecodeCodec(
      X.self,
      readBytes: { reader, destination in RawValue.initialize(destination, to: try read(&reader)) },
      readJSON: { json, destination in RawValue.initialize(destination, to: try decode(json)) },
      storeNil: none.map { none in { RawValue.initialize($0, to: none()) } })
  }

  func encodeCodec() -> EncodeCodec {
    let (encode, write) = (self.encode, self.write)
    let isEmpty = self.isEmpty
    let isNone = self.isNone
    return EncodeCodec(
      X.self,
      writeBytes: { value, writer in try write(RawValue.load(value, as: X.self), &writer) },
      writeJSON: { value in try encode(RawValue.load(value, as: X.self)) },
      isNil: isNone.map { isNone in { isNone(RawValue.load($0, as: X.self)) } },
      isEmpty: isEmpty.map { isEmpty in { isEmpty(RawValue.load($0, as: X.self)) } })
  }
}
