import Foundation

extension DecodePlan {
  /// Reads the model from the bytes at the reader's cursor into `destination`.
  ///
  /// `watching`: a polymorphic object's discriminator key, which chose this plan by its first
  /// occurrence; a second occurrence (which the `JSON` path would take instead) is thrown as
  /// ``repeatedKey``, so that the document is decoded through `JSON`.
  func readBytes(
    _ reader: inout JSONReader, _ destination: UnsafeMutableRawPointer,
    watching discriminator: DiscriminatorKey? = nil
  ) throws {
    guard streams else {
      return try readUnstreamed(&reader, destination, watching: discriminator)
    }
    let hasMembers = try reader.openContainer(UInt8(ascii: "{"), expected: modelName)
    defer { reader.leaveContainer() }
    var progress = newProgress()
    let base = begin(destination)
    var discriminators = 0
    do {
      var found = FieldSet(count: fields.count)
      if hasMembers {
        var hint = 0
        repeat {
          reader.skipWhitespace()
          var matched: Int?
          if hint < steps.count, case let step = steps[hint], step.keyIsVerbatim,
            reader.consumeKey(step.key, count: step.keyCount)
          {
            // The usual case: the key the plan expects next, recognized without scanning.
            matched = hint
            try reader.expect(UInt8(ascii: ":"), "':' after object key")
          } else {
            let span = try reader.scanKeyString()
            try reader.expect(UInt8(ascii: ":"), "':' after object key")
            matched = try match(span, &reader, hint: hint)
            if matched == nil {
              try reader.validateUTF8(span)
              if let discriminator, discriminator.matches(span, &reader) {
                discriminators += 1
                if discriminators > 1 { throw Self.repeatedKey }
              }
            }
          }
          if let position = matched {
            // A repeated key (however spelled or cased) means: as if only its last
            // occurrence were there. The fast path cannot undo what an earlier one wrote
            // (a later `null` must restore the declared default), so the reference decides.
            if found.contains(position) { throw Self.repeatedKey }
            hint = position + 1
            found.insert(position)
            try readField(position, &reader, base, &progress)
          } else {
            try reader.skipValue()
          }
        } while try reader.nextMember()
      }
      for position in fields.indices where !found.contains(position) {
        try resolveAbsent(position, base, &progress, found: Self.absent)
      }
      try validate(destination)
    } catch {
      abandon(destination, progress)
      throw error
    }
  }

  /// Reads a model that does not stream: by routes or as `JSON`. Not inlined, as no part of a
  /// model's read that is not its fields' is: ``readBytes(_:_:watching:)``'s frame is on the
  /// stack once per level of nesting.
  @inline(never)
  private func readUnstreamed(
    _ reader: inout JSONReader, _ destination: UnsafeMutableRawPointer,
    watching discriminator: DiscriminatorKey?
  ) throws {
    // Read by routes or as `JSON`, which do not watch for the discriminator: checked first.
    if let discriminator, try discriminator.isRepeated(in: &reader) { throw Self.repeatedKey }
    if let routes = unmanagedRoutes {
      return try withRoutes(routes, reader.keyStyle) { try readRouted($0, &reader, destination) }
    }
    let json = try reader.parseValue()
    // The model's own level, then its fields, count on from the reader's depth.
    return try Nesting.within(readerLevels: reader.depth + 1) { try readJSON(json, destination) }
  }

  /// Thrown on the fast path for a repeated key: not recoverable, so no fallback or lossy
  /// read swallows it, and caught where every byte decode starts, which then decodes the
  /// document through `JSON` values (see ``ModelDecoding``). Never reaches a caller.
  static let repeatedKey = JSON.Error(
    .invalidModel,
    "a repeated key is decoded through JSON values (internal; never thrown to callers)")

  /// The field whose key is `span`, trying the one after the last match first: keys
  /// usually arrive in declaration order.
  @inline(__always)
  private func match(_ span: StringSpan, _ reader: inout JSONReader, hint: Int) throws -> Int? {
    if span.hasEscapes {
      return reader.withUnescaped(span) { position(of: $0, hint: hint) }
    }
    return position(of: span.buffer, hint: hint)
  }

