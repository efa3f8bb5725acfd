import Foundation

extension ObservableType where Element == Data {
    /// Decodes each `Data` element into `type` with `decoder`; a decoding error ends
    /// the sequence with it.
    ///
    /// - parameter type: The `Decodable` type to decode.
    /// - parameter decoder: A decoder such as `JSONDecoder` or `PropertyListDecoder`,
    ///   or any type conforming to `DataDecoder`.
    public func decode<Item: Decodable, Decoder: DataDecoder>(type: Item.Type, decoder: Decoder) -> Observable<Item> {
        map { try decoder.decode(type, from: $0) }
    }
}

/// A type that decodes raw `Data` into a `Decodable` value (used by `decode(type:decoder:)`).
public protocol DataDecoder {
    /// Decodes a value of `type` from `data`.
    func decode<Item: Decodable>(_ type: Item.Type, from data: Data) throws -> Item
}

extension JSONDecoder: DataDecoder {}

extension PropertyListDecoder: DataDecoder {}
