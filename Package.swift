// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "AutoMap",
  // What apps ship with today. APIs newer than these are used only where the system has them,
  // chosen in Sources/AutoMap/Platform; Scripts/availability-audit.py checks that in CI.
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  products: [
    .library(name: "AutoMap", targets: ["AutoMap"])
  ],
  targets: [
    // Locale-independent, correctly rounded `strtod` for the number parser.
    .target(name: "CAutoMapShims"),
    .target(name: "AutoMap", dependencies: ["CAutoMapShims"]),
    .executableTarget(name: "Playground", dependencies: ["AutoMap"], path: "Playground"),
    .executableTarget(name: "Benchmarks", dependencies: ["AutoMap"], path: "Benchmarks"),
    .testTarget(name: "AutoMapTests", dependencies: ["AutoMap"]),
  ],
  swiftLanguageModes: [.v6]
)
