import ArgumentParser
import Foundation
import SeedModel
import SeedStore

/// `seedgen fetch`: prints the objects a predicate or a model's fetch template matches.
struct FetchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Print the objects of a store that a predicate or a fetch request template matches.",
        discussion: """
            Attributes print by their type (dates in ISO 8601, UTC); to-one relationships print \
            the destination's natural key. Exit status: 0 when the fetch ran (also with no \
            match), 1 for a predicate that does not parse or names unknown keys, 2 for usage \
            errors. Example: seedgen fetch EMPlan.sqlite --model EMPlan.xcdatamodeld \
            --template initialisationCheck --json
            """
    )

    @Argument(help: "The store file.")
    var store: String

    @OptionGroup var model: ModelOption

    @Option(help: "The entity to fetch (taken from the template with --template).")
    var entity: String?

    @Option(help: "A predicate in NSPredicate format, e.g. 'name BEGINSWITH[c] \"de\"'.")
    var predicate: String?

    @Option(help: "A fetch request template of the model, e.g. initialisationCheck.")
    var template: String?

    @Option(name: .customLong("var"), help: "A value for a $VARIABLE of the predicate: NAME=VALUE (repeatable).")
    var variables: [String] = []

    @Option(help: "Sort by a key path; append :desc for descending (repeatable).")
    var sort: [String] = []

    @Option(help: "At most this many objects.")
    var limit: Int?

    @Option(help: "Skip this many objects first.")
    var offset: Int?

    @Flag(help: "Print the objects as JSON.")
    var json = false

    func validate() throws {
        if predicate != nil && template != nil { throw ValidationError("give --predicate or --template, not both") }
        if template == nil && entity == nil { throw ValidationError("give --entity (or --template)") }
        if let limit, limit < 0 { throw ValidationError("--limit must not be negative") }
        if let offset, offset < 0 { throw ValidationError("--offset must not be negative") }
    }

    func run() throws {
        try FileRefusal.checkStore(store)
        let layout = try model.loadLayout()
        let request = try makeRequest(layout.model)
        let objects: [FetchedObject]
        do {
            objects = try StoreReader(path: store).fetch(request, layout: layout)
        } catch let error as QueryError {
            throw CommandFailure.failed("\(predicate.map { "predicate '\(PredicateSyntaxError.excerpt($0, around: error.position ?? 1))' " } ?? "")\(error)")
        } catch let error as UnreadableStoreError {
            throw CommandFailure.failed("\(store): \(error)")
        } catch let error as SQLiteError where error.code.primary == .error {
            // The store was read; SQLite refused the query built from the predicate.
            throw CommandFailure.failed("the predicate cannot run on this store: \(error)")
        } catch {
            throw CommandFailure.file(error, "\(store): \(String(describing: error).droppingPathPrefix(store))")
        }
        let attributes = Dictionary(layout.model.entities.flatMap { entity in
            layout.model.storedAttributes(of: entity).map { ("\(entity.name).\($0.name)", $0) }
        }, uniquingKeysWith: { first, _ in first })
        if json {
            let rows = objects.map { object in
                var values: [String: JSONValue] = [:]
                for (name, value) in object.attributes { values[name] = JSONValue(value, attribute: attributes["\(object.entity).\(name)"]) }
                for (name, value) in object.toOnes { values[name] = JSONValue(value, nil) }
                return ObjectReport(entity: object.entity, primaryKey: object.primaryKey, values: values)
            }
            print(try jsonText(rows))
        } else {
            for object in objects {
                var line = "\(object.entity) #\(object.primaryKey)"
                for (name, value) in object.attributes {
                    line += "  \(name)=\(JSONValue(value, attribute: attributes["\(object.entity).\(name)"]).text)"
                }
                for (name, value) in object.toOnes { line += "  \(name)=\(JSONValue(value, nil).text)" }
                print(line)
            }
            print("\(objects.count) object(s)")
        }
    }

    private func makeRequest(_ dataModel: DataModel) throws -> FetchRequest {
        var request: FetchRequest
        if let template {
            guard let found = dataModel.fetchRequest(named: template) else {
                let names = dataModel.fetchRequests.map(\.name).sorted()
                throw CommandFailure.usage("the model has no fetch request template '\(template)' (it has: \(names.isEmpty ? "none" : names.joined(separator: ", ")))")
            }
            do {
                request = try FetchRequest(template: found)
            } catch {
                throw CommandFailure.failed("\(error)")
            }
            if let entity, entity != found.entity {
                throw CommandFailure.usage("template '\(template)' fetches \(found.entity), not \(entity)")
            }
        } else {
            var parsed: FetchPredicate?
            if let predicate {
                do {
                    parsed = try FetchPredicate(parsing: predicate)
                } catch {
                    throw CommandFailure.failed("predicate \(error)")
                }
            }
            request = FetchRequest(entity: entity!, predicate: parsed)
        }
        for assignment in variables {
            guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                throw CommandFailure.usage("--var takes NAME=VALUE, not '\(assignment)'")
            }
            let name = String(assignment[..<equals]).trimmingCharacters(in: CharacterSet(charactersIn: "$"))
            request.variables[name] = .text(String(assignment[assignment.index(after: equals)...]))
        }
        for key in sort {
            let descending = key.hasSuffix(":desc")
            let path = descending ? String(key.dropLast(5)) : (key.hasSuffix(":asc") ? String(key.dropLast(4)) : key)
            request.sortKeys.append(FetchRequest.SortKey(path, ascending: !descending))
        }
        if let limit { request.limit = limit }
        if let offset { request.offset = offset }
        return request
    }

    /// One object in `--json` output.
    struct ObjectReport: Encodable {
        var entity: String
        var primaryKey: Int64
        var values: [String: JSONValue]
    }
}
