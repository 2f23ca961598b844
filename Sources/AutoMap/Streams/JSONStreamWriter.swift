import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Writes values one at a time, as JSON Lines or as one JSON array, to a file or a
/// `FileHandle`: each value is encoded as `jsonData(options:)` encodes it, gathered in a
/// buffer, and written out whenever the buffer holds ``bufferSize`` bytes, so memory stays
/// bounded by the buffer and the largest value, however many values are written.
///
/// ```swift
/// let writer = try JSONStreamWriter(toFile: "users.jsonl", format: .lines)
/// for try await user in JSONStream(of: User.self, contentsOf: source) {
///   try writer.write(user)                       // one line each
/// }
/// try writer.finish()                            // flushes; closes the file it opened
///
/// let array = try JSONStreamWriter(fileHandle: .standardOutput, format: .array)
/// try array.write(contentsOf: users)             // [{…},{…}]
/// try array.finish()                             // writes the closing `]`
/// ```
///
/// Call ``finish()``: it closes the array and reports a failed write. A writer that is
/// released unfinished finishes as well as it can, but cannot report an error.
///
/// JSON Lines are always compact (`.prettyPrinted` is ignored: a value must stay on its
/// line); an array is pretty-printed as `[T].jsonData(options: [.prettyPrinted])` would be.
/// `.sortedKeys` and `.omitNulls` apply to both.
public final class JSONStreamWriter {
  /// Bytes gathered before they are written out (`bufferSize:` of the initializers).
  public let bufferSize: Int
  /// Values written so far.
  ///
  /// ```swift
  /// try writer.finish()
  /// print("\(writer.count) users exported")
  /// ```
  public private(set) var count = 0

  private let format: JSON.StreamFormat
  private let options: JSON.WritingOptions
  private let keyStyle: JSON.KeyStyle?
  private let handle: FileHandle
  private let closesHandle: Bool
  private var buffer: [UInt8] = []
  private var isFinished = false

  /// A writer to `handle`, which it leaves open.
  ///
  /// ```swift
  /// let writer = JSONStreamWriter(fileHandle: .standardOutput, format: .lines)
  /// ```
  ///
  /// - Parameters:
  ///   - handle: Where the bytes go: a file, a pipe, standard output.
  ///   - format: `.lines` (the default) or `.array`.
  ///   - options: As for `jsonData(options:)`.
  ///   - keyStyle: A key style for every value, overriding the models' own.
  ///   - bufferSize: Bytes gathered before a write (1 MiB).
  public convenience init(
    fileHandle handle: FileHandle, format: JSON.StreamFormat = .lines,
    options: JSON.WritingOptions = [], keyStyle: JSON.KeyStyle? = nil, bufferSize: Int = 1 << 20
  ) {
    self.init(
      fileHandle: handle, format: format, options: options, keyStyle: keyStyle,
      bufferSize: bufferSize, closesHandle: false)
  }

