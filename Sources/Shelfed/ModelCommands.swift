import ArgumentParser
import Foundation
import Logging
import ShelfedKit

/// `shelfed model check` tells whoever runs the server whether search by meaning works and, if not, what to do;
/// `shelfed model bench` measures the encoder on this machine (benchmarks/embeddings.py runs it).
struct ModelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model", abstract: "The sentence-embedding model behind search by meaning.",
        subcommands: [CheckModel.self, BenchModel.self])
}

struct CheckModel: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Check that the model is installed, intact and runs (SHELFED_MODEL_DIR).")

    func run() async throws {
        let config = try AppConfig.fromEnvironment()
        guard let folder = config.modelDirectory else { throw ValidationError("No model folder is configured.") }
        let embedder = TextEmbedder(folder: folder, logger: Logger(label: "shelfed.model"))
        if case .unavailable(let reason) = embedder.checkFiles() { throw ValidationError(reason) }
        guard let vectors = try await embedder.embed(["Shelfed checks its model."]), vectors.first?.count == 384
        else {
            if case .unavailable(let reason) = embedder.availability { throw ValidationError(reason) }
            throw ValidationError("The model in \(folder.path) gave no vector.")
        }
        print("The model in \(folder.path) is intact and runs: search by meaning is on.")
    }
}

struct BenchModel: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Time the encoder, a query and ranking on this machine (one thread).")

    @Option(help: "How many book texts to encode.")
    var texts = 64

    func run() async throws {
        let config = try AppConfig.fromEnvironment()
        guard let folder = config.modelDirectory else { throw ValidationError("No model folder is configured.") }
        for line in try EmbeddingBenchmark.run(folder: folder, texts: min(max(texts, 8), 4_096)) { print(line) }
    }
}
