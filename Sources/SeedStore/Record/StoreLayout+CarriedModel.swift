import SeedModel

extension StoreLayout {
    /// The layout of the model a seed carries, in the seed's framework era: every seed seedgen
    /// builds carries the model it was built with (`SEEDGEN_MODEL`), so an app that ships only
    /// the seed — one built with the plugin — opens the store it installs from it with no model
    /// source of its own.
    ///
    /// ```swift
    /// let seed = Bundle.module.url(forResource: "Shelf", withExtension: "sqlite")!.path
    /// let layout = try StoreLayout(modelCarriedBy: seed)
    /// try SeedInstaller(seedPath: seed, storePath: store, layout: layout).install()
    /// ```
    public init(modelCarriedBy path: String) throws(StoreOpenError) {
        switch FileSystem.kind(of: path) {
        case .missing: throw StoreOpenError(.missingFile, "\(path): no such seed file")
        case .directory, .other: throw StoreOpenError(.notAStoreFile, "\(path): not a seed file")
        case .regular: break
        }
        let model: DataModel?
        let version: Int?
        do {
            let file = try StoreFile(path: path)
            model = try SeedRecord.model(in: file.database, path: path)
            version = file.frameworkVersion()
        } catch {
            throw StoreOpenError(.badMetadata, "\(path): its model cannot be read: \(error)")
        }
        guard let model else {
            throw StoreOpenError(.noModel, "\(path): carries no model (\(SeedRecord.modelTable)); seeds seedgen builds carry theirs")
        }
        do {
            self = try StoreLayout(model: model, era: version.map(FrameworkEra.init(version:)) ?? .newest)
        } catch {
            throw StoreOpenError(.badMetadata, "\(path): the model it carries has no store layout: \(error)")
        }
    }
}
