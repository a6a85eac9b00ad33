import CLinearAlgebra
import Crypto
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOPosix

/// Turns texts into meaning vectors with all-MiniLM-L6-v2, on the server itself (DESIGN §14).
///
/// The model is opened on first use and closed again after `idleTime` without work, so a server that is not
/// embedding holds none of its 90 MB. The encoding runs on threads of its own — never on the threads that answer
/// pages: one for a person's query, and one at a low priority for the background, which so takes only the CPU the
/// pages leave. The weights are read-only and shared by both. When the model folder is missing or damaged the embedder says why once and every
/// caller falls back to keywords; nothing here ever stops the server.
public final class TextEmbedder: Sendable {
    /// Limits OpenBLAS to one thread for the whole process, before the server's threads start any process
    /// (`shelfed_blas_limit_threads` says why it must be this early).
    public static func configureProcess() { shelfed_blas_limit_threads() }

    public static let modelID = "all-MiniLM-L6-v2"
    public static let dimensions = MiniLMEncoder.hidden
    /// sha256 of the weights DESIGN §14 records; checked once, the first time the model is opened.
    static let weightsSHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"

    /// Why there are no vectors, in words for the log and the status line.
    public enum Availability: Sendable, Equatable {
        case available
        case unavailable(String)
    }

    public let folder: URL
    /// The word pieces a text is cut to (the model's own limit is 256).
    public let maxTokens: Int
    let idleTime: Duration
    private let logger: Logger
    private let interactive: NIOThreadPool
    private let background: NIOThreadPool
    private let state = NIOLockedValueBox(State())
    private let loading = NIOLock()

    private struct State {
        var tokenizer: WordPieceTokenizer?
        var encoder: MiniLMEncoder?
        var failure: String?
        var weightsChecked = false
        var lastUse = ContinuousClock.now
        var unloadScheduled = false
    }

    public init(folder: URL, maxTokens: Int = 256, idleTime: Duration = .seconds(60), logger: Logger) {
        self.folder = folder
        self.maxTokens = min(max(maxTokens, 8), 512)
        self.idleTime = idleTime
        self.logger = logger
        interactive = NIOThreadPool(numberOfThreads: 1)
        background = NIOThreadPool(numberOfThreads: 1)
        interactive.start()
        background.start()
        background.submit { _ in _ = shelfed_set_thread_nice(10) }
    }

    /// Who is waiting for the vectors.
    public enum Priority: Sendable {
        /// A person's search: answered first.
        case interactive
        /// The background catching up: only when the CPU is otherwise idle.
        case background
    }

    /// Stops the embedder's threads (the server's shutdown; tests).
    public func shutdown() async {
        try? await interactive.shutdownGracefully()
        try? await background.shutdownGracefully()
    }

    /// Checks at start-up that the model's files are there and readable, without loading the weights; says what to
    /// do when they are not.
    public func checkFiles() -> Availability {
        let weights = folder.appendingPathComponent("model.safetensors").path
        let tokenizer = folder.appendingPathComponent("tokenizer.json").path
        guard FileManager.default.isReadableFile(atPath: weights), FileManager.default.isReadableFile(atPath: tokenizer)
        else {
            let reason =
                "The embedding model is not in \(folder.path). Run 'bash scripts/fetch-model.sh' (make run does) "
                + "to fetch it, then restart Shelfed; until then search uses keywords only."
            state.withLockedValue { $0.failure = reason }
            return .unavailable(reason)
        }
        return state.withLockedValue { $0.failure }.map(Availability.unavailable) ?? .available
    }

    public var availability: Availability {
        state.withLockedValue { $0.failure }.map(Availability.unavailable) ?? .available
    }

    /// One unit vector per text, or nil when the model cannot be used (the reason is in `availability`).
    public func embed(_ texts: [String], priority: Priority = .interactive) async throws -> [[Float]]? {
        guard !texts.isEmpty else { return [] }
        let vectors = try await (priority == .interactive ? interactive : background).runIfActive {
            [self] () -> [[Float]]? in
            guard let (tokenizer, encoder) = loaded() else { return nil }
            return encoder.encode(texts.map { tokenizer.ids(for: $0, maxTokens: maxTokens) })
        }
        scheduleUnload()
        return vectors
    }

