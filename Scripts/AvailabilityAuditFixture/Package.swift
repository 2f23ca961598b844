// swift-tools-version: 6.0
// A package for `Scripts/availability-audit.py --self-test`: uses of APIs newer than its
// minimums, each guarded or not. The lines the audit must report end in `// audit: flagged`.
import PackageDescription

let package = Package(
  name: "AvailabilityAuditFixture",
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
  targets: [.target(name: "Fixture")],
  swiftLanguageModes: [.v6]
)
