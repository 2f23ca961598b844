/// Where a call's ``JSON/Configuration`` lives while the call runs: a task-local value, so
/// concurrent calls with different configurations never see each other's.
///
/// No cost to calls that set none: the codecs that consult it (dates, data, and floating
/// point only once a read or write has already failed) first load one flag, which stays
/// `false` until some call in the process sets a configuration. The per-value loops of the
/// decode and encode plans never consult it; a call's key style reaches them as it always
/// has, through ``KeyStyleContext`` and the plan for that style.
enum ConfigurationContext {
  /// One binding of a configuration: an object, so that code which must know whether it
  /// still runs under the same binding can keep it and compare (a stream's elements decoded
  /// ahead, ``StreamDecoder``).
  final class Binding: Sendable {
    let configuration: JSON.Configuration
    init(_ configuration: JSON.Configuration) { self.configuration = configuration }
  }

  @TaskLocal fileprivate static var bound: Binding?

  /// Set once the first configuration is bound; never cleared.
  private static var inUse: ProcessFlag { .configuration }

  /// The configuration of the current call, if any.
  @inline(__always)
  static var current: JSON.Configuration? { binding?.configuration }

  /// The binding of the current call's configuration, if any.
  @inline(__always)
  static var binding: Binding? {
    guard inUse.isSet else { return nil }
    return bound
  }

  /// Runs `body` with `configuration` (merged over the enclosing one) as the current
  /// configuration, its key style as the call's key style. `replacingHandler`: the
  /// configuration's substitution handler alone receives what `body` substitutes, the
  /// enclosing ones do not (they get what a trial that succeeds passes on).
  static func with<R>(
    _ configuration: JSON.Configuration, replacingHandler: Bool = false,
    _ body: () throws -> R
  ) rethrows -> R {
    if !inUse.isSet { inUse.set() }
    Reporting.noteInUse(configuration)
    let own = configuration.handledOutside()
    var merged = own.merged(over: current)
    if replacingHandler { merged.onSubstitution = own.onSubstitution }
    return try $bound.withValue(Binding(merged)) {
      try KeyStyleContext.with(configuration.keyStyle, body)
    }
  }

  /// ``with(_:_:)`` for asynchronous work.
  static func with<R>(
    _ configuration: JSON.Configuration, isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> R
  ) async rethrows -> R {
    if !inUse.isSet { inUse.set() }
    Reporting.noteInUse(configuration)
    let merged = configuration.handledOutside().merged(over: current)
    return try await $bound.withValue(Binding(merged)) {
      try await KeyStyleContext.with(configuration.keyStyle) { try await body() }
    }
  }
}

extension JSON.Configuration {
  /// The configuration with its own substitution handler (not one it inherits, which was
  /// wrapped where it was set) called as the code that opens the scope runs: its own AutoMap
  /// calls see what was set around the scope, never this handler, so it cannot call itself.
  fileprivate func handledOutside() -> Self {
    guard let handler = onSubstitution else { return self }
    let outside = Surroundings()
    var configuration = self
    configuration.onSubstitution = { substitution in outside.restore { handler(substitution) } }
    return configuration
  }
}

/// What an AutoMap call sets up for the calls inside it, taken where a scope opens and put
/// back around user code that must not run inside the scope (a substitution handler): the
/// configuration, key style, substitution path, untagged-enum session and depth of strings
/// holding JSON. (The thread's nesting count, ``Nesting``, goes on: the stack does too.)
private struct Surroundings: Sendable {
  let configuration = ConfigurationContext.bound
  let keyStyle = KeyStyleContext.override
  let location = Substitutions.location
  let untagged = UntaggedSession.current
  let embeddedDepth = EmbeddedJSONTransform.depth

  func restore<R>(_ body: () throws -> R) rethrows -> R {
    try ConfigurationContext.$bound.withValue(configuration) {
      try KeyStyleContext.restoring(keyStyle) {
        try Substitutions.$location.withValue(location) {
          try UntaggedSession.$current.withValue(untagged) {
            try EmbeddedJSONTransform.$depth.withValue(embeddedDepth, operation: body)
          }
        }
      }
    }
  }
}

extension JSON {
  /// Runs `body` with `configuration` applied to every AutoMap call in it, on this task:
  /// decoding and encoding entry points, hand-written `init(decode:)` and `json`
  /// implementations, and `Codable` types mapped through AutoMap.
  ///
  /// ```swift
  /// let legacy = JSON.Configuration(dateTransform: .secondsSince1970)
  /// let (user, orders) = try JSON.withConfiguration(legacy) {
  ///   (try User(jsonData: userData), try [Order](jsonData: orderData))
  /// }
  /// ```
  ///
  /// Settings the configuration leaves `nil` keep those of an enclosing call or scope.
  public static func withConfiguration<R>(
    _ configuration: Configuration, _ body: () throws -> R
  ) rethrows -> R {
    try ConfigurationContext.with(configuration, body)
  }

  /// ``withConfiguration(_:_:)`` for asynchronous work: child tasks inherit the
  /// configuration, other tasks do not see it.
  ///
  /// ```swift
  /// let feed = try await JSON.withConfiguration(.init(dateTransform: .secondsSince1970)) {
  ///   try Feed(jsonData: await download(url))
  /// }
  /// ```
  public static func withConfiguration<R>(
    _ configuration: Configuration, isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> R
  ) async rethrows -> R {
    try await ConfigurationContext.with(configuration, isolation: isolation, body)
  }
}
