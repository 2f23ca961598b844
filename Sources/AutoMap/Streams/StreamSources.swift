import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Where a synchronous stream's bytes come from. Each iterator has its own source.
protocol StreamSource: AnyObject {
  /// Reads up to `buffer.count` bytes into `buffer`, returning how many; `0` at the end.
  func read(into buffer: UnsafeMutableRawBufferPointer) throws(JSON.Error) -> Int
}

/// Where an asynchronous stream's bytes come from.
protocol AsyncStreamSource: AnyObject {
  /// Reads bytes into `buffer` as they become available, returning how many; `0` at the
  /// end. Runs in the caller's isolation.
  func read(into buffer: UnsafeMutableRawBufferPointer, isolation: isolated (any Actor)?)
    async throws -> Int
}

/// A file, read with `read(2)` a buffer at a time. Opened when the iterator is made; an
/// error opening it is thrown by the first read.
final class FileSource: StreamSource, AsyncStreamSource {
  private let path: String
  private var descriptor: Int32 = -1
  private var failure: JSON.Error?

  init(path: String) {
    self.path = path
    descriptor = open(path, O_RDONLY | O_CLOEXEC)
    if descriptor < 0 { failure = Self.error("cannot open", path) }
  }

  convenience init(url: URL) {
    self.init(path: url.isFileURL ? url.path : "")
    if !url.isFileURL {
      failure = JSON.Error(
        .custom, "\(url) is not a file URL: pass the bytes of other URLs as an AsyncSequence")
    }
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) throws(JSON.Error) -> Int {
    if let failure { throw failure }
    while true {
      #if canImport(Darwin)
        let count = Darwin.read(descriptor, buffer.baseAddress, buffer.count)
      #elseif canImport(Glibc)
        let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
      #elseif canImport(Musl)
        let count = Musl.read(descriptor, buffer.baseAddress, buffer.count)
      #endif
      if count >= 0 { return count }
      if errno != EINTR { throw Self.error("cannot read", path) }
    }
  }

  func read(into buffer: UnsafeMutableRawBufferPointer, isolation: isolated (any Actor)?)
    async throws -> Int
  {
    try read(into: buffer)
  }

  private static func error(_ what: String, _ path: String) -> JSON.Error {
    let code = errno
    return JSON.Error(
      .custom, "\(what) \(path): \(String(cString: strerror(code)))",
      underlying: POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO))
  }
}

/// Bytes in memory, copied out a buffer at a time.
final class DataSource: StreamSource, AsyncStreamSource {
  private let data: Data
  private var offset: Int

  init(_ data: Data) {
    self.data = data
    offset = data.startIndex
  }

  func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
    let count = min(buffer.count, data.endIndex - offset)
    guard count > 0 else { return 0 }
    data.copyBytes(to: buffer, from: offset..<offset + count)
    offset += count
    return count
  }

  func read(into buffer: UnsafeMutableRawBufferPointer, isolation: isolated (any Actor)?)
    async -> Int
  {
    read(into: buffer)
  }
}

/// An `AsyncSequence` of bytes. A read returns early after a byte that can end an element
/// (a line feed, `}`, `]`, `,`), so that values arriving slowly (a live feed) are handed on
/// as soon as they are complete rather than when a buffer is full.
final class AsyncBytesSource<Bytes: AsyncSequence>: AsyncStreamSource
where Bytes.Element == UInt8 {
  private var iterator: Bytes.AsyncIterator
  private var ended = false

  init(_ bytes: Bytes) { iterator = bytes.makeAsyncIterator() }

  func read(into buffer: UnsafeMutableRawBufferPointer, isolation: isolated (any Actor)?)
    async throws -> Int
  {
    var count = 0
    while count < buffer.count, !ended {
      guard let byte = try await iterator.nextElement(isolation: isolation) else {
        ended = true
        break
      }
      buffer[count] = byte
      count += 1
      switch byte {
      case 0x0A, UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ","): return count
      default: continue
      }
    }
    return count
  }
}

/// An `AsyncSequence` of chunks of bytes (`Data`, `[UInt8]`): each read hands on what one
/// chunk has (or what fits), without waiting for the next.
final class AsyncChunksSource<Chunks: AsyncSequence>: AsyncStreamSource
where Chunks.Element: Sequence, Chunks.Element.Element == UInt8 {
  private var iterator: Chunks.AsyncIterator
  private var pending: [UInt8] = []
  private var offset = 0
  private var ended = false

  init(_ chunks: Chunks) { iterator = chunks.makeAsyncIterator() }

  func read(into buffer: UnsafeMutableRawBufferPointer, isolation: isolated (any Actor)?)
    async throws -> Int
  {
    while offset == pending.count {
      guard !ended, let chunk = try await iterator.nextElement(isolation: isolation) else {
        ended = true
        return 0
      }
      pending = Array(chunk)
      offset = 0
    }
    let count = min(buffer.count, pending.count - offset)
    pending.withUnsafeBytes { bytes in
      buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]))
    }
    offset += count
    return count
  }
}
