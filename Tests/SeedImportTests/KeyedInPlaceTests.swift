import Foundation
import SeedImport
import SeedStore
import SeedgenTestSupport
import Testing

/// A keyed import whose objects are defined after the references that reserved their keys, in
/// another order (the catalog benchmark's suppliers): their rows are held back and written by
/// key, so the store is still written once, to the bytes a copy of the same rows gives.
@Suite("Keyed import written in place")
struct KeyedInPlaceTests {
    static let model = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="">
            <entity name="Category" representedClassName="Category" syncable="YES">
                <attribute name="name" attributeType="String"/>
                <relationship name="products" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Product" inverseName="category" inverseEntity="Product"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            <entity name="Product" representedClassName="Product" syncable="YES">
                <attribute name="name" attributeType="String"/>
                <attribute name="price" optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
                <attribute name="sku" attributeType="String"/>
                <relationship name="category" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Category" inverseName="products" inverseEntity="Category"/>
                <relationship name="supplier" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Supplier" inverseName="products" inverseEntity="Supplier"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="sku"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            <entity name="Supplier" representedClassName="Supplier" syncable="YES">
                <attribute name="code" attributeType="String"/>
                <attribute name="country" optional="YES" attributeType="String"/>
                <relationship name="products" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Product" inverseName="supplier" inverseEntity="Product"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="code"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
        </model>
        """

    static let products = """
          <Category name="Tools"/>
          <Product sku="P1" name="saw" price="9.5" category="Tools" supplier="S3"/>
          <Product sku="P2" name="drill" price="40" category="Tools" supplier="S1"/>
          <Product sku="P3" name="file" price="3.25" category="Tools" supplier="S2"/>
          <Product sku="P4" name="rasp" price="4" category="Tools" supplier="S3"/>
        """
    static let supplier3 = #"<Supplier code="S3" country="IT"/>"#
    static let suppliers1And2 = #"<Supplier code="S1" country="DE"/><Supplier code="S2" country="FR"/>"#

    @Test("suppliers defined after the products that name them, in another order: written once, as a copy would be")
    func definedLaterInAnotherOrder() throws {
        let run = try ImportRun(model: Self.model)
        defer { run.directory.remove() }
        // S3, S1, S2 get their keys from the products; defined S1, S2, S3.
        let held = try run.build([("late.xml", "<Catalog>\(Self.products)\(Self.suppliers1And2)\(Self.supplier3)</Catalog>")])
        let heldBytes = try Data(contentsOf: URL(fileURLWithPath: held.path))
        // The same keys and rows, S3 defined first: a supplier's row before the products' is
        // out of the store's order, and the store is copied.
        let copied = try run.build([("early.xml", "<Catalog>\(Self.supplier3)\(Self.products)\(Self.suppliers1And2)</Catalog>")])
        #expect(held.writtenInPlace && !copied.writtenInPlace)
        #expect(heldBytes == (try Data(contentsOf: URL(fileURLWithPath: copied.path))))
        #expect(held.rowCounts == ["Category": 1, "Product": 4, "Supplier": 3])
        #expect(try StoreVerifier(storePath: copied.path, layout: run.layout, asBuilt: true).verify().isEmpty)
    }
}
