import CCrypto
import Foundation

/// SHA-256, HMAC-SHA256, random bytes and constant-time comparison from OpenSSL's libcrypto. Stateless; thread-safe.
public enum Crypto {
    /// SHA-256 of `data`.
    public static func sha256(_ data: some DataProtocol) -> [UInt8] {
        let bytes = Array(data)
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        bytes.withUnsafeBufferPointer { input in _ = SHA256(input.baseAddress, input.count, &digest) }
        return digest
    }

    /// HMAC-SHA256 of `message` under `key`.
    public static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        key.withUnsafeBufferPointer { keyBytes in
            message.withUnsafeBufferPointer { messageBytes in
                _ = HMAC(EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count), messageBytes.baseAddress, messageBytes.count, &digest, &length)
            }
        }
        return Array(digest.prefix(Int(length)))
    }

    /// Lower-case hexadecimal.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return text
    }

    /// `count` bytes from OpenSSL's CSPRNG.
    public static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        guard RAND_bytes(&bytes, Int32(count)) == 1 else { fatalError("OpenSSL's random generator failed") }
        return bytes
    }

    /// Compares two secrets in constant time: their SHA-256 digests (fixed length, so not even the length leaks)
    /// with `CRYPTO_memcmp`.
    public static func constantTimeEqual(_ first: String, _ second: String) -> Bool {
        let left = sha256(Array(first.utf8)), right = sha256(Array(second.utf8))
        return left.withUnsafeBytes { a in right.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 } }
    }
}
