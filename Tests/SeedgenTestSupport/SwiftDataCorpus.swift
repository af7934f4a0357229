import Foundation

/// Real SwiftData stores with the sources that wrote them, in `$SEEDGEN_SWIFTDATA_CORPUS` or
/// else `../shared/swiftdata` beside the package. Tests copy a store before opening it.
public enum SwiftDataCorpus {
    /// The corpus folder, or nil when there is none on this machine.
    public static let root = Corpus.sharedFolder("swiftdata", overriddenBy: "SEEDGEN_SWIFTDATA_CORPUS")

    /// True when the SwiftData corpus tests can run.
    public static var isAvailable: Bool { root != nil }

    /// Why they are skipped, for the test report.
    public static let skipMessage = "SwiftData corpus not found: set SEEDGEN_SWIFTDATA_CORPUS or put it at ../shared/swiftdata"

    /// One app's store (`store/default.store` with its `-wal` and `-shm`) and its sources (`src/`).
    public struct App: Sendable, CustomStringConvertible {
        /// The folder name.
        public let name: String
        /// The store's entities as `--schema` names them.
        public let schema: [String]

        /// The sources' folder.
        public var sources: URL { root!.appendingPathComponent("\(name)/src") }
        /// The store file and its companions (never open them in place).
        public var storeFiles: [URL] {
            ["default.store", "default.store-wal", "default.store-shm"].map { root!.appendingPathComponent("\(name)/store/\($0)") }
        }
        public var description: String { name }
    }

    /// ResourcesManager (framework 1345): plain attributes, inferred inverses.
    public static let resourcesManager = App(name: "resourcesmanager-4517a277", schema: ["Component", "CraftingRecipe", "Item"])
    /// MetaCocktails (framework 1403): composites, enums, `#Index`, `#Unique`, many-to-many.
    public static let metaCocktails = App(name: "metacocktails-3292fc79", schema: ["Cocktail", "CocktailImage", "Garnish", "Ingredient", "IngredientBase"])
    /// Both apps.
    public static let apps = [resourcesManager, metaCocktails]
}