  /// A writer to a new file at `path` (an existing one is replaced), closed by ``finish()``.
  ///
  /// ```swift
  /// let writer = try JSONStreamWriter(toFile: "/tmp/users.json", format: .array)
  /// ```
  ///
  /// - Throws: ``JSON/Error`` when the file cannot be created.
  public convenience init(
    toFile path: String, format: JSON.StreamFormat = .lines, options: JSON.WritingOptions = [],
    keyStyle: JSON.KeyStyle? = nil, bufferSize: Int = 1 << 20
  ) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      let code = errno
      throw JSON.Error(
        .custom, "cannot create \(path): \(String(cString: strerror(code)))",
        underlying: POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO))
    }
    self.init(
      fileHandle: FileHandle(fileDescriptor: descriptor, closeOnDealloc: false), format: format,
      options: options, keyStyle: keyStyle, bufferSize: bufferSize, closesHandle: true)
  }

  /// A writer to a new file at `url`, closed by ``finish()``.
  ///
  /// ```swift
  /// let writer = try JSONStreamWriter(to: exportURL, format: .lines)
  /// ```
  public convenience init(
    to url: URL, format: JSON.StreamFormat = .lines, options: JSON.WritingOptions = [],
    keyStyle: JSON.KeyStyle? = nil, bufferSize: Int = 1 << 20
  ) throws {
    try self.init(
      toFile: url.path, format: format, options: options, keyStyle: keyStyle,
      bufferSize: bufferSize)
  }

  private init(
    fileHandle handle: FileHandle, format: JSON.StreamFormat, options: JSON.WritingOptions,
    keyStyle: JSON.KeyStyle?, bufferSize: Int, closesHandle: Bool
  ) {
    self.handle = handle
    self.closesHandle = closesHandle
    self.format = format
    self.options = format == .lines ? options.subtracting(.prettyPrinted) : options
    self.keyStyle = keyStyle
    self.bufferSize = max(bufferSize, 1)
    buffer.reserveCapacity(min(self.bufferSize, 1 << 20) + 4096)
    if format == .array { buffer.append(UInt8(ascii: "[")) }
  }

  deinit {
    try? finish()
  }

  /// Writes one value: a line, or the array's next element. A value that cannot be encoded
  /// throws and writes nothing.
  ///
  /// ```swift
  /// try writer.write(user)
  /// ```
  public func write<T: JSONEncodable>(_ value: T) throws {
    guard !isFinished else { throw Self.finished }
    let bytes = try KeyStyleContext.with(keyStyle) {
      try ModelEncoding.encodeBytes(value, options: options)
    }
    // The value's own code (an `encode(to:)`, a transform) may have finished this writer.
    guard !isFinished else { throw Self.finished }
    switch format {
    case .lines:
      buffer.append(contentsOf: bytes)
      buffer.append(0x0A)
    case .array:
      if count > 0 { buffer.append(UInt8(ascii: ",")) }
      guard options.contains(.prettyPrinted) else {
        buffer.append(contentsOf: bytes)
        break
      }
      // One level in: every line of the value is indented two more spaces (a line feed in
      // the text is always a line break: strings write theirs as `\n`).
      buffer.append(contentsOf: [0x0A, 0x20, 0x20])
      for byte in bytes {
        buffer.append(byte)
        if byte == 0x0A { buffer.append(contentsOf: [0x20, 0x20]) }
      }
    }
    count += 1
    if buffer.count >= bufferSize { try flush() }
  }

  private static var finished: JSON.Error {
    JSON.Error(.unencodable, "write(_:) after finish(): the stream is closed")
  }

  /// Writes each value of `values` in turn.
  ///
  /// ```swift
  /// try writer.write(contentsOf: users.lazy.filter(\.isActive))
  /// ```
  public func write<Values: Sequence>(contentsOf values: Values) throws
  where Values.Element: JSONEncodable {
    for value in values { try write(value) }
  }

  /// Writes out what the buffer holds.
  ///
  /// ```swift
  /// try writer.write(event)
  /// try writer.flush()            // a reader tailing the file sees it now
  /// ```
  public func flush() throws {
    guard !buffer.isEmpty else { return }
    do {
      try buffer.withUnsafeBytes { try handle.write(contentsOf: $0) }
    } catch {
      throw JSON.Error.wrapping(error)
    }
    buffer.removeAll(keepingCapacity: true)
  }

  /// Closes the array (`.array`), writes out the buffer, and closes the file the writer
  /// opened. Later calls do nothing.
  ///
  /// ```swift
  /// try writer.finish()
  /// ```
  public func finish() throws {
    guard !isFinished else { return }
    isFinished = true
    if format == .array {
      if options.contains(.prettyPrinted), count > 0 { buffer.append(0x0A) }
      buffer.append(UInt8(ascii: "]"))
    }
    defer {
      if closesHandle { try? handle.close() }
    }
    try flush()
  }
}
