import Foundation

/// A data source of a sectioned view (a table or collection), from which a model can
/// be read by its index path.
public protocol SectionedViewDataSourceType {
    /// The model at `indexPath`.
    ///
    /// A data source whose items are not bound yet throws
    /// `RxCocoaError.itemsNotYetBound(object:)`.
    ///
    /// - parameter indexPath: The model's section and item.
    /// - returns: The model.
    func model(at indexPath: IndexPath) throws -> Any
}
