import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `.safetensors` file mapped into memory read-only: an 8-byte little-endian header length, a JSON header naming
/// each tensor's type, shape and byte range, then the raw data. Nothing is copied: a tensor is a pointer into the
/// mapping, so the pages of the 47 MB word-embedding table the server never looks up are never read from disk, and
/// dropping the file gives all of it back to the system (DESIGN §14).
///
/// The mapping is read-only and never changes after `init`, which is why sharing it across threads is safe.
final class SafeTensorsFile: @unchecked Sendable {
    struct Damaged: Error, CustomStringConvertible {
        let description: String
    }

    private let base: UnsafeRawPointer
    private let size: Int
    private let dataStart: Int
    private let tensors: [String: (shape: [Int], range: Range<Int>)]

    init(path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Damaged(description: "\(path) cannot be opened (errno \(errno))") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 8 else {
            throw Damaged(description: "\(path) is empty or unreadable")
        }
        let size = Int(status.st_size)
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else {
            throw Damaged(description: "\(path) cannot be mapped (errno \(errno))")
        }
        let base = UnsafeRawPointer(mapped)
        do {
            (dataStart, tensors) = try Self.readHeader(base, size: size)
        } catch {
            munmap(mapped, size)
            throw error
        }
        self.base = base
        self.size = size
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: base), size)
    }

    /// The float32 tensor `name`, which must have exactly `shape`.
    func floats(_ name: String, shape: [Int]) throws -> UnsafePointer<Float> {
        guard let tensor = tensors[name] else { throw Damaged(description: "the model has no tensor \(name)") }
        guard tensor.shape == shape else {
            throw Damaged(description: "tensor \(name) has shape \(tensor.shape), expected \(shape)")
        }
        return (base + dataStart + tensor.range.lowerBound).assumingMemoryBound(to: Float.self)
    }

    /// Drops the resident pages of tensor `name` (whole pages inside it only): the next read of them comes back
    /// from the page cache. For a large table of which each text touches a few rows.
    func releasePages(of name: String) {
        guard let tensor = tensors[name] else { return }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = dataStart + tensor.range.lowerBound
        let end = dataStart + tensor.range.upperBound
        let first = (start + pageSize - 1) / pageSize * pageSize
        let last = end / pageSize * pageSize
        guard last > first else { return }
        madvise(UnsafeMutableRawPointer(mutating: base + first), last - first, Int32(MADV_DONTNEED))
    }

    private static func readHeader(_ base: UnsafeRawPointer, size: Int) throws -> (
        Int, [String: (shape: [Int], range: Range<Int>)]
    ) {
        guard let headerLength = Int(exactly: UInt64(littleEndian: base.loadUnaligned(as: UInt64.self))),
            headerLength > 1, headerLength <= min(size - 8, 16 << 20)
        else { throw Damaged(description: "the model's header length does not fit the file") }
        let header = Data(bytes: base + 8, count: headerLength)
        guard let entries = try? JSONSerialization.jsonObject(with: header) as? [String: Any] else {
            throw Damaged(description: "the model's header is not JSON")
        }
        let dataStart = 8 + headerLength
        var tensors: [String: (shape: [Int], range: Range<Int>)] = [:]
        for (name, value) in entries where name != "__metadata__" {
            guard let entry = value as? [String: Any], let type = entry["dtype"] as? String,
                let shape = entry["shape"] as? [Int], let offsets = entry["data_offsets"] as? [Int], offsets.count == 2
            else { throw Damaged(description: "tensor \(name) is described incompletely") }
            guard type == "F32" else { continue }
            let bytes = shape.reduce(Optional(4)) { product, side in
                guard let product, side >= 0 else { return nil }
                let (next, overflow) = product.multipliedReportingOverflow(by: side)
                return overflow ? nil : next
            }
            guard let bytes, offsets[0] >= 0, offsets[0] <= offsets[1], offsets[1] <= size - dataStart,
                offsets[1] - offsets[0] == bytes, (dataStart + offsets[0]) % 4 == 0
            else { throw Damaged(description: "tensor \(name) lies outside the file or is misaligned") }
            tensors[name] = (shape, offsets[0]..<offsets[1])
        }
        return (dataStart, tensors)
    }
}
