import SeedImport
import SeedModel
import SeedStore

extension DumpWriter {
    /// A stored date as text the importer reads back to the same seconds with the model alone:
    /// in the attribute's own `dateFormat`, else ISO 8601, in UTC with the fewest fraction digits
    /// that do (`DatePattern.exactText`); nil where no such text exists or `dates` is `.seconds`
    /// (the caller writes `@` + seconds).
    static func dateText(_ value: SQLValue, of attribute: AttributeDescription, dates: StoreDumper.DateStyle) -> String? {
        guard dates == .iso8601 else { return nil }
        let seconds: Double
        switch value {
        case .real(let real): seconds = real
        case .integer(let integer):
            guard let exact = Double(exactly: integer) else { return nil }
            seconds = exact
        default: return nil
        }
        let pattern = attribute.userInfo["dateFormat"].map { try? DatePattern($0) } ?? .iso8601
        return pattern?.exactText(secondsSinceReferenceDate: seconds)
    }
}
