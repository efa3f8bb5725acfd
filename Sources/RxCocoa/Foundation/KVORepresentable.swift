import Foundation

/// A type whose values can be observed with key-value observing: it can be made from
/// the value KVO reports (`KVOType`).
public protocol KVORepresentable {
    /// The type of the value KVO reports.
    associatedtype KVOType

    /// The value that KVO reports as `KVOValue`, or `nil` if it does not convert.
    init?(KVOValue: KVOType)
}

extension Int: KVORepresentable {
    /// KVO reports integers as numbers.
    public typealias KVOType = NSNumber

    /// The number's value. RxSwift reads it through `int32Value`, which truncates
    /// values beyond 32 bits; this reads the whole `intValue` (see "Known differences").
    public init?(KVOValue: KVOType) {
        self = KVOValue.intValue
    }
}

extension Int32: KVORepresentable {
    /// KVO reports integers as numbers.
    public typealias KVOType = NSNumber

    /// The number's value.
    public init?(KVOValue: KVOType) {
        self = KVOValue.int32Value
    }
}

extension Int64: KVORepresentable {
    /// KVO reports integers as numbers.
    public typealias KVOType = NSNumber

    /// The number's value.
    public init?(KVOValue: KVOType) {
        self = KVOValue.int64Value
    }
}

extension UInt: KVORepresentable {
    /// KVO reports integers as numbers.
    public typealias KVOType = NSNumber

    /// The number's value.
    public init?(KVOValue: KVOType) {
        self = KVOValue.uintValue
    }
}

extension UInt32: KVORepresentable {
    /// KVO reports integers as numbers.
    public typealias KVOType = NSNumber

    /// The number's value.
    public init?(KVOValue: KVOType) {
        self = KVOValue.uint32Value
    }
}

extension UInt64: KVORepresentable {
    /// KVO reports integers as numbers.
    public typealias KVOType = NSNumber

    /// The number's value.
    public init?(KVOValue: KVOType) {
        self = KVOValue.uint64Value
    }
}

extension Bool: KVORepresentable {
    /// KVO reports Booleans as numbers.
    public typealias KVOType = NSNumber

    /// The number's value as a Boolean.
    public init?(KVOValue: KVOType) {
        self = KVOValue.boolValue
    }
}
