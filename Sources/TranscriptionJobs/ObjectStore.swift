import Foundation

/// One S3 object as stored.
public struct StoredObject: Sendable, Equatable {
    public let data: Data
    public let modified: Date

    public init(data: Data, modified: Date) {
        self.data = data
        self.modified = modified
    }
}

/// One entry of a bucket listing.
public struct ObjectSummary: Sendable, Equatable {
    public let key: String
    /// Bytes.
    public let size: Int
    public let modified: Date

    public init(key: String, size: Int, modified: Date) {
        self.key = key
        self.size = size
        self.modified = modified
    }
}

/// Why an object store refused an operation.
public enum ObjectStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bucket does not exist.
    case noSuchBucket(String)
    /// A bucket that still holds objects cannot be deleted.
    case bucketNotEmpty(String)
    /// The object is larger than the store keeps.
    case tooLarge(bytes: Int, limit: Int)
    /// The key cannot be stored beside the objects already there (a folder store: a prefix of it names an object).
    case keyConflict(key: String, problem: String)

    public var description: String {
        switch self {
        case .noSuchBucket(let bucket): "the bucket \(bucket) does not exist; create it with PUT /\(bucket)"
        case .bucketNotEmpty(let bucket): "the bucket \(bucket) is not empty"
        case .tooLarge(let bytes, let limit): "the object has \(bytes) bytes; this service keeps objects up to \(limit) bytes"
        case .keyConflict(let key, let problem): "cannot store \(key) (does a prefix of the key name an object?): \(problem)"
        }
    }
}

/// The S3 buckets and objects the service keeps: one server's data folder, or the database a fleet shares, so that an
/// object PUT through one server is read, listed and transcribed through any other.
///
/// Bucket names and keys reach a store already checked by the service (S3's rules, nothing that escapes a folder).
/// Keys are listed in byte order, as S3 lists them. Every method is safe to call from any thread.
public protocol ObjectStore: Sendable {
    /// The largest object this store keeps, in bytes; the service refuses larger bodies before storing anything.
    var maximumObjectBytes: Int { get }
    /// Creates `bucket`; nothing happens when it exists.
    func createBucket(_ bucket: String, now: Date) throws
    /// True when `bucket` exists.
    func bucketExists(_ bucket: String) throws -> Bool
    /// Deletes an empty bucket; false when there was none, `ObjectStoreError.bucketNotEmpty` when it holds objects.
    func deleteBucket(_ bucket: String) throws -> Bool
    /// Stores `data` as `key` in `bucket`, replacing what was there; `ObjectStoreError.noSuchBucket` when the bucket
    /// does not exist.
    func putObject(_ data: Data, bucket: String, key: String, now: Date) throws
    /// The object, or nil when `bucket` holds no `key`.
    func object(bucket: String, key: String) throws -> StoredObject?
    /// Removes the object; nothing happens when it does not exist.
    func deleteObject(bucket: String, key: String) throws
    /// Up to `limit` objects of `bucket` whose keys start with `prefix` and sort after `after`, in key order, and
    /// whether more follow.
    func listObjects(bucket: String, prefix: String, after: String, limit: Int) throws -> (objects: [ObjectSummary], isTruncated: Bool)
}
