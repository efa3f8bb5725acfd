import Dispatch
import Foundation

/// Runs work as operations on an `OperationQueue`.
public class OperationQueueScheduler: ImmediateSchedulerType, @unchecked Sendable {
    /// The queue the operations run on.
    public let operationQueue: OperationQueue
    /// The priority of the operations.
    public let queuePriority: Operation.QueuePriority

    /// A scheduler on `operationQueue`.
    public init(operationQueue: OperationQueue, queuePriority: Operation.QueuePriority = .normal) {
        self.operationQueue = operationQueue
        self.queuePriority = queuePriority
    }

    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        let cancel = SingleAssignmentDisposable()
        let work = UnsafeTransfer((state, action))
        let operation = BlockOperation {
            if cancel.isDisposed { return }
            cancel.setDisposable(work.value.1(work.value.0))
        }
        enqueue(operation)
        return cancel
    }

    /// Adds `operation` to the queue at this scheduler's priority (or hands it to the
    /// schedule explorer, which runs it as a thread of its run).
    func enqueue(_ operation: BlockOperation) {
        operation.queuePriority = queuePriority
        let queued = UnsafeTransfer(operation)
        if !Interleaving.takes({ queued.value.start() }, queue: operationQueue, serial: operationQueue.maxConcurrentOperationCount == 1) {
            operationQueue.addOperation(operation)
        }
    }
}

/// `observe(on:)` hands its deliveries to an operation queue as one operation a turn
/// (see `QueueDeliveryDispatching` in ObserveOn.swift).
extension OperationQueueScheduler: QueueDeliveryDispatching {
    func dispatchDelivery(_ target: any SerialQueueDelivery) {
        enqueue(BlockOperation { target.deliverWaiting() })
    }

    var deliversInBatches: Bool { true }
}
