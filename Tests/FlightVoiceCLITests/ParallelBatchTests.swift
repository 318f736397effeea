import Synchronization
import Testing
@testable import FlightVoiceCLI

@Suite struct ParallelBatchTests {
    private final class Worker {
        var processed = 0
        func square(_ value: Int) -> Int {
            processed += 1
            return value * value
        }
    }

    private struct NoModel: Error {}

    @Test(arguments: [1, 2, 5])
    func deliversEveryResultOnceInInputOrder(workers: Int) throws {
        let delivered = Mutex<[Int]>([])
        try ParallelBatch.run(Array(0..<200), workerCount: workers, makeWorker: {
            let worker = Worker()
            return { worker.square($0) }
        }, deliver: { index, output in
            delivered.withLock { $0.append(output) }
            #expect(output == index * index)
        })
        #expect(delivered.withLock { $0 } == (0..<200).map { $0 * $0 })
    }

    @Test func aWorkerThatCannotStartFailsTheBatch() {
        #expect(throws: NoModel.self) {
            try ParallelBatch.run([1, 2, 3], workerCount: 2, makeWorker: { () throws -> (Int) -> Int in throw NoModel() }, deliver: { _, _ in })
        }
    }

    @Test func anEmptyBatchDeliversNothing() throws {
        try ParallelBatch.run([Int](), workerCount: 4, makeWorker: { { $0 } }, deliver: { _, _ in Issue.record("nothing to deliver") })
    }
}
