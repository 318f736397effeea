import Foundation

/// Where a job's media and transcript are kept, by relative path (`media/NAME`, `transcripts/NAME.json`): the
/// server's data folder when one server owns its jobs, the shared database when several servers drain one queue
/// (a job created on one server is decoded on another, its transcript fetched from a third).
///
/// Every method is safe to call from any thread.
public protocol JobFileStore: Sendable {
    /// The largest file this store keeps, in bytes; the service refuses larger media before storing anything.
    var maximumFileBytes: Int { get }
    /// Stores `data` at `path`, replacing what was there.
    func write(_ data: Data, to path: String) throws
    /// The bytes at `path`, or nil when nothing is stored there.
    func read(_ path: String) throws -> Data?
    /// Removes `path`; nothing happens when it does not exist.
    func remove(_ path: String) throws
}
