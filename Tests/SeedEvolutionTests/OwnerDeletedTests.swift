import Foundation
import SeedModel
import SeedgenTestSupport
import Testing
import SeedEvolution
import SeedStore

/// The user's deletion wins over what a newer seed adds beneath it: a new step of a recipe the
/// user deleted is not added (it was, with no recipe), nor a new note of that step; the report
/// names them, the update's own check holds, and `verify` finds the store clean.
@Suite("Seed additions beneath an object the user deleted")
struct OwnerDeletedTests {
    /// Recipes own their steps (cascade), steps their notes (a required to-one); tags point at
    /// recipes by an optional to-one whose inverse only nullifies.
    static func entities(stepOwner: String = #"deletionRule="Cascade""#) -> String {
        """
        <entity name="Note">
            <attribute name="text" attributeType="String"/>
            <relationship name="step" maxCount="1" deletionRule="Nullify" destinationEntity="Step" inverseName="notes" inverseEntity="Step"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="text"/></uniquenessConstraint></uniquenessConstraints>
        </entity>
        <entity name="Recipe">
            <attribute name="name" attributeType="String"/>
            <relationship name="steps" optional="YES" toMany="YES" \(stepOwner) destinationEntity="Step" inverseName="recipe" inverseEntity="Step"/>
            <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="recipe" inverseEntity="Tag"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
        </entity>
        <entity name="Step">
            <attribute name="text" attributeType="String"/>
            <relationship name="notes" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Note" inverseName="step" inverseEntity="Note"/>
            <relationship name="recipe" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Recipe" inverseName="steps" inverseEntity="Recipe"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="text"/></uniquenessConstraint></uniquenessConstraints>
        </entity>
        <entity name="Tag">
            <attribute name="label" attributeType="String"/>
            <relationship name="recipe" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Recipe" inverseName="tags" inverseEntity="Recipe"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="label"/></uniquenessConstraint></uniquenessConstraints>
        </entity>
        """
    }

    /// A seed of `recipes` (name → its steps, each with its notes) and a tag on each recipe.
    static func seed(_ model: DataModel, at path: String, _ recipes: [(String, [(String, [String])])]) throws {
        try StoreFixture.build(model, at: path) { database in
            var step = 0, note = 0
            for (index, (name, steps)) in recipes.enumerated() {
                try database.execute("INSERT INTO ZRECIPE (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (\(index + 1), 2, 1, '\(name)')")
                try database.execute("INSERT INTO ZTAG (Z_PK, Z_ENT, Z_OPT, ZLABEL, ZRECIPE) VALUES (\(index + 1), 4, 1, 'tag \(name)', \(index + 1))")
                for (text, notes) in steps {
                    step += 1
                    try database.execute("INSERT INTO ZSTEP (Z_PK, Z_ENT, Z_OPT, ZTEXT, ZRECIPE) VALUES (\(step), 3, 1, '\(text)', \(index + 1))")
                    for text in notes {
                        note += 1
                        try database.execute("INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, ZTEXT, ZSTEP) VALUES (\(note), 1, 1, '\(text)', \(step))")
                    }
                }
            }
        }
    }

    /// Installs seed 1, deletes Soup as the user, updates to seed 2 (Soup and Stew each get a
    /// new step with a note, Soup a new tag... kept on its recipe by an optional to-one).
    static func update(stepOwner: String = #"deletionRule="Cascade""#) throws -> (report: SeedUpdateReport, rows: [String], findings: [String]) {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try StoreFixture.model(entities(stepOwner: stepOwner), in: directory)
        let layout = try StoreLayout(model: model)
        let store = directory.path("store.sqlite"), seed2 = directory.path("seed2.sqlite")
        try seed(model, at: store, [("Soup", [("boil", ["hot"])]), ("Stew", [("chop", [])])])
        try seed(model, at: seed2, [("Soup", [("boil", ["hot"]), ("salt", ["a pinch"])]), ("Stew", [("chop", []), ("stir", ["slowly"])])])
        _ = try SeedRecord.recordInstalledCopy(at: store)
        try StoreConnection(path: store, layout: layout).write { writer in
            try writer.delete(ObjectID(entity: "Recipe", primaryKey: 1))
        }
        let report = try SeedUpdater(storeAt: store, seedAt: seed2, layout: layout).update()
        let rows = try SQLiteShell.rows(store, """
            SELECT s.ZTEXT || '@' || IFNULL(r.ZNAME, '-') || ':' || IFNULL((SELECT group_concat(n.ZTEXT) FROM ZNOTE n WHERE n.ZSTEP = s.Z_PK), '')
            FROM ZSTEP s LEFT JOIN ZRECIPE r ON r.Z_PK = s.ZRECIPE ORDER BY s.ZTEXT
            """)
        let findings = try StoreVerifier(storePath: store, layout: layout).verify().filter { !$0.isNote }.map { "\($0)" }
        return (report, rows, findings)
    }

    @Test("a new step of a recipe the user deleted, and its new note, are not added and are reported; the other recipe's are")
    func notAddedBeneathDeletedOwner() throws {
        let (report, rows, findings) = try Self.update()
        #expect(rows == ["chop@Stew:", "stir@Stew:slowly"], "\(rows)")
        #expect(report.notAddedOwnerDeleted.map(\.description).sorted() == [#"Note[text="a pinch"]"#, #"Step[text="salt"]"#], "\(report)")
        #expect(report.added.map(\.description).sorted() == [#"Note[text="slowly"]"#, #"Step[text="stir"]"#], "\(report)")
        #expect(report.description.contains(#"= Step[text="salt"] not added: the user deleted its owner"#), "\(report)")
        #expect(findings.isEmpty, "\(findings)")
    }

    @Test("where the recipe's steps only nullify (the user's deletion left its steps), a new step is added without a recipe, as its old ones are")
    func nullifyKeepsTheAddition() throws {
        let (report, rows, findings) = try Self.update(stepOwner: #"deletionRule="Nullify""#)
        #expect(rows == ["boil@-:hot", "chop@Stew:", "salt@-:a pinch", "stir@Stew:slowly"], "\(rows)")
        #expect(report.notAddedOwnerDeleted.isEmpty, "\(report)")
        #expect(findings.isEmpty, "\(findings)")
    }

    @Test("verify flags an object without the owner its model requires: a note with no step")
    func verifyFlagsAMissingOwner() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try StoreFixture.model(Self.entities(), in: directory)
        let store = directory.path("store.sqlite")
        try Self.seed(model, at: store, [("Soup", [("boil", ["hot", "cold"])])])
        let layout = try StoreLayout(model: model)
        #expect(try StoreVerifier(storePath: store, layout: layout).verify().filter { !$0.isNote }.isEmpty)
        try SQLiteShell.execute("UPDATE ZNOTE SET ZSTEP = NULL WHERE ZTEXT = 'cold'", on: store)
        let findings = try StoreVerifier(storePath: store, layout: layout).verify().filter { !$0.isNote }.map { "\($0)" }
        #expect(findings.count == 1 && findings[0].contains("ZNOTE.ZSTEP (Note.step)") && findings[0].contains("1 row(s) without one"), "\(findings)")
    }
}
