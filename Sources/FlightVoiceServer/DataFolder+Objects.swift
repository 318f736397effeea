import Foundation
import TranscriptionJobs

/// S3 objects as files under `s3/BUCKET/KEY` in one server's data folder (a bucket is a folder).
extension DataFolder: ObjectStore {
    /// No limit of its own: the request body limit applies.
    public var maximumObjectBytes: Int { Int.max }

    private func bucketFolder(_ bucket: String) -> String { absolute("s3/\(bucket)") }

    public func createBucket(_ bucket: String, now: Date) throws {
        try FileManager.default.createDirectory(atPath: bucketFolder(bucket), withIntermediateDirectories: true)
    }

    public func bucketExists(_ bucket: String) throws -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: bucketFolder(bucket), isDirectory: &isFolder) && isFolder.boolValue
    }

    public func deleteBucket(_ bucket: String) throws -> Bool {
        guard try bucketExists(bucket) else { return false }
        guard try listObjects(bucket: bucket, prefix: "", after: "", limit: 1).objects.isEmpty else { throw ObjectStoreError.bucketNotEmpty(bucket) }
        try FileManager.default.removeItem(atPath: bucketFolder(bucket))
        return true
    }

    public func putObject(_ data: Data, bucket: String, key: String, now: Date) throws {
        guard try bucketExists(bucket) else { throw ObjectStoreError.noSuchBucket(bucket) }
        do { try write(data, to: "s3/\(bucket)/\(key)") } catch {
            throw ObjectStoreError.keyConflict(key: key, problem: error.localizedDescription)
        }
    }

    public func object(bucket: String, key: String) throws -> StoredObject? {
        let path = absolute("s3/\(bucket)/\(key)")
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue, let data = FileManager.default.contents(atPath: path) else {
            return nil
        }
        let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? Date()
        return StoredObject(data: data, modified: modified)
    }

    public func deleteObject(bucket: String, key: String) throws {
        var path = absolute("s3/\(bucket)/\(key)")
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { return }
        try FileManager.default.removeItem(atPath: path)
        // Folders the key's prefixes made go with their last object, so that the prefix can name an object again.
        let bucketPath = bucketFolder(bucket)
        path = (path as NSString).deletingLastPathComponent
        while path.count > bucketPath.count, (try? FileManager.default.contentsOfDirectory(atPath: path).isEmpty) == true {
            try? FileManager.default.removeItem(atPath: path)
            path = (path as NSString).deletingLastPathComponent
        }
    }

    public func listObjects(bucket: String, prefix: String, after: String, limit: Int) throws -> (objects: [ObjectSummary], isTruncated: Bool) {
        var objects: [ObjectSummary] = []
        let root = URL(fileURLWithPath: bucketFolder(bucket))
        let properties: [URLResourceKey] = [.isRegularFileKey, .fileSizeKey, .contentModificationDateKey]
        if let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: properties) {
            for case let url as URL in walker {
                guard let values = try? url.resourceValues(forKeys: Set(properties)), values.isRegularFile == true else { continue }
                let key = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
                // Files whose name starts with "." are atomic writes in progress, never objects.
                guard key.hasPrefix(prefix), after.utf8.lexicographicallyPrecedes(key.utf8), DataFolder.isValidKey(key), !url.lastPathComponent.hasPrefix(".") else { continue }
                objects.append(ObjectSummary(key: key, size: values.fileSize ?? 0, modified: values.contentModificationDate ?? Date()))
            }
        }
        objects.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        return (Array(objects.prefix(limit)), objects.count > limit)
    }
}
