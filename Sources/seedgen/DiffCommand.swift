import ArgumentParser
import Foundation
import SeedModel
import SeedEvolution
import SeedStore

/// `seedgen diff`: the objects two stores of one model hold differently, matched by key.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "List the objects a new store adds, removes and changes against an old one, matched by key.",
        discussion: """
            Objects are matched by what named them when they were built: the --key the build \
            gave (recorded in the store), else the model's uniqueness constraint; an object with \
            neither is matched by all its attribute values (a changed one shows as removed and \
            added). Z_PK numbers do not matter: two builds of the same data hold the same \
            objects. Changed objects list each attribute and relationship that differs, old and \
            new value; text is compared byte for byte. Both stores must be of the model's \
            current version (the new store's own model, which seedgen builds carry, when --model \
            is left out). Exit status: 0 when the stores hold the same objects, 1 when they \
            differ, 2 when one cannot be read. Example: seedgen diff v1.sqlite v2.sqlite
            """
    )

    @Argument(help: "The old store.")
    var old: String

    @Argument(help: "The new store.")
    var new: String

    @Option(help: ArgumentHelp(modelHelp + " Without it, the model the new store carries (a seed seedgen built)."))
    var model: String?

    @OptionGroup var schema: SchemaOption

    @Flag(help: "Print the differences as JSON (one object per difference, then the counts).")
    var json = false

    func run() throws {
        for store in [old, new] { try FileRefusal.checkStore(store) }
        let layout: StoreLayout
        do {
            layout = try model.map { try loadModel($0, schema: schema.schema) }.map { try StoreLayout(model: $0) } ?? carriedLayout(of: new)
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure.failed("\(error)")
        }
        let diff = StoreDiff(old: old, new: new, layout: layout)
        var differs = false
        let counts: [String: StoreDiff.Counts]
        // JSON is streamed: each difference is printed once the next one (or the end) shows
        // whether a comma follows it, so memory stays flat however many objects differ.
        var pending: String?
        do {
            if json { print("{\n  \"objects\" : [") }
            counts = try diff.run { difference in
                if json {
                    if let pending { print(pending + ",") }
                    pending = try jsonText(DifferenceReport(difference)).split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
                } else {
                    print(Self.line(difference))  // store text in it is quoted and escaped
                }
                differs = true
            }
        } catch {
            throw CommandFailure.file(error, "\(error)")
        }
        if let pending { print(pending) }
        let total = StoreDiff.Counts.total(counts.values)
        if json {
            let rest = try jsonText(Summary(entities: counts, total: total, same: !differs))
            print("  ],\n" + rest.dropFirst(2).split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n"))
        } else {
            for (entity, count) in counts.sorted(by: { $0.key < $1.key }) where count != StoreDiff.Counts() {
                print("\(entity): \(Self.words(count))")
            }
            print(differs ? "the stores differ: \(Self.words(total))" : "the stores hold the same objects (\(total.same))")
        }
        if differs { throw CommandFailure(message: nil, exitCode: 1) }
    }

    static func words(_ count: StoreDiff.Counts) -> String {
        "\(count.added) added, \(count.removed) removed, \(count.changed) changed, \(count.same) same"
    }

    /// `~ Book[isbn="1"]: price 12.5 -> 13; authors +Author[name="X"] -Author[name="Y"]`.
    static func line(_ difference: ObjectDifference) -> String {
        let sign = switch difference.kind { case .added: "+"; case .removed: "-"; case .changed: "~" }
        var line = "\(sign) \(name(difference.object))"
        guard difference.kind == .changed else { return line }
        line += ": " + difference.properties.map { change in
            if case .links(let removed) = change.old, case .links(let added) = change.new {
                return change.name + (added.map { " +" + name($0) } + removed.map { " -" + name($0) }).joined()
            }
            return "\(change.name) \(text(change.old)) -> \(text(change.new))"
        }.joined(separator: "; ")
        return line
    }

    /// `Book[isbn="1"]`; an object without a key by its first values, `Note(title="a", …)`.
    static func name(_ object: NamedObject?) -> String {
        guard let object else { return "nil" }
        if let identifier = object.identifier { return "\(object.entity)[seedgen:id=\(JSONValue(.text(identifier), .string).text)]" }
        let shown = object.isKeyed ? object.values : Array(object.values.filter { $0.value != .null }.prefix(3))
        let values = shown.map { "\($0.attribute.name)=\(JSONValue($0.value, $0.attribute.type).text)" }
        var text = object.isKeyed ? "\(object.entity)[\(values.joined(separator: ", "))]"
            : "\(object.entity)(\(values.joined(separator: ", "))\(shown.count < object.values.filter { $0.value != .null }.count ? ", …" : ""))"
        if let owner = object.owner { text += " in \(owner)" }
        if object.ordinal > 1 { text += " #\(object.ordinal)" }
        if object.ordinal == 0 { text = "\(object.entity) (no such object)" }
        return text
    }

    static func text(_ value: ObjectDifference.PropertyValue) -> String {
        switch value {
        case .attribute(let value, let type): JSONValue(value, type).text
        case .object(let object): name(object)
        case .position(let position): position.map(String.init) ?? "nil"
        case .links(let objects): "[" + objects.map(name).joined(separator: ", ") + "]"
        }
    }

    /// One object in `--json` output.
    struct DifferenceReport: Encodable {
        var kind: String
        var object: ObjectReport
        var properties: [PropertyReport]

        init(_ difference: ObjectDifference) {
            kind = difference.kind.rawValue
            object = ObjectReport(difference.object)
            properties = difference.properties.map { PropertyReport(name: $0.name, old: PropertyValueReport($0.old), new: PropertyValueReport($0.new)) }
        }
    }

    /// An object by what names it: `key` for a keyed one, `identifier` for one its build named
    /// by a source identifier, else `values`; `owner`, the object it is named within.
    struct ObjectReport: Encodable {
        var entity: String
        var key: [String: JSONValue]?
        var identifier: String?
        var values: [String: JSONValue]?
        var owner: String?
        var ordinal: Int

        init(_ object: NamedObject) {
            entity = object.entity
            identifier = object.identifier
            owner = object.owner
            let named = Dictionary(object.values.map { ($0.attribute.name, JSONValue($0.value, $0.attribute.type)) }, uniquingKeysWith: { first, _ in first })
            if object.isKeyed { key = named } else if identifier == nil { values = named }
            ordinal = object.ordinal
        }
    }

    struct PropertyReport: Encodable {
        var name: String
        var old: PropertyValueReport
        var new: PropertyValueReport
    }

    /// A property's value: an attribute's value, a destination object, a position or a list of objects.
    enum PropertyValueReport: Encodable {
        case value(JSONValue), object(ObjectReport?), objects([ObjectReport])

        init(_ value: ObjectDifference.PropertyValue) {
            switch value {
            case .attribute(let value, let type): self = .value(JSONValue(value, type))
            case .object(let object): self = .object(object.map(ObjectReport.init))
            case .position(let position): self = .value(position.map(JSONValue.integer) ?? .null)
            case .links(let objects): self = .objects(objects.map(ObjectReport.init))
            }
        }

        func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .value(let value): try container.encode(value)
            case .object(let object): try container.encode(object)
            case .objects(let objects): try container.encode(objects)
            }
        }
    }

    struct Summary: Encodable {
        var entities: [String: StoreDiff.Counts]
        var total: StoreDiff.Counts
        var same: Bool
    }
}
