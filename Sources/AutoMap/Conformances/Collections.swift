// Arrays and sets of mappable types, nested to any depth (dictionaries are in
// `Dictionaries.swift`). Errors carry the element's position in their path.

extension Array: JSONDecodable, DefaultInitable, DecodeCodecProvider where Element: JSONDecodable {
  /// Reads a JSON array element by element; an element that does not map is an error whose
  /// path starts with its position (`[3].id`).
  ///
  /// ```swift
  /// let ids = try [Int](decode: json["ids"])
  /// ```
  public init(decode json: JSON) throws {
    self = try Self.decodeElements(json, lossy: false)
  }

  /// The elements of a JSON array; when `lossy`, elements that fail to map are left out
  /// (malformed models still throw). The JSON-path twin of ``readArray(_:_:lossy:)``.
  static func decodeElements(_ json: JSON, lossy: Bool) throws -> [Element] {
    guard case .array(let elements) = json else {
      throw JSON.Error.mismatch(expected: typeName(Self.self), found: json)
    }
    return try Nesting.level(encoding: false) { try decodeElements(elements, lossy: lossy) }
  }

  private static func decodeElements(_ elements: [JSON], lossy: Bool) throws -> [Element] {
    if Reporting.mayBeActive, Reporting.isActive {
      return try decodeReporting(elements, lossy: lossy)
    }
    var result: [Element] = []
    result.reserveCapacity(elements.count)
    for (position, element) in elements.enumerated() {
      do {
        result.append(try Element(decode: element))
      } catch {
        let wrapped = JSON.Error.wrapping(error)
        if lossy {
          guard wrapped.isRecoverable else { throw error }
          continue
        }
        throw wrapped.prefixed(index: position)
      }
    }
    return result
  }

  /// ``decodeElements(_:lossy:)`` for a call that asks for a report (see ``Reporting``): each
  /// element is read at its place in the path while substitutions are recorded, a lossy
  /// element left out is recorded, and when the call collects every problem, an element that
  /// fails does not stop the others.
  private static func decodeReporting(_ elements: [JSON], lossy: Bool) throws -> [Element] {
    var result: [Element] = []
    result.reserveCapacity(elements.count)
    try Problems.each(elements.enumerated(), at: { .index($0.offset) }, lossy: lossy) {
      result.append(try Element(decode: $0.element))
    }
    return result
  }

  static func makeDecodeCodec() -> DecodeCodec {
    // Arrays of the common scalars read their elements inline.
    switch ObjectIdentifier(Element.self) {
    case ObjectIdentifier(Double.self): return scalarArrayCodec { try $0.readDouble() }
    case ObjectIdentifier(Int.self): return scalarArrayCodec { try $0.readInteger(Int.self) }
    case ObjectIdentifier(Int64.self): return scalarArrayCodec { try $0.readInteger(Int64.self) }
    case ObjectIdentifier(String.self): return scalarArrayCodec { try $0.readStringValue() }
    case ObjectIdentifier(Bool.self): return scalarArrayCodec { try $0.readBool() }
    // Arrays of those arrays (coordinates, matrices) read both levels inline.
    case ObjectIdentifier([Double].self): return scalarArrayArrayCodec { try $0.readDouble() }
    case ObjectIdentifier([Int].self): return scalarArrayArrayCodec { try $0.readInteger(Int.self) }
    default: break
    }
    return elementsCodec(CodecCache.decoder(for: Element.self))
  }

  /// `.lossy`: elements that fail to map are left out.
  static func lossyReadBytes(_ reader: inout JSONReader, _ destination: UnsafeMutableRawPointer)
    throws
  {
    let element = CodecCache.decoder(for: Element.self)
    RawValue.initialize(destination, to: try readArray(&reader, element, lossy: true))
  }

  static func lossyReadJSON(_ json: JSON, _ destination: UnsafeMutableRawPointer) throws {
    RawValue.initialize(destination, to: try decodeElements(json, lossy: true))
  }
}

extension Array {
  /// Reads `[ … ]` element by element through the element's codec; when `lossy`, elements
  /// that fail to map are left out.
  ///
  /// Elements are read straight into memory that grows by doubling, and moved into the array
  /// once at the end: this code is not specialized per element type, and `append` here would
  /// cost each element a metadata lookup, a generic call and a temporary.
  static func readArray(
    _ reader: inout JSONReader, _ element: DecodeCodec, lossy: Bool = false
  ) throws -> [Element] {
    try readEach(&reader) { reader, position, slot in
      if lossy {
        let read: Void? = try reader.readOrSkip(
          { try element.readBytes(&$0, slot) }, confirm: { try element.readJSON($0, slot) })
        return read != nil
      }
      do {
        try element.readBytes(&reader, slot)
      } catch {
        throw JSON.Error.wrapping(error).prefixed(index: position)
      }
      return true
    }
  }