    /// The word-piece ids of `text` as the encoder sees them, or nil without a model.
    public func tokenIDs(_ text: String) async throws -> [Int32]? {
        try await interactive.runIfActive { [self] in loaded()?.0.ids(for: text, maxTokens: maxTokens) }
    }

    /// Whether `text` has a word the model knows whole (`WordPieceTokenizer.knowsAWholeWord`), or nil without a
    /// model. It opens the model as embedding the question next would.
    public func knowsAWord(in text: String) async throws -> Bool? {
        let known = try await interactive.runIfActive { [self] in loaded()?.0.knowsAWholeWord(in: text) }
        scheduleUnload()
        return known
    }

    /// Whether the weights are open right now (for tests and the memory benchmark).
    public var isLoaded: Bool { state.withLockedValue { $0.encoder != nil } }

    /// Opens the model if it is not open; runs on one of the embedder's threads, the lock keeping both from opening
    /// it twice.
    private func loaded() -> (WordPieceTokenizer, MiniLMEncoder)? {
        loading.withLock { openModel() }
    }

    private func openModel() -> (WordPieceTokenizer, MiniLMEncoder)? {
        let current = state.withLockedValue { state -> (WordPieceTokenizer, MiniLMEncoder)?? in
            state.lastUse = .now
            if state.failure != nil { return .some(nil) }
            if let tokenizer = state.tokenizer, let encoder = state.encoder { return (tokenizer, encoder) }
            return nil
        }
        if let current { return current }
        do {
            let tokenizer = try WordPieceTokenizer(contentsOf: folder.appendingPathComponent("tokenizer.json"))
            let weights = folder.appendingPathComponent("model.safetensors").path
            if !state.withLockedValue({ $0.weightsChecked }) {
                try Self.verify(weights)
                state.withLockedValue { $0.weightsChecked = true }
            }
            let encoder = try MiniLMEncoder(weights: weights)
            state.withLockedValue {
                $0.tokenizer = tokenizer
                $0.encoder = encoder
            }
            logger.info("Opened the embedding model", metadata: ["folder": "\(folder.path)"])
            return (tokenizer, encoder)
        } catch {
            let reason = "The embedding model in \(folder.path) cannot be used (\(error)); search uses keywords only."
            logger.error("\(reason)")
            state.withLockedValue { $0.failure = reason }
            return nil
        }
    }

    /// Closes the model once it has been idle for `idleTime`.
    private func scheduleUnload() {
        let schedule = state.withLockedValue { state in
            defer { state.unloadScheduled = true }
            return !state.unloadScheduled
        }
        guard schedule else { return }
        Task { [self] in
            while true {
                let wake = state.withLockedValue { $0.lastUse }.advanced(by: idleTime)
                if ContinuousClock.now < wake {
                    try? await Task.sleep(until: wake, clock: .continuous)
                    continue
                }
                // A batch under way holds its own reference to the encoder, so the file stays mapped until it ends.
                let closed = state.withLockedValue { state -> Bool in
                    guard ContinuousClock.now >= state.lastUse.advanced(by: idleTime) else { return false }
                    state.encoder = nil
                    state.tokenizer = nil
                    state.unloadScheduled = false
                    return true
                }
                if closed {
                    // Hand back what the batches left in malloc's arenas and the encoder's program pages, so an idle
                    // server returns to its idle size.
                    IdleMemory.release()
                    logger.debug("Closed the idle embedding model")
                    return
                }
            }
        }
    }

    /// Refuses weights whose sha256 is not the recorded one (a damaged or swapped file).
    static func verify(_ path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        let digest = RandomHex.hex(SHA256.hash(data: data))
        guard digest == weightsSHA256 else {
            throw SafeTensorsFile.Damaged(description: "model.safetensors does not match its recorded sha256")
        }
    }
}
