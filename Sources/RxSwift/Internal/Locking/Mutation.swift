#if DEBUG
import Foundation

/// Concurrency mutants of Rivulet's own locks and atomics, for proving that the explored
/// scenarios (RxTest's `exploreSchedules`) would notice a broken synchronization: each
/// mutant breaks one synchronization point (`SyncSite`) in one way, chosen at run time,
/// so the package is built once and every mutant runs from the same build.
///
/// The kinds follow the mutation operators for concurrent code of Bradbury, Cordy and
/// Dingel ("Mutation Operators for Concurrent Java", 2006), as they apply to Rivulet's
/// primitives:
///
/// | kind | applies to | what the mutant does |
/// | --- | --- | --- |
/// | `unlocked` | every lock site | the critical section runs without the lock, its start and end each an access of the lock's data (`Interleaving.access`); a section on a `LockedState` reads its state, lets another thread go, then writes it back |
/// | `split` | a `LockedState` site | read the state under the lock, compute outside it, write it back under it |
/// | `callout` | a delivery after unlocking | the delivery runs with the lock held again |
/// | `splitAtomic` | an atomic read-modify-write | a load, a step where another thread may go, then a store |
/// | `alwaysFirst` | a once-flag (`AtomicFlag.testAndSet`) | the flag answers "first" every time |
///
/// Debug builds only: release builds have no mutants and no check for one. With no
/// mutant active a point pays one load and compare.
package enum Mutation {
    /// One kind of broken synchronization.
    package enum Kind: String, Sendable, CaseIterable {
        case unlocked
        case split
        case callout
        case splitAtomic
        case alwaysFirst
    }

    /// One mutant: a kind at a site, spelled `kind@Module/File.swift:line`.
    package struct Mutant: Sendable, Hashable, CustomStringConvertible {
        package let kind: Kind
        package let fileID: String
        package let line: UInt

        package init(kind: Kind, fileID: String, line: UInt) {
            self.kind = kind
            self.fileID = fileID
            self.line = line
        }

        /// Parses `kind@Module/File.swift:line`; `nil` when it does not have that form.
        package init?(_ spelling: String) {
            let parts = spelling.split(separator: "@", maxSplits: 1)
            guard parts.count == 2, let kind = Kind(rawValue: String(parts[0])),
                  let colon = parts[1].lastIndex(of: ":"),
                  let line = UInt(parts[1][parts[1].index(after: colon)...]) else { return nil }
            self.init(kind: kind, fileID: String(parts[1][..<colon]), line: line)
        }

        package var description: String { "\(kind.rawValue)@\(fileID):\(line)" }

        @inline(__always)
        func matches(_ kind: Kind, _ site: SyncSite) -> Bool {
            self.kind == kind && line == site.line && fileID == site.fileID.description
        }
    }

    /// The mutant in force: the environment variable `RIVULET_MUTANT` at start-up, then
    /// whatever `activate(_:)` set. Set only while no explored thread runs.
    nonisolated(unsafe) private static var active: Mutant? = {
        guard let spelling = ProcessInfo.processInfo.environment["RIVULET_MUTANT"], !spelling.isEmpty else { return nil }
        guard let mutant = Mutant(spelling) else {
            preconditionFailure("Rivulet: RIVULET_MUTANT is \"\(spelling)\"; a mutant is spelled KIND@Module/File.swift:LINE, with KIND one of \(Kind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return mutant
    }()

    /// Whether each point that could be mutated is recorded (`takeReached()`).
    nonisolated(unsafe) private static var recording = false
    private static let reachedLock = NSLock()
    nonisolated(unsafe) private static var reachedSites: Set<Mutant> = []

    /// Puts `mutant` in force on every thread (`nil`: none). Call it between
    /// explorations, never while threads that take Rivulet's locks run. A mutant of one
    /// exploration only, on its threads alone, is its hooks' (`InterleavingHooks.mutant`),
    /// which tests running beside it do not see.
    package static func activate(_ mutant: Mutant?) {
        active = mutant
    }

    /// The mutant in force.
    package static var current: Mutant? { active }

    /// Starts or stops recording the points reached (a census of the mutants the code
    /// run could have).
    package static func record(_ on: Bool) {
        recording = on
    }

    /// The mutants whose points were reached while recording, since the last call.
    package static func takeReached() -> Set<Mutant> {
        reachedLock.lock()
        defer { reachedLock.unlock() }
        let reached = reachedSites
        reachedSites = []
        return reached
    }

    /// Whether the mutant of `kind` at `site` is in force.
    @inline(__always)
    static func applies(_ kind: Kind, at site: SyncSite) -> Bool {
        if recording { note(kind, site) }
        guard let mutant = active ?? InterleavingHooks.current?.mutant else { return false }
        return mutant.matches(kind, site)
    }

    /// For a lock taken and released in two calls (`InlineLock`, `Lock`): whether an
    /// `unlocked` mutant at `site` skips taking `lock`. The calling thread's release of
    /// that lock is then skipped too (`skipsUnlock`).
    static func skipsLock(_ lock: UnsafeRawPointer, at site: SyncSite) -> Bool {
        guard applies(.unlocked, at: site) else { return false }
        reachedLock.lock()
        skipped.insert(SkippedLock(thread: currentThreadID(), lock: lock))
        reachedLock.unlock()
        Interleaving.atomicStep("a mutant's critical section, run without its lock", at: site)
        Interleaving.access(lock, at: site)
        return true
    }

    /// Whether the calling thread's release of `lock` is skipped, its taking having been.
    static func skipsUnlock(_ lock: UnsafeRawPointer, at site: SyncSite) -> Bool {
        guard active != nil || InterleavingHooks.current?.mutant != nil else { return false }
        reachedLock.lock()
        let wasSkipped = skipped.remove(SkippedLock(thread: currentThreadID(), lock: lock)) != nil
        reachedLock.unlock()
        if wasSkipped {
            Interleaving.atomicStep("the end of a mutant's critical section, run without its lock", at: site)
            Interleaving.access(lock, at: site)
        }
        return wasSkipped
    }

    /// A lock a thread did not take because of a mutant.
    private struct SkippedLock: Hashable {
        let thread: UInt
        let lock: UnsafeRawPointer
    }

    /// The locks skipped and not yet released, guarded by `reachedLock`.
    nonisolated(unsafe) private static var skipped: Set<SkippedLock> = []

    private static func note(_ kind: Kind, _ site: SyncSite) {
        let mutant = Mutant(kind: kind, fileID: site.fileID.description, line: site.line)
        reachedLock.lock()
        reachedSites.insert(mutant)
        reachedLock.unlock()
    }
}
#endif
