import Foundation
import SeedModel
import SeedgenTestSupport
import Testing
@testable import SeedStore

@Suite("Layout rules")
struct LayoutRuleTests {
    /// The design's example: entity numbers are a pre-order walk, not an alphabetical sort,
    /// and column stems are numbered per table (`ZUSEDIN`, then `ZUSEDIN1`).
    static let bar = """
        <entity name="Alcohol" parentEntity="Ingredient">
            <attribute name="brand" optional="YES" attributeType="String"/>
            <relationship name="usedIn" optional="YES" toMany="YES" destinationEntity="Cocktail" inverseName="alcohols" inverseEntity="Cocktail"/>
        </entity>
        <entity name="Cocktail">
            <attribute name="name" attributeType="String"/>
            <relationship name="alcohols" optional="YES" toMany="YES" destinationEntity="Alcohol" inverseName="usedIn" inverseEntity="Alcohol"/>
            <relationship name="nonAlcohols" optional="YES" toMany="YES" ordered="YES" destinationEntity="NonAlcohol" inverseName="usedIn" inverseEntity="NonAlcohol"/>
        </entity>
        <entity name="Ingredient" isAbstract="YES">
            <attribute name="name" attributeType="String"/>
        </entity>
        <entity name="NonAlcohol" parentEntity="Ingredient">
            <attribute name="brand" optional="YES" attributeType="Integer 32"/>
            <relationship name="usedIn" optional="YES" toMany="YES" destinationEntity="Cocktail" inverseName="nonAlcohols" inverseEntity="Cocktail"/>
        </entity>
        <entity name="Property">
            <attribute name="key" attributeType="String"/>
        </entity>
        """

