import SeedModel

/// Reads a `SchemaMigrationPlan` into model versions: each of its `schemas` (one that does not
/// read is listed as unreadable, never blocking the others) and its custom stages, wherever
/// they are made (in the list, a static property, a function or an extension returning a
/// `MigrationStage`).
struct MigrationPlanReader {
    let assembler: SchemaAssembler
    private var namespace: TypeNamespace { assembler.namespace }

    /// The plan the model's versions come from: the one listing `version` when one is named
    /// (none if no plan lists it), else the only plan; several plans are refused.
    func plan(for version: VersionedSchemaDeclaration?, among plans: [MigrationPlanDeclaration], path: String) throws(ModelError) -> MigrationPlanDeclaration? {
        if let version {
            let target = name(of: version)
            return plans.first { plan in
                plan.failure == nil && plan.schemas.contains { versionName($0.0, plan: plan) == target }
            }
        }
        if plans.count > 1 {
            let places = plans.map { "\($0.name) at \($0.place)" }.joined(separator: ", ")
            throw plans[1].place.error("several SchemaMigrationPlans (\(places)): which one the app uses is not known; name its current VersionedSchema with --schema")
        }
        return plans.first
    }

    /// The scope a plan's names are looked up from: inside it.
    func scope(of plan: MigrationPlanDeclaration) -> [String] {
        namespace.path(of: plan)
    }

    /// A version's name: its type's qualified name (`SchemaV2`, `App.SchemaV2`).
    func name(of version: VersionedSchemaDeclaration) -> String {
        namespace.path(of: version).joined(separator: ".")
    }

    /// The plan's versions in order, `current` among them (or after them, when the classes the
    /// app names hash like none of them), and its custom stages.
    func versions(of plan: MigrationPlanDeclaration, current: ModelVersions.Version) -> ModelVersions {
        var versions: [ModelVersions.Version] = []
        var unreadable: [ModelVersions.UnreadableVersion] = []
        for (type, place) in plan.schemas {
            do throws(ModelError) {
                guard let version = try assembler.versionedSchema(type, from: scope(of: plan), place: place) else {
                    throw place.error("\(plan.name).schemas names \(type), which is no VersionedSchema of the sources")
                }
                let versionName = name(of: version)
                versions.append(versionName == current.name ? current : .init(name: versionName, model: try assembler.model(of: version)))
            } catch {
                unreadable.append(.init(name: "\(type)", reason: error.description))
            }
        }
        var found = current
        if !versions.contains(where: { $0.name == current.name }) {
            let hashes = ModelIdentity(model: current.model).entityVersionHashes
            if let same = versions.last(where: { ModelIdentity(model: $0.model).entityVersionHashes == hashes }) {
                found = same
            } else {
                versions.append(current)
            }
        }
        var result = ModelVersions(versions: versions, current: found)
        result.unreadable = unreadable
        result.customStages = customStages(of: plan)
        return result
    }

    /// The plan's stages that run the app's code, or whose kind is not known here.
    private func customStages(of plan: MigrationPlanDeclaration) -> [ModelVersions.CustomStage] {
        var found: [ModelVersions.CustomStage] = []
        for entry in plan.stages {
            let stages: [StageDeclaration]
            switch entry {
            case .direct(let stage):
                stages = [stage]
            case .named(let name, let place):
                guard let made = namespace.declarations.stageMakers[name], !made.isEmpty else {
                    found.append(.init(from: nil, to: nil, place: "\(place) (\(name): no stage of it is found in the sources)"))
                    continue
                }
                stages = made
            case .unknown(let text, let place):
                found.append(.init(from: nil, to: nil, place: "\(place) (\(text): not known to be a lightweight stage)"))
                continue
            }
            for stage in stages where stage.kind == .custom {
                found.append(.init(from: versionName(stage.from, plan: plan), to: versionName(stage.to, plan: plan), place: stage.place.description))
            }
        }
        return found
    }

    private func versionName(_ type: DeclaredType?, plan: MigrationPlanDeclaration) -> String? {
        guard let type, let version = (try? assembler.versionedSchema(type, from: scope(of: plan), place: plan.place)).flatMap({ $0 }) else { return nil }
        return name(of: version)
    }
}
