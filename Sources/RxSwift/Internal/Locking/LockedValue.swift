/// The former name of `LockedState`, for the call sites outside the locking code until
/// they are renamed; this file goes when they are.
package typealias LockedValue<Value> = LockedState<Value>