  /// Reads `[ … ]`, each element into the next slot by `read`, given the slot's position:
  /// `true` when it stored a value there, `false` when it left the element out.
  @inline(__always)
  static func readEach(
    _ reader: inout JSONReader,
    _ read: (inout JSONReader, Int, UnsafeMutableRawPointer) throws -> Bool
  ) throws -> [Element] {
    let hasElements = try reader.openContainer(
      UInt8(ascii: "["), expected: typeName([Element].self))
    defer { reader.leaveContainer() }
    guard hasElements else { return [] }
    var capacity = 4
    var storage = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
    var count = 0  // initialized elements at `storage`
    defer {
      storage.deinitialize(count: count)
      storage.deallocate()
    }
    repeat {
      if count == capacity {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: 2 * capacity)
        larger.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = larger
        capacity *= 2
      }
      if try read(&reader, count, UnsafeMutableRawPointer(storage + count)) { count += 1 }
    } while try reader.nextElement()
    let elements = [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
      guard let target = buffer.baseAddress else { return }
      target.moveInitialize(from: storage, count: count)
      initialized = count
    }
    count = 0  // moved out: only the memory is left to free
    return elements
  }
}

/// The codec of an array whose elements map through their own codec, built where `Self`, the
/// array type, arrives as a value.
///
/// In `extension Array`, code knows `Element` and must look up `[Element]`'s metadata (about
/// 450 instructions) each time it stores an array through a pointer. Closures made in this
/// protocol extension capture `Self` once, when the codec is built.
protocol ElementsCodecProvider {
  static func readElements(_ reader: inout JSONReader, _ element: DecodeCodec, lossy: Bool)
    throws -> Self
  static func decodeElements(_ json: JSON, lossy: Bool) throws -> Self
}

extension ElementsCodecProvider {
  static func elementsCodec(_ element: DecodeCodec) -> DecodeCodec {
    DecodeCodec(
      Self.self,
      readBytes: { reader, destination in
        RawValue.initialize(destination, to: try readElements(&reader, element, lossy: false))
      },
      readJSON: { json, destination in
        RawValue.initialize(destination, to: try decodeElements(json, lossy: false))
      },
      lossyReadBytes: { reader, destination in
        RawValue.initialize(destination, to: try readElements(&reader, element, lossy: true))
      },
      lossyReadJSON: { json, destination in
        RawValue.initialize(destination, to: try decodeElements(json, lossy: true))
      })
  }
}

extension Array: ElementsCodecProvider where Element: JSONDecodable {
  static func readElements(_ reader: inout JSONReader, _ element: DecodeCodec, lossy: Bool)
    throws -> [Element]
  {
    try readArray(&reader, element, lossy: lossy)
  }
}

extension Array: JSONEncodable, EncodeCodecProvider where Element: JSONEncodable {
  /// A JSON array of the elements, in order.
  public var json: JSON {
    get throws {
      try Nesting.level(encoding: true) {
        .array(
          try enumerated().map { position, element in
            do { return try element.json } catch {
              throw JSON.Error.wrapping(error).prefixed(index: position)
            }
          })
      }
    }
  }

  static func makeEncodeCodec() -> EncodeCodec {
    // Arrays of the common scalars, and arrays of those, write their elements inline.
    switch ObjectIdentifier(Element.self) {
    case ObjectIdentifier(Double.self): return scalarArrayEncodeCodec { try $1.writeDouble($0) }
    case ObjectIdentifier(Int.self): return scalarArrayEncodeCodec { $1.writeInteger($0 as Int) }
    case ObjectIdentifier(Int64.self):
      return scalarArrayEncodeCodec { $1.writeInteger($0 as Int64) }
    case ObjectIdentifier(String.self): return scalarArrayEncodeCodec { $1.writeString($0) }
    case ObjectIdentifier(Bool.self): return scalarArrayEncodeCodec { $1.writeBool($0) }
    case ObjectIdentifier([Double].self):
      return scalarArrayEncodeCodec { try writeScalars($0, &$1) { try $1.writeDouble($0) } }
    case ObjectIdentifier([Int].self):
      return scalarArrayEncodeCodec { try writeScalars($0, &$1) { $1.writeInteger($0 as Int) } }
    default: break
    }
    let element = CodecCache.encoder(for: Element.self)
    return EncodeCodec(
      [Element].self,
      writeBytes: { value, writer in
        try RawValue.withBorrowed(value, as: [Element].self) { array in
          try array.withUnsafeBufferPointer { try writeArray($0, element, &writer) }
        }
      },
      writeJSON: { value in try RawValue.load(value, as: [Element].self).json },
      isEmpty: { RawValue.load($0, as: [Element].self).isEmpty })
  }
}

extension Array {
  /// Writes `[ … ]`, each element through `codec`.
  static func writeArray(
    _ elements: UnsafeBufferPointer<Element>, _ codec: EncodeCodec, _ writer: inout JSONWriter
  ) throws {
    try writer.beginArray()
    let stride = MemoryLayout<Element>.stride
    if let base = elements.baseAddress {
      let raw = UnsafeRawPointer(base)
      for position in 0..<elements.count {
        writer.beginElement()
        do {
          try codec.writeBytes(raw + position * stride, &writer)
        } catch {
          throw JSON.Error.wrapping(error).prefixed(index: position)
        }
      }
    }
    writer.endArray()
  }
}

