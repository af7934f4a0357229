import Foundation

/// What a `--model` path holds: a Core Data model, or a SwiftData app's Swift sources.
package enum ModelSource: Sendable, Equatable {
    /// An `.xcdatamodeld` bundle, an `.xcdatamodel` folder or a `contents` file.
    case coreDataModel
    /// A `.swift` file, or a folder of them that is no Core Data model (no `contents` inside).
    case swiftSources

    /// The kind of model at `path`; anything that is not Swift sources is taken for a Core Data
    /// model, whose reader then says what is wrong with it.
    package init(path: String) {
        let url = URL(fileURLWithPath: path)
        if url.pathExtension == "swift" {
            self = .swiftSources
            return
        }
        var isDirectory: ObjCBool = false
        guard !["xcdatamodeld", "xcdatamodel"].contains(url.pathExtension),
              FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue,
              !FileManager.default.fileExists(atPath: url.appendingPathComponent("contents").path)
        else {
            self = .coreDataModel
            return
        }
        self = .swiftSources
    }
}
