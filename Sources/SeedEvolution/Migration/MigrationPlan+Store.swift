import SeedModel
import SeedStore

extension MigrationPlan {
    /// The version of `versions` whose entity hashes are `hashes`, those of the store at `path`.
    static func sourceVersion(hashes: [String: [UInt8]], ofStoreAt path: String, in versions: ModelVersions) throws(MigrationError) -> ModelVersions.Version {
        if let found = versions.versions(matching: hashes).last {
            // Core Data's inferred mapping must not take a step the app migrates with its own code.
            if let stage = versions.customStage(from: found.name) {
                let span = [stage.from, stage.to].compactMap { $0 }.joined(separator: " to ")
                throw MigrationError(.customStage(place: stage.place), "\(path): the migration from \(found.name) to \(versions.current.name) crosses the app's custom stage\(span.isEmpty ? "" : " " + span) (\(stage.place)): its code runs only in the app, so the app migrates this store (SwiftData, on the device); seedgen migrates lightweight steps only")
            }
            return found
        }
        if !versions.unreadable.isEmpty {
            let unreadable = versions.unreadable.map { "\($0.name): \($0.reason)" }.joined(separator: "; ")
            throw MigrationError(.unknownVersion(entities: []), "\(path): the store's version is none of the versions read, and these could not be read: \(unreadable)")
        }
        // Name what matches nothing: entities whose stored hash no version gives that entity.
        let known = versions.versions.map { ModelIdentity(model: $0.model).entityVersionHashes }
        let unmatched = hashes.keys.sorted(by: DataModel.namePrecedes).filter { name in !known.contains { $0[name] == hashes[name] } }
        let names = versions.versions.map(\.name).joined(separator: ", ")
        let detail = unmatched.isEmpty
            ? "every entity's hash is some version's, but no one version has them all (entities added or removed)"
            : "the hashes of \(unmatched.joined(separator: ", ")) match no version"
        throw MigrationError(.unknownVersion(entities: unmatched), "\(path): the store was made for a model version the bundle does not hold (\(names)): \(detail)")
    }

    /// What the store open on `database` (at `path`), made for `source`, decides of this plan:
    /// the refusals its rows add to the plan's (its removals are counted later:
    /// `StoreAssessment.counting`).
    func assessment(of database: Database, path: String, source: ModelVersions.Version) throws(MigrationError) -> StoreAssessment {
        var refusals = self.refusals
        guard !requirements.isEmpty else { return StoreAssessment(refusals: refusals, warnings: warnings) }
        do {
            let layout = try StoreLayout(model: source.model)
            for requirement in requirements {
                guard let entity = layout.entity(named: requirement.sourceEntity) else { continue }
                let rows = "FROM \(Database.quote(entity.table)) WHERE Z_ENT IN (\(entity.subtreeList))"
                switch requirement.condition {
                case .noRows:
                    if try database.scalar("SELECT EXISTS (SELECT 1 \(rows))")?.integer == 1 { refusals.append(requirement.refusal) }
                case .noNulls(let property):
                    // A to-many made a required to-one: every row must hold a link.
                    let unset: String
                    if let column = layout.column(for: property, of: entity.name) {
                        unset = "\(Database.quote(column)) IS NULL"
                    } else if let links = SourceLinks(of: property, of: entity.name, in: layout) {
                        unset = "NOT EXISTS (SELECT 1 \(links.rows) AND l.\(Database.quote(links.holder)) = \(Database.quote(entity.table)).Z_PK)"
                    } else {
                        continue
                    }
                    if try database.scalar("SELECT EXISTS (SELECT 1 \(rows) AND \(unset))")?.integer == 1 {
                        refusals.append(requirement.refusal)
                    }
                case .noValues(let properties):
                    let columns = properties.compactMap { layout.column(for: $0, of: entity.name) }.map { "\(Database.quote($0)) IS NOT NULL" }
                    guard !columns.isEmpty else { continue }
                    if try database.scalar("SELECT EXISTS (SELECT 1 \(rows) AND (\(columns.joined(separator: " OR "))))")?.integer == 1 {
                        refusals.append(requirement.refusal)
                    }
                case .distinct(let properties):
                    let columns = properties.compactMap { layout.column(for: $0, of: entity.name) }.map { Database.quote($0) }
                    guard columns.count == properties.count else { continue }
                    let sql = columns.isEmpty
                        ? "SELECT COUNT(*) \(rows) HAVING COUNT(*) > 1"
                        : "SELECT COUNT(*), \(columns.joined(separator: ", ")) \(rows) AND \(columns.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")) "
                            + "GROUP BY \(columns.joined(separator: ", ")) HAVING COUNT(*) > 1 LIMIT 1"
                    if let clash = try database.rows(sql).first {
                        var refusal = requirement.refusal
                        let values = zip(properties, clash.dropFirst()).map { "\($0) \($1.excerpt)" }
                        refusal.message += " \(values.isEmpty ? "it" : values.joined(separator: ", ")) (\(clash[0].integer ?? 0) rows)"
                        refusals.append(refusal)
                    }
                }
            }
        } catch {
            throw MigrationError(reading: error, "\(path): \(error)")
        }
        return StoreAssessment(refusals: refusals, warnings: warnings)
    }
}
