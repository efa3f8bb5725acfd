import Foundation

/// The `.rx` namespace: a value that wraps `base` so that reactive extensions of a type
/// live apart from its own members.
///
/// Extend it for your own types, as with RxSwift:
///
/// ```swift
/// extension Reactive where Base: ProfileView {
///     var name: Binder<String> {
///         Binder(base) { view, name in view.nameLabel.text = name }
///     }
/// }
///
/// viewModel.name.bind(to: profileView.rx.name)
/// ```
///
/// For a class, every writable property is a binder already, through dynamic member
/// lookup: `valid.bind(to: button.rx.isEnabled)`.
@dynamicMemberLookup
public struct Reactive<Base> {
    /// The wrapped value that the extensions act on.
    public let base: Base

    /// Wraps `base`.
    public init(_ base: Base) {
        self.base = base
    }

    /// A binder that writes each element to the property at `keyPath` of `base`, on the
    /// main scheduler, for as long as `base` lives (it is held weakly).
    public subscript<Property>(dynamicMember keyPath: ReferenceWritableKeyPath<Base, Property>) -> Binder<Property> where Base: AnyObject {
        Binder(base) { base, value in
            base[keyPath: keyPath] = value
        }
    }
}

/// A type with an `.rx` namespace: adopt it (with no code) to write
/// `extension Reactive where Base: YourType`.
public protocol ReactiveCompatible {
    /// The type the namespace wraps; `Self` unless a type says otherwise.
    associatedtype ReactiveBase

    /// The namespace of the type, for static reactive extensions.
    static var rx: Reactive<ReactiveBase>.Type { get set }

    /// The namespace of the value, for reactive extensions.
    var rx: Reactive<ReactiveBase> { get set }
}

extension ReactiveCompatible {
    /// The namespace of the type, for static reactive extensions.
    public static var rx: Reactive<Self>.Type {
        get { Reactive<Self>.self }
        // A setter, so that `mutating` extensions of `Reactive` can be called on it.
        set {}
    }

    /// The namespace of the value, for reactive extensions.
    public var rx: Reactive<Self> {
        get { Reactive(self) }
        // A setter, so that `mutating` extensions of `Reactive` can be called on it.
        set {}
    }
}

/// Every Foundation object has an `.rx` namespace, as in RxSwift.
extension NSObject: ReactiveCompatible {}
