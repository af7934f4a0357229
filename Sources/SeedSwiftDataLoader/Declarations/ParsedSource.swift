import Foundation
import SeedModel
import SwiftParser
import SwiftSyntax

/// A place in a Swift source, for messages: the file, and the 1-based line and column.
struct SourcePlace: Sendable, Hashable, CustomStringConvertible {
    var file: String
    var line: Int
    var column: Int

    /// A model error at this place.
    func error(_ message: String) -> ModelError {
        ModelError(file: file, line: line, column: column, message: message)
    }

    /// `file:line:column`.
    var description: String { "\(file):\(line):\(column)" }
}

/// One Swift file, parsed by swift-syntax's parser, with what turns positions into places.
struct ParsedSource {
    /// Larger files are refused: no model's source comes near it, and it bounds the memory a
    /// hostile tree can take.
    static let sizeLimit = 16 << 20
    /// Deeper nesting (of types, expressions, blocks) is refused as a syntax error by the
    /// parser itself, before anything recursive walks it: no model comes near it, and a hostile
    /// source 3,000 generics deep would overflow the stack.
    static let nestingLimit = 128

    let path: String
    let tree: SourceFileSyntax
    private let converter: SourceLocationConverter

    /// Reads and parses `path`; a file that cannot be read, is too large or does not parse is
    /// an error naming it (and for a syntax error, its line and column).
    init(path: String) throws(ModelError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ModelError(file: path, line: nil, message: "cannot read the Swift source: \(error.localizedDescription)")
        }
        guard data.count <= Self.sizeLimit else {
            throw ModelError(file: path, line: nil, message: "a Swift source larger than \(Self.sizeLimit >> 20) MiB is not read")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ModelError(file: path, line: nil, message: "the Swift source is not UTF-8 text")
        }
        self.path = path
        var source = text
        self.tree = source.withUTF8 { Parser.parse(source: $0, maximumNestingLevel: Self.nestingLimit) }
        self.converter = SourceLocationConverter(fileName: path, tree: tree)
        if let broken = SyntaxErrorFinder.firstError(in: tree) {
            throw place(of: broken).error("the Swift source does not parse here (the app would not compile)")
        }
    }

    /// Where `node` begins, after its leading comments and whitespace.
    func place(of node: some SyntaxProtocol) -> SourcePlace {
        let location = converter.location(for: node.positionAfterSkippingLeadingTrivia)
        return SourcePlace(file: path, line: location.line, column: location.column)
    }
}

/// Finds the first place the parser recovered from: a token it had to invent or text it skipped.
private final class SyntaxErrorFinder: SyntaxAnyVisitor {
    private var found: Syntax?

    static func firstError(in tree: SourceFileSyntax) -> Syntax? {
        guard tree.hasError else { return nil }
        let finder = SyntaxErrorFinder(viewMode: .all)
        finder.walk(tree)
        return finder.found ?? Syntax(tree)
    }

    override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
        guard found == nil, node.hasError else { return .skipChildren }
        if node.is(UnexpectedNodesSyntax.self) {
            found = node
            return .skipChildren
        }
        return .visitChildren
    }

    override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
        if found == nil, token.presence == .missing { found = Syntax(token) }
        return .skipChildren
    }
}
