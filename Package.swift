// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "seedgen",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .executable(name: "seedgen", targets: ["seedgen"]),
        // Prints the model of SwiftData sources for seedgen, which runs it: swift-syntax is built
        // for this helper alone (`make` builds it unoptimised; see the README's Design).
        .executable(name: "seedgen-swiftdata", targets: ["seedgen-swiftdata"]),
        .library(name: "SeedModel", targets: ["SeedModel"]),
        // The model's `contents` XML reader (libxml2): tools and Linux apps that read a model's
        // source; an app's other products pull no libxml2.
        .library(name: "SeedModelLoader", targets: ["SeedModelLoader"]),
        // The reader of SwiftData `@Model` sources (swift-syntax's parser): tools only, so an
        // app that links the runtime (or a release build of seedgen) never builds swift-syntax.
        .library(name: "SeedSwiftDataLoader", targets: ["SeedSwiftDataLoader"]),
        .library(name: "SeedStore", targets: ["SeedStore"]),
        .library(name: "SeedImport", targets: ["SeedImport"]),
        // What changes a store after it was built: migration, seed update, diff.
        .library(name: "SeedEvolution", targets: ["SeedEvolution"]),
        .library(name: "SeedRuntime", targets: ["SeedRuntime"]),
        // Builds a target's Seeds/<Name>/ folders into <Name>.sqlite resources on `swift build`.
        .plugin(name: "SeedgenPlugin", targets: ["SeedgenPlugin"]),
        // The same for SwiftData apps: seeds built from the app's @Model sources (builds
        // seedgen-swiftdata, and so swift-syntax, for the host; SeedgenPlugin does not).
        .plugin(name: "SeedgenSwiftDataPlugin", targets: ["SeedgenSwiftDataPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        // SwiftData models are read from the app's sources with Apple's own Swift parser.
        .package(url: "https://github.com/swiftlang/swift-syntax", "602.0.0"..<"604.0.0"),
        // Tests only: generators and seeds for the round-trip properties (Swift Testing).
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // `make docs` only: builds the DocC catalogs and checks their links.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // C system libraries, each behind a tiny module map and shim.h.
        .systemLibrary(
            name: "SeedgenLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        .systemLibrary(
            name: "SeedgenSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // SHA-256/SHA-512 on Linux (CryptoKit on Apple platforms): libcrypto, prebuilt by the
        // system, where swift-crypto compiled BoringSSL into every build.
        .systemLibrary(
            name: "SeedgenLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),

        // model <- store <- import <- CLI; store <- evolution <- CLI, runtime <- the seed apps.
        .target(
            name: "SeedModel",
            dependencies: [
                .target(name: "SeedgenLibCrypto", condition: .when(platforms: [.linux])),
            ]
        ),
        // Reads a model's `contents` XML (libxml2); apps on Apple platforms, which ship only the
        // compiled .momd, need none of it (the runtime names a model by its version hashes).
        .target(name: "SeedModelLoader", dependencies: ["SeedModel", "SeedgenLibXML2"]),
        // Reads the `@Model` classes of a SwiftData app's sources into the same DataModel.
        .target(
            name: "SeedSwiftDataLoader",
            dependencies: [
                "SeedModel",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ]
        ),
        .target(
            name: "SeedStore",
            dependencies: [
                "SeedModel",
                "SeedgenSQLite",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // The engines that change an existing store: migration to a model's next version, seed
        // update, the seed record's migration, and the diff that reviews them.
        .target(
            name: "SeedEvolution",
            dependencies: ["SeedModel", "SeedStore"]
        ),
        .target(
            name: "SeedImport",
            dependencies: ["SeedModel", "SeedStore", "SeedgenLibXML2", .product(name: "SystemPackage", package: "swift-system")]
        ),
        // `seedgen dump`: a store written back as source files the importer reads to the same store.
        .target(name: "SeedDump", dependencies: ["SeedModel", "SeedStore", "SeedImport"]),
        .target(
            name: "SeedRuntime",
            dependencies: ["SeedModel", "SeedStore", "SeedEvolution", .product(name: "SystemPackage", package: "swift-system")]
        ),
        .executableTarget(
            name: "seedgen",
            dependencies: [
                "SeedModel",
                "SeedModelLoader",
                "SeedStore",
                "SeedEvolution",
                "SeedImport",
                "SeedDump",
                "SeedRuntime",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        .executableTarget(name: "seedgen-swiftdata", dependencies: ["SeedModel", "SeedSwiftDataLoader"]),

        .plugin(name: "SeedgenPlugin", capability: .buildTool(), dependencies: ["seedgen"]),
        .plugin(name: "SeedgenSwiftDataPlugin", capability: .buildTool(), dependencies: ["seedgen", "seedgen-swiftdata"]),

        // The example seed apps (seeds 000, 001, 004) and what they share, under Examples/: not
        // products of the package (`swift run emplan` runs them from this checkout).
        .target(
            name: "SeedApps",
            dependencies: ["SeedModel", "SeedModelLoader", "SeedStore", "SeedRuntime", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Examples/SeedApps"
        ),
        .executableTarget(name: "laptimer", dependencies: ["SeedApps", "SeedStore", .product(name: "ArgumentParser", package: "swift-argument-parser")],
                          path: "Examples/laptimer"),
        .executableTarget(name: "locations", dependencies: ["SeedApps", "SeedStore", .product(name: "ArgumentParser", package: "swift-argument-parser")],
                          path: "Examples/locations"),
        .executableTarget(
            name: "emplan",
            dependencies: ["SeedApps", "SeedRuntime", "SeedStore", "SeedImport", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Examples/emplan"
        ),

        // `make bench`: the runtime's speed targets (not a product).
        .executableTarget(name: "seedgen-bench", dependencies: ["SeedRuntime", "SeedStore", "SeedModel", "SeedModelLoader", "SeedImport"]),

        // Finds the corpus and makes temporary directories; used by the tests only.
        .target(name: "SeedgenTestSupport", dependencies: ["SeedStore", "SeedModelLoader", "SeedgenSQLite"], path: "Tests/SeedgenTestSupport"),
        .testTarget(name: "SeedModelTests", dependencies: ["SeedModel", "SeedModelLoader", "SeedgenTestSupport"]),
        .testTarget(name: "SeedStoreTests", dependencies: ["SeedStore", "SeedModel", "SeedModelLoader", "SeedgenSQLite", "SeedgenTestSupport"]),
        // The engines that change a store, at their own level (the CLI tests run them through the binary).
        // The engines, on stores the seedgen tool builds as fixtures (so it is built first).
        .testTarget(name: "SeedEvolutionTests", dependencies: ["SeedEvolution", "SeedStore", "SeedModel", "SeedModelLoader", "seedgen", "SeedgenTestSupport"]),
        // The SwiftData sources' reader, against the real SwiftData stores when they are present.
        .testTarget(
            name: "SeedSwiftDataLoaderTests",
            dependencies: ["SeedSwiftDataLoader", "SeedStore", "SeedModel", "SeedEvolution", "seedgen", "seedgen-swiftdata", "SeedgenTestSupport"]
        ),
        .testTarget(name: "SeedImportTests", dependencies: ["SeedImport", "SeedModelLoader", "SeedgenTestSupport"]),
        // The round-trip properties, in a module of their own: PropertyBased makes Date
        // ExpressibleByStringLiteral, which would retype string literals in other tests.
        .testTarget(
            name: "SeedPropertyTests",
            dependencies: ["SeedImport", "SeedDump", "SeedEvolution", "SeedModelLoader", "SeedgenTestSupport", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "SeedRuntimeTests",
            dependencies: ["SeedRuntime", "SeedStore", "SeedModel", "SeedModelLoader", "SeedImport", "SeedgenTestSupport", "emplan", "locations", "laptimer",
                           .product(name: "SystemPackage", package: "swift-system")]
        ),
        .testTarget(name: "SeedgenCLITests", dependencies: ["seedgen", "SeedStore", "SeedEvolution", "SeedModel", "SeedgenTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