  @inline(__always)
  private func position(of bytes: UnsafeBufferPointer<UInt8>, hint: Int) -> Int? {
    if hint < table.count, keyEquals(hint, bytes) { return hint }
    for position in 0..<table.count where position != hint && keyEquals(position, bytes) {
      return position
    }
    return nil
  }

  @inline(__always)
  private func keyEquals(_ position: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let step = steps[position]
    guard step.keyCount == bytes.count else { return false }
    guard let base = bytes.baseAddress, bytes.count > 0 else { return true }
    let key = step.key
    if sameBytes(key, base, bytes.count) { return true }
    guard caseInsensitive else { return false }
    for offset in 0..<bytes.count
    where KeyMatching.foldASCII(key[offset]) != KeyMatching.foldASCII(base[offset]) {
      return false
    }
    return true
  }

  /// Reads one present field's value from the bytes.
  @inline(__always)
  func readField(
    _ position: Int, _ reader: inout JSONReader, _ base: UnsafeMutableRawPointer,
    _ progress: inout DecodeProgress
  ) throws {
    let step = steps[position]
    if let leaf = step.inlineLeaf {
      // Fast path: the common scalars, read inline.
      if !leaf.isOptional, try reader.consumeNull() {
        return try resolveAbsent(position, base, &progress, found: .null)
      }
      let target = base + step.offset
      let initialize = progress.memberwise && !progress.initialized.contains(position)
      do {
        try reader.readLeaf(leaf, into: target, initialize: initialize)
      } catch {
        throw JSON.Error.wrapping(error).prefixed(table[position].index)
      }
      progress.initialized.insert(position)
      return
    }
    if step.readsDirectly {
      // Nested models, collections, enums: straight through the codec.
      if !step.isOptional, try reader.consumeNull() {
        return try resolveAbsent(position, base, &progress, found: .null)
      }
      do {
        return try write(position, base, &progress) { try step.read(&reader, into: $0) }
      } catch {
        throw JSON.Error.wrapping(error).prefixed(table[position].index)
      }
    }
    try readOther(position, &reader, base, &progress)
  }

  /// Reads a field through `JSON`, a transform, or its codec with what may stand in for a
  /// value that does not map. Not inlined (see ``readUnstreamed(_:_:watching:)``).
  @inline(never)
  private func readOther(
    _ position: Int, _ reader: inout JSONReader, _ base: UnsafeMutableRawPointer,
    _ progress: inout DecodeProgress
  ) throws {
    let field = table[position]
    if field.readsThroughJSON {
      let json = try reader.parseValue()
      // JSON inside a string counts on from here, not from 0.
      return try Nesting.within(readerLevels: reader.depth) {
        try decodeField(position, from: json, base, &progress)
      }
    }
    if !field.isOptional, try reader.consumeNull() {
      return try resolveAbsent(position, base, &progress, found: .null)
    }
    let read =
      field.options.lossy
      ? field.codec.lossyReadBytes ?? field.codec.readBytes : field.codec.readBytes
    // Something may stand in for a value that does not map: the fallback, or nil for a lossy
    // optional.
    let mayStandIn = field.fallback != nil || (field.options.lossy && field.codec.storeNil != nil)
    let start = reader.cursor
    let depth = reader.depth
    do {
      return try write(position, base, &progress) { try read(&reader, $0) }
    } catch {
      let error = JSON.Error.wrapping(error)
      guard mayStandIn, error.isRecoverable else { throw error.prefixed(field.index) }
    }
    // The value does not map on the byte path: the `JSON` path decides whether something
    // stands in (a key repeated later in the value may make it map there after all).
    reader.cursor = start
    reader.depth = depth
    let json = try reader.parseValue()
    try Nesting.within(readerLevels: depth) {
      try decodeField(position, from: json, base, &progress)
    }
  }
}
