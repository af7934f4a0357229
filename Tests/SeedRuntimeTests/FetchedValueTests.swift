import Foundation
import SeedModel
import SeedModelLoader
import SeedRuntime
import SeedStore
import SeedgenTestSupport
import Testing

/// The typed accessors of a fetched object, for every attribute type, on values written through
/// the runtime's writer with the matching `SQLValue` constructors: each reads back what was
/// written (a Decimal without binary-floating-point noise, Binary that allows external storage
/// without its marker), and a value of another kind reads as nil.
@Suite struct FetchedValueTests {
    static let model = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Item">
            <attribute name="amount" optional="YES" attributeType="Decimal"/>
            <attribute name="blob" optional="YES" attributeType="Binary"/>
            <attribute name="count" optional="YES" attributeType="Integer 64"/>
            <attribute name="done" optional="YES" attributeType="Boolean"/>
            <attribute name="due" optional="YES" attributeType="Date"/>
            <attribute name="id" optional="YES" attributeType="UUID"/>
            <attribute name="outside" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
            <attribute name="ratio" optional="YES" attributeType="Double"/>
            <attribute name="title" optional="YES" attributeType="String"/>
        </entity>
        </model>
        """

    @Test func everyTypeReadsBackWhatWasWritten() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let layout = try StoreLayout(model: try ModelLoader.load(from: try directory.write(Self.model, to: "Items.xcdatamodel/contents")))
        let store = directory.path("Items.sqlite")
        let builder = try StoreBuilder(layout: layout, outputPath: store)
        _ = try builder.finish()
        let container = try StoreContainer(storePath: store, layout: layout)
        let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        let due = Date(timeIntervalSinceReferenceDate: 123_456_789.25)
        let bytes = Data([0, 1, 2, 0xFF])
        let amounts: [Decimal] = [Decimal(string: "0.1")!, Decimal(string: "19.99")!, 42, Decimal(string: "-7.5")!]
        try container.writeAndWait { writer in
            for (index, amount) in amounts.enumerated() {
                _ = try writer.insert("Item", ["amount": .decimal(amount), "blob": .data(bytes), "count": .integer(Int64(index)),
                                               "done": .bool(index % 2 == 0), "due": .date(due), "id": .uuid(id),
                                               "outside": .data(bytes), "ratio": .real(0.5), "title": .text("item \(index)")])
            }
            _ = try writer.insert("Item", ["count": .integer(99), "title": .text("empty")])
        }
        #expect(try StoreVerifier(storePath: store, layout: layout).verify().filter { !$0.isNote } == [])
        let items = try container.viewContext.fetch("Item", sortedBy: [.init("count")])
        #expect(items.count == 5)
        for (index, item) in items.prefix(4).enumerated() {
            #expect(item.decimal("amount") == amounts[index], "\(String(describing: item.decimal("amount")))")
            #expect(item.data("blob") == bytes && item.data("outside") == bytes)
            #expect(item.integer("count") == Int64(index))
            #expect(item.bool("done") == (index % 2 == 0))
            #expect(item.date("due") == due)
            #expect(item.uuid("id") == id)
            #expect(item.double("ratio") == 0.5)
            #expect(item.string("title") == "item \(index)")
        }
        let empty = items[4]
        #expect(empty.decimal("amount") == nil && empty.data("blob") == nil && empty.bool("done") == nil && empty.uuid("id") == nil)
        // Another kind of value is no value of the type asked for.
        #expect(empty.uuid("title") == nil && empty.bool("title") == nil && empty.decimal("title") == nil)
    }
}
