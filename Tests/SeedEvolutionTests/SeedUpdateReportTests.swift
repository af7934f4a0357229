@testable import SeedEvolution
import SeedStore
import Testing

/// `SeedUpdateReport` prints as the command prints it: a line per object, then the counts.
@Suite("Seed update report")
struct SeedUpdateReportTests {
    @Test("print(report): each object with what happened to it, named as seedgen diff names it, then the counts (was: the memberwise dump)")
    func printsReadably() {
        var report = SeedUpdateReport(updated: true)
        report.added = [.init(entity: "Book", key: #"isbn="4""#), .init(entity: "Shelf", key: #"label="new""#, isNamedByValues: true)]
        report.keptChangedByUser = [.init(entity: "Book", key: #"isbn="2""#)]
        report.seedDigest = "abc"
        #expect(report.description == """
            + Book[isbn="4"]
            + Shelf(label="new")
            = Book[isbn="2"] kept: the user changed it
            2 added, 0 changed, 0 removed, 1 kept for the user; the store now holds seed abc
            """)
        #expect(SeedUpdateReport(updated: false).description == "the store held this seed already; nothing changed")
    }
}