    @Test("Z_ENT is a pre-order walk: Cocktail 1, Ingredient 2, Alcohol 3, NonAlcohol 4, Property 5")
    func entityNumbers() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let layout = try StoreLayout(model: try StoreFixture.model(Self.bar, in: directory))
        #expect(layout.entities.map(\.name) == ["Cocktail", "Ingredient", "Alcohol", "NonAlcohol", "Property"])
        #expect(layout.entities.map(\.superNumber) == [0, 0, 2, 2, 0])
        #expect(layout.entity(named: "Ingredient")?.subtreeNumbers == [2, 3, 4])
        #expect(layout.tables.map(\.name) == ["ZCOCKTAIL", "ZINGREDIENT", "ZPROPERTY"])
    }

    @Test("a later entity's property of the same name gets a 1 suffix; storage classes sort the columns")
    func columnStems() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let layout = try StoreLayout(model: try StoreFixture.model(Self.bar, in: directory))
        let table = try #require(layout.table(named: "ZINGREDIENT"))
        #expect(table.createSQL == "CREATE TABLE ZINGREDIENT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZBRAND1 INTEGER, ZNAME VARCHAR, ZBRAND VARCHAR )")
        #expect(layout.column(for: "brand", of: "NonAlcohol") == "ZBRAND1")
        #expect(layout.column(for: "name", of: "Alcohol") == "ZNAME")
        #expect(layout.indexes.map(\.name).contains("ZINGREDIENT_Z_ENT_INDEX"))
    }

    @Test("many-to-many join tables: named from the entity that sorts first, stems as in the table")
    func joinTables() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let layout = try StoreLayout(model: try StoreFixture.model(Self.bar, in: directory))
        // Cocktail < NonAlcohol: Cocktail.nonAlcohols names the table, and the column of the
        // inverse NonAlcohol.usedIn carries its stem ZUSEDIN1. Alcohol < Cocktail: the other
        // pair is named after Alcohol.usedIn.
        #expect(layout.joinTables.map(\.createSQL) == [
            "CREATE TABLE Z_1NONALCOHOLS ( Z_1USEDIN1 INTEGER, Z_4NONALCOHOLS INTEGER, Z_FOK_4NONALCOHOLS INTEGER, PRIMARY KEY (Z_1USEDIN1, Z_4NONALCOHOLS) )",
            "CREATE TABLE Z_3USEDIN ( Z_3ALCOHOLS INTEGER, Z_1USEDIN INTEGER, PRIMARY KEY (Z_3ALCOHOLS, Z_1USEDIN) )",
        ])
        #expect(layout.joinTable(for: "usedIn", of: "NonAlcohol")?.name == "Z_1NONALCOHOLS")
        #expect(layout.joinTable(for: "alcohols", of: "Cocktail")?.name == "Z_3USEDIN")
        #expect(layout.indexes.contains { $0.createSQL == "CREATE INDEX Z_3USEDIN_Z_1USEDIN_INDEX ON Z_3USEDIN (Z_1USEDIN, Z_3ALCOHOLS)" })
        // Creation order: each root table, then the join tables its entities name.
        #expect(layout.schema.prefix(4).map { $0.components(separatedBy: " ")[2] } == ["ZCOCKTAIL", "Z_1NONALCOHOLS", "ZINGREDIENT", "Z_3USEDIN"])
    }

    @Test("transient attributes have no column; optional or not changes nothing in the table")
    func transientAttributes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let layout = try StoreLayout(model: try StoreFixture.model("""
            <entity name="A">
                <attribute name="kept" attributeType="String"/>
                <attribute name="scratch" optional="YES" transient="YES" attributeType="Integer 64"/>
            </entity>
            """, in: directory))
        #expect(layout.tables[0].columns.map(\.name) == ["ZKEPT"])
    }

    @Test("column classes: Decimal between the REALs and VARCHAR, URI is VARCHAR, Integer 64 INTEGER, Float FLOAT among the REALs, external Binary BLOB")
    func assumedTypes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let layout = try StoreLayout(model: try StoreFixture.model("""
            <entity name="T">
                <attribute name="amount" optional="YES" attributeType="Decimal"/>
                <attribute name="big" optional="YES" attributeType="Integer 64"/>
                <attribute name="blob" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
                <attribute name="ratio" optional="YES" attributeType="Float"/>
                <attribute name="link" optional="YES" attributeType="URI"/>
                <attribute name="when" optional="YES" attributeType="Date"/>
            </entity>
            """, in: directory))
        #expect(layout.tables[0].createSQL == "CREATE TABLE ZT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZBIG INTEGER, ZRATIO FLOAT, ZWHEN TIMESTAMP, ZAMOUNT DECIMAL, ZLINK VARCHAR, ZBLOB BLOB )")
    }

    @Test("BLOBs: UUID before Transformable before Binary (assumed: UUID against Binary directly), whatever the names")
    func blobOrder() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let layout = try StoreLayout(model: try StoreFixture.model("""
            <entity name="T">
                <attribute name="aData" optional="YES" attributeType="Binary"/>
                <attribute name="bValue" optional="YES" attributeType="Transformable"/>
                <attribute name="cID" optional="YES" attributeType="UUID"/>
                <attribute name="dTitle" optional="YES" attributeType="String"/>
            </entity>
            """, in: directory))
        #expect(layout.tables[0].columns.map(\.name) == ["ZDTITLE", "ZCID", "ZBVALUE", "ZADATA"])
    }

    @Test("entity numbers: roots and sub-entities in case-insensitive name order")
    func caseInsensitiveEntityNumbers() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let layout = try StoreLayout(model: try StoreFixture.model("""
            <entity name="SyncFeatureEntity"/>
            <entity name="SyncableSettingsMetadata"/>
            <entity name="apple"/>
            """, in: directory))
        #expect(layout.entities.map(\.name) == ["apple", "SyncableSettingsMetadata", "SyncFeatureEntity"])
        #expect(layout.tables.map(\.name) == ["ZAPPLE", "ZSYNCABLESETTINGSMETADATA", "ZSYNCFEATUREENTITY"])
    }

    @Test("a transient many-to-many gets no join table; transient attributes no column")
    func transientRelationships() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let layout = try StoreLayout(model: try StoreFixture.model("""
            <entity name="Message"><attribute name="nonce" optional="YES" transient="YES"/>
                <relationship name="missing" optional="YES" transient="YES" toMany="YES" destinationEntity="Client" inverseName="messages" inverseEntity="Client"/></entity>
            <entity name="Client"><relationship name="messages" optional="YES" transient="YES" toMany="YES" destinationEntity="Message" inverseName="missing" inverseEntity="Message"/></entity>
            """, in: directory))
        #expect(layout.joinTables.isEmpty)
        #expect(layout.tables.allSatisfy { $0.columns.isEmpty })
    }

    @Test("Z_FOK_ columns come after all of an entity's to-ones")
    func orderColumnsAfterToOnes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let layout = try StoreLayout(model: try StoreFixture.model("""
            <entity name="Node">
                <attribute name="title" optional="YES" attributeType="String"/>
                <relationship name="children" optional="YES" toMany="YES" ordered="YES" destinationEntity="Node" inverseName="parent" inverseEntity="Node"/>
                <relationship name="favorites" optional="YES" toMany="YES" ordered="YES" destinationEntity="Node" inverseName="favoriteFolder" inverseEntity="Node"/>
                <relationship name="favoriteFolder" optional="YES" maxCount="1" destinationEntity="Node" inverseName="favorites" inverseEntity="Node"/>
                <relationship name="parent" optional="YES" maxCount="1" destinationEntity="Node" inverseName="children" inverseEntity="Node"/>
            </entity>
            """, in: directory))
        #expect(layout.tables[0].columns.map(\.name) == ["ZFAVORITEFOLDER", "ZPARENT", "Z_FOK_FAVORITEFOLDER", "Z_FOK_PARENT", "ZTITLE"])
    }

    @Test("assumed: a to-one whose destination has sub-entities also stores the destination's entity as Z<d>_<NAME>")
    func assumedPolymorphicToOne() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let layout = try StoreLayout(model: try StoreFixture.model("""
            <entity name="Animal"><relationship name="zoo" optional="YES" maxCount="1" destinationEntity="Zoo" inverseName="animals" inverseEntity="Zoo"/></entity>
            <entity name="Cat" parentEntity="Animal"/>
            <entity name="Zoo"><relationship name="animals" optional="YES" toMany="YES" destinationEntity="Animal" inverseName="zoo" inverseEntity="Animal"/>
                <relationship name="star" optional="YES" maxCount="1" destinationEntity="Animal"/></entity>
            """, in: directory))
        #expect(layout.table(named: "ZZOO")?.columns.map(\.name) == ["ZSTAR", "Z1_STAR"])
        #expect(layout.table(named: "ZANIMAL")?.columns.map(\.name) == ["ZZOO"])
    }

    @Test("assumed (from a text dump only): the to-one side of an ordered one-to-many gets a Z_FOK_ column")
    func assumedOrderedOneToMany() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let layout = try StoreLayout(model: try StoreFixture.model("""
            <entity name="List"><relationship name="items" optional="YES" toMany="YES" ordered="YES" destinationEntity="Item" inverseName="list" inverseEntity="Item"/></entity>
            <entity name="Item"><attribute name="title" optional="YES" attributeType="String"/>
                <relationship name="list" optional="YES" maxCount="1" destinationEntity="List" inverseName="items" inverseEntity="List"/></entity>
            """, in: directory))
        #expect(layout.table(named: "ZITEM")?.createSQL == "CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZLIST INTEGER, Z_FOK_LIST INTEGER, ZTITLE VARCHAR )")
        #expect(layout.indexes.map(\.createSQL) == ["CREATE INDEX ZITEM_ZLIST_INDEX ON ZITEM (ZLIST)"])
    }

    static let indexedModel = """
        <entity name="Base"><attribute name="code" attributeType="String" indexed="YES"/>
            <attribute name="day" optional="YES" attributeType="Date"/>
            <compoundIndexes><compoundIndex><index value="code"/><index value="day"/></compoundIndex></compoundIndexes>
        </entity>
        <entity name="Leaf" parentEntity="Base">
            <attribute name="rank" optional="YES" attributeType="Integer 16"/>
            <fetchIndex name="byRank">
                <fetchIndexElement property="rank" type="Binary" order="descending"/>
                <fetchIndexElement property="code" type="Binary" order="ascending"/>
            </fetchIndex>
            <fetchIndex name="byDay"><fetchIndexElement property="day" type="Binary" order="ascending"/></fetchIndex>
            <uniquenessConstraints><uniquenessConstraint><constraint value="code"/><constraint value="rank"/></uniquenessConstraint></uniquenessConstraints>
        </entity>
        """

    @Test("newest era: indexed attributes named after entity and attribute, per entity that has them; a one-element fetch index indexes its attribute too; compound indexes like fetch indexes (assumed place); unique indexes")
    func indexesOfTheNewestEra() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let layout = try StoreLayout(model: try StoreFixture.model(Self.indexedModel, in: directory))
        #expect(layout.era == .newest)
        #expect(layout.indexes.map(\.createSQL) == [
            "CREATE INDEX ZBASE_Z_ENT_INDEX ON ZBASE (Z_ENT)",
            "CREATE INDEX Z_Base_code ON ZBASE (ZCODE COLLATE BINARY ASC)",
            "CREATE INDEX Z_Base_code_day ON ZBASE (ZCODE COLLATE BINARY ASC, ZDAY COLLATE BINARY ASC)",
            "CREATE INDEX Z_Leaf_day ON ZBASE (ZDAY COLLATE BINARY ASC)",
            "CREATE INDEX Z_Leaf_code ON ZBASE (ZCODE COLLATE BINARY ASC)",
            "CREATE INDEX Z_Leaf_byRank ON ZBASE (ZRANK COLLATE BINARY DESC, ZCODE COLLATE BINARY ASC)",
            "CREATE INDEX Z_Leaf_byDay ON ZBASE (ZDAY COLLATE BINARY ASC)",
            "CREATE UNIQUE INDEX Z_Leaf_UNIQUE_code_rank ON ZBASE (ZCODE COLLATE BINARY ASC, ZRANK COLLATE BINARY ASC)",
        ])
    }

    /// Seen at 1338: `HTTPSExcludedDomain.domain` (optional String) with the fetch index
    /// `domainIndex` has only that index; `byURL` on the optional String `url`, `byKey`,
    /// `byName` and `byIsPendingDeletion` index their attribute too (frameworks 1251–1338).
    @Test("a one-element fetch index also indexes its attribute only when it is named by<attribute> (any case; assumed rule)")
    func fetchIndexNamedByItsAttribute() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let layout = try StoreLayout(model: try StoreFixture.model("""
            <entity name="Domain"><attribute name="domain" optional="YES" attributeType="String"/>
                <attribute name="url" optional="YES" attributeType="String"/>
                <fetchIndex name="domainIndex"><fetchIndexElement property="domain" type="Binary" order="ascending"/></fetchIndex>
                <fetchIndex name="byURL"><fetchIndexElement property="url" type="Binary" order="ascending"/></fetchIndex>
            </entity>
            """, in: directory), era: FrameworkEra(version: 1338))
        #expect(layout.indexes.map(\.name) == ["Z_Domain_url", "Z_Domain_domainIndex", "Z_Domain_byURL"])
    }

    @Test("framework 851 (assumed below 865): an inherited indexed attribute is indexed once, for the entity that declares it")
    func indexesOf851() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let layout = try StoreLayout(model: try StoreFixture.model(Self.indexedModel, in: directory), era: FrameworkEra(version: 851))
        #expect(layout.indexes.map(\.name) == [
            "ZBASE_Z_ENT_INDEX", "Z_Base_code", "Z_Base_code_day", "Z_Leaf_day", "Z_Leaf_byRank", "Z_Leaf_byDay", "Z_Leaf_UNIQUE_code_rank",
        ])
    }

    @Test("framework 637: column indexes, compound indexes after the Z_ENT index, uniqueness as a table constraint")
    func indexesOf637() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let layout = try StoreLayout(model: try StoreFixture.model(Self.indexedModel, in: directory), era: FrameworkEra(version: 637))
        #expect(layout.indexes.map(\.createSQL) == [
            "CREATE INDEX ZBASE_ZCODE_INDEX ON ZBASE (ZCODE)",
            "CREATE INDEX ZBASE_Z_ENT_INDEX ON ZBASE (Z_ENT)",
            "CREATE INDEX ZBASE_ZCODE_ZDAY ON ZBASE (ZCODE, ZDAY)",
            "CREATE INDEX Z_Leaf_byRank ON ZBASE (ZRANK COLLATE BINARY DESC, ZCODE COLLATE BINARY ASC)",
            "CREATE INDEX Z_Leaf_byDay ON ZBASE (ZDAY COLLATE BINARY ASC)",
        ])
        #expect(layout.tables[0].createSQL == "CREATE TABLE ZBASE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZRANK INTEGER, ZDAY TIMESTAMP, ZCODE VARCHAR, CONSTRAINT ZCODE_ZRANK UNIQUE (ZCODE, ZRANK))")
    }

    @Test("layouts no real store has shown are refused with the model line, not guessed")
    func unsupported() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cases: [(String, String)] = [
            ("<entity name=\"A\">\n<relationship name=\"bs\" optional=\"YES\" toMany=\"YES\" ordered=\"YES\" destinationEntity=\"B\"/></entity><entity name=\"B\"/>", "has no inverse and is ordered"),
            ("<entity name=\"P\">\n<relationship name=\"friends\" optional=\"YES\" toMany=\"YES\" destinationEntity=\"P\" inverseName=\"friends\" inverseEntity=\"P\"/></entity>", "is its own inverse"),
            ("<entity name=\"A\"><attribute name=\"n\" attributeType=\"String\"/>\n<fetchIndex name=\"lower\"><fetchIndexElement expression=\"lowercase:(n)\" expressionType=\"String\" type=\"Binary\" order=\"ascending\"/></fetchIndex></entity>", "uses an expression"),
        ]
        for (body, words) in cases {
            let model = try StoreFixture.model(body, in: directory)
            let error = try #require(throws: LayoutError.self) { try StoreLayout(model: model) }
            #expect(error.message.contains(words), "\(error)")
            #expect(error.line == 4, "\(error)")
            #expect(error.file == model.source)
        }
    }

    @Test("a to-many without an inverse is a column of the destination's table, Z<n><NAME> (a real SwiftData store), which holds each member's owner")
    func inverselessToMany() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let model = try StoreFixture.model("""
            <entity name="Cocktail"><attribute name="name" attributeType="String"/>
            <relationship name="spec" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Ingredient"/></entity>
            <entity name="Ingredient"><attribute name="value" attributeType="Double"/>
            <relationship name="base" optional="YES" maxCount="1" destinationEntity="Cocktail"/></entity>
            """, in: directory)
        let layout = try StoreLayout(model: model)
        #expect(layout.table(named: "ZINGREDIENT")?.createSQL
            == "CREATE TABLE ZINGREDIENT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZBASE INTEGER, Z1SPEC INTEGER, ZVALUE FLOAT )")
        #expect(layout.indexes.map(\.name) == ["ZINGREDIENT_ZBASE_INDEX", "ZINGREDIENT_Z1SPEC_INDEX"])
        #expect(layout.memberColumns(for: "spec", of: "Cocktail") == ToOneColumns(key: "Z1SPEC"))
        #expect(layout.memberColumns(for: "base", of: "Ingredient") == nil, "a to-one")
        #expect(layout.table(named: "ZINGREDIENT")?.columns.first { $0.name == "Z1SPEC" }?.referencedEntity == "Cocktail")
    }

    @Test("a Composite attribute is one column per element, named as attributes are, a clash numbered in attribute order")
    func compositeColumns() throws {
        let point = [AttributeDescription(name: "x", type: .float), AttributeDescription(name: "y", type: .float)]
        var author = AttributeDescription(name: "author", type: .composite, isOptional: true)
        author.elements = [AttributeDescription(name: "person", type: .string, isOptional: true), AttributeDescription(name: "id", type: .uuid, isOptional: true)]
        var kind = AttributeDescription(name: "kind", type: .composite)
        kind.elements = [AttributeDescription(name: "kind", type: .string, isOptional: true)]
        var at = AttributeDescription(name: "at", type: .composite)
        at.elements = point
        var to = AttributeDescription(name: "to", type: .composite)
        to.elements = point
        let entity = EntityDescription(name: "Trip", attributes: [author, kind, at, to, AttributeDescription(name: "id", type: .uuid)])
        let layout = try StoreLayout(model: DataModel(entities: [entity]))
        #expect(layout.tables[0].createSQL == "CREATE TABLE ZTRIP ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZX FLOAT, ZY FLOAT, ZX1 FLOAT, ZY1 FLOAT, ZPERSON VARCHAR, ZKIND VARCHAR, ZID BLOB, ZID1 BLOB )")
        #expect(layout.column(for: "author.person", of: "Trip") == "ZPERSON")
        #expect(layout.column(for: "kind", of: "Trip") == "ZKIND", "a one-element composite named like its element is stored under its own name")
        #expect(layout.column(for: "to.x", of: "Trip") == "ZX1")
        #expect(layout.column(for: "id", of: "Trip") == "ZID1")
    }
}