extension Set: JSONDecodable, DefaultInitable, DecodeCodecProvider where Element: JSONDecodable {
  /// Reads a JSON array; repeated elements collapse into one.
  public init(decode json: JSON) throws {
    self = Set(try [Element](decode: json))
  }

  static func makeDecodeCodec() -> DecodeCodec {
    let element = CodecCache.decoder(for: Element.self)
    return DecodeCodec(
      Set<Element>.self,
      readBytes: { reader, destination in
        RawValue.initialize(
          destination, to: Set(try [Element].readArray(&reader, element)))
      },
      readJSON: { json, destination in
        RawValue.initialize(destination, to: try Set(decode: json))
      },
      lossyReadBytes: { reader, destination in
        RawValue.initialize(
          destination, to: Set(try [Element].readArray(&reader, element, lossy: true)))
      },
      lossyReadJSON: { json, destination in
        RawValue.initialize(
          destination, to: Set(try [Element].decodeElements(json, lossy: true)))
      })
  }
}

extension Set: JSONEncodable, EncodeCodecProvider where Element: JSONEncodable {
  /// The elements as an array, in the set's iteration order.
  public var json: JSON {
    get throws { try Array(self).json }
  }

  static func makeEncodeCodec() -> EncodeCodec {
    let element = CodecCache.encoder(for: Element.self)
    return EncodeCodec(
      Set<Element>.self,
      writeBytes: { value, writer in
        try Array(RawValue.load(value, as: Set<Element>.self)).withUnsafeBufferPointer {
          try [Element].writeArray($0, element, &writer)
        }
      },
      writeJSON: { value in try RawValue.load(value, as: Set<Element>.self).json },
      isEmpty: { RawValue.load($0, as: Set<Element>.self).isEmpty })
  }
}

// Collections share their elements' mapping; their own options are always empty.
extension Array: JSONMappable {}
extension Set: JSONMappable {}
extension Dictionary: JSONMappable {}

/// The codec of `[T]` for a scalar `T` read inline by `read`.
private func scalarArrayCodec<T: JSONDecodable>(
  _ read: @escaping (inout JSONReader) throws -> T
) -> DecodeCodec {
  DecodeCodec(
    [T].self,
    readBytes: { reader, destination in
      RawValue.initialize(destination, to: try readScalars(&reader, read))
    },
    readJSON: { json, destination in
      RawValue.initialize(destination, to: try [T](decode: json))
    },
    lossyReadBytes: [T].lossyReadBytes, lossyReadJSON: [T].lossyReadJSON)
}

/// The codec of `[T]` whose byte writer writes each element inline with `write`.
private func scalarArrayEncodeCodec<T: JSONEncodable>(
  _ write: @escaping (borrowing T, inout JSONWriter) throws -> Void
) -> EncodeCodec {
  EncodeCodec(
    [T].self,
    writeBytes: { value, writer in
      try RawValue.withBorrowed(value, as: [T].self) { try writeScalars($0, &writer, write) }
    },
    writeJSON: { value in try RawValue.load(value, as: [T].self).json },
    isEmpty: { RawValue.load($0, as: [T].self).isEmpty })
}

/// Writes `[ … ]` with each element written inline by `write` (a scalar, or an array of them).
/// The elements are read through the array's buffer: an inner array is passed on without a
/// copy (which would retain and release it).
@inline(__always)
private func writeScalars<T>(
  _ elements: borrowing [T], _ writer: inout JSONWriter,
  _ write: (borrowing T, inout JSONWriter) throws -> Void
) throws {
  try elements.withUnsafeBufferPointer { elements in
    try writer.beginArray()
    for position in elements.indices {
      writer.beginElement()
      do {
        try write(elements[position], &writer)
      } catch {
        throw JSON.Error.wrapping(error).prefixed(index: position)
      }
    }
    writer.endArray()
  }
}

/// Reads `[ … ]` with each element read inline by `read` (a scalar, or an array of them).
@inline(__always)
private func readScalars<T>(
  _ reader: inout JSONReader, _ read: (inout JSONReader) throws -> T
) throws -> [T] {
  let hasElements = try reader.openContainer(UInt8(ascii: "["), expected: typeName([T].self))
  defer { reader.leaveContainer() }
  var result: [T] = []
  guard hasElements else { return result }
  repeat {
    do {
      result.append(try read(&reader))
    } catch {
      throw JSON.Error.wrapping(error).prefixed(index: result.count)
    }
  } while try reader.nextElement()
  return result
}

/// The codec of `[[T]]` for a scalar `T`: both levels read inline.
private func scalarArrayArrayCodec<T: JSONDecodable>(
  _ read: @escaping (inout JSONReader) throws -> T
) -> DecodeCodec {
  DecodeCodec(
    [[T]].self,
    readBytes: { reader, destination in
      RawValue.initialize(
        destination, to: try readScalars(&reader) { try readScalars(&$0, read) })
    },
    readJSON: { json, destination in
      RawValue.initialize(destination, to: try [[T]](decode: json))
    },
    lossyReadBytes: [[T]].lossyReadBytes, lossyReadJSON: [[T]].lossyReadJSON)
}
