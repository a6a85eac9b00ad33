import CImaging
import Foundation
import Hummingbird
import Logging
import NIOPosix

/// Reads the words in a photo with tesseract, run as a separate program: its 30–100 MB of language models and
/// working memory come and go with it instead of staying in the server, and a crash in it cannot take the server down.
public struct TextRecognizer: Sendable {
    public enum Failure: Error, Equatable {
        case notInstalled
        case unreadableImage
        case failed(String)
        case timedOut
    }

    /// `eng`, `eng+deu`: tesseract's language codes joined by `+` (checked when the settings are read).
    public let languages: String
    public let timeout: Duration
    /// Longest side of the grey image tesseract is given: text set at book sizes stays legible, time stays bounded.
    public static let imageSide = 2400
    static let maxOutputBytes = 256 * 1024
    let executable: URL?
    /// When set, making the grey image waits its turn with the uploads' image work (a full-size photo read while
    /// someone waits); the background reader works on the small display images and leaves it unset.
    var processor: ImageProcessor?
    /// Where the grey image is made, off the event loops: the composition root's blocking pool.
    var threadPool: NIOThreadPool = .singleton

    public init(languages: String = "eng", timeout: Duration = .seconds(60), executable: URL? = TextRecognizer.locate())
    {
        self.languages = languages
        self.timeout = timeout
        self.executable = executable
    }

    public var isAvailable: Bool { executable != nil }

    /// Where `tesseract` is installed, from PATH and the usual folders.
    public static func locate() -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"]
        return folders.lazy.map { URL(fileURLWithPath: $0).appendingPathComponent("tesseract") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// True when `text` is a list of tesseract language codes (letters, digits, `_`) joined by `+`.
    public static func isValidLanguageList(_ text: String) -> Bool {
        let codes = text.split(separator: "+", omittingEmptySubsequences: false)
        return !codes.isEmpty && codes.count <= 8
            && codes.allSatisfy { code in
                (1...32).contains(code.utf8.count)
                    && code.utf8.allSatisfy { $0 == 0x5F || (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }
            }
    }

    /// The text of the photo at `url` (made upright and grey first), as tesseract printed it.
    /// `sparse` reads scattered words (a copyright page) instead of looking for paragraphs. `background` reading
    /// runs at idle priority; a reading someone waits for on a page runs at normal priority.
    public func text(ofPhotoAt url: URL, scratch: URL, sparse: Bool = false, background: Bool = false) async throws
        -> String
    {
        guard let executable else { throw Failure.notInstalled }
        let grey = scratch.appendingPathComponent("ocr-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: grey) }
        let threadPool = self.threadPool
        let makeGrey: @Sendable () async throws -> Bool = {
            try await threadPool.runIfActive { () -> Bool in
                defer { shelfed_vips_clear_error() }
                return shelfed_vips_grey_png(url.path, grey.path, Int32(Self.imageSide)) == 0
            }
        }
        let arguments = [grey.path, "stdout", "-l", languages, "--psm", sparse ? "11" : "3"]
        let timeout = self.timeout
        let read: @Sendable () async throws -> String = {
            guard try await makeGrey() else { throw Failure.unreadableImage }
            return try await Self.run(executable, arguments, timeout: timeout, scratch: scratch, background: background)
        }
        guard let processor else { return try await read() }
        // The grey image and the tesseract run both wait their turn with every other image's work: eight scans at
        // once start one tesseract after another, not eight side by side.
        let cost = try await processor.threadPool.runIfActive {
            try ImageProcessor.decodingCost(of: url, processor.maxMegapixels * 1_000_000)
        }
        return try await processor.limiter.run(cost: cost + Self.imageSide * Self.imageSide + Self.programMemory, read)
    }

    /// What a tesseract run takes besides its image (measured 50–90 MB with the English model).
    static let programMemory = 64 * 1_048_576

    /// Runs the program with its output going to files in `scratch`, waiting for it without holding a thread (the
    /// blocking pool is for bcrypt and images; a page read at idle priority may take a while on a busy server), and
    /// stopping it after `timeout` or when the server stops.
    static func run(_ executable: URL, _ arguments: [String], timeout: Duration, scratch: URL, background: Bool)
        async throws -> String
    {
        // In the background, at the lowest priority (SCHED_IDLE where util-linux's chrt is installed, else nice 19):
        // reading runs on the cycles the web server leaves, so pages stay as quick while a photo is read.
        let (program, programArguments): (URL, [String])
        if !background {
            (program, programArguments) = (executable, arguments)
        } else if let chrt = lowPriorityLauncher {
            (program, programArguments) = (chrt, ["--idle", "0", executable.path] + arguments)
        } else {
            (program, programArguments) = (
                URL(fileURLWithPath: "/usr/bin/nice"), ["-n", "19", executable.path] + arguments
            )
        }
        // One thread: on a 2- or 4-core Pi, OpenMP's threads would compete with the web server for every core.
        let environment = ["OMP_THREAD_LIMIT": "1", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        let name = UUID().uuidString
        let outputFile = scratch.appendingPathComponent("ocr-\(name).txt")
        let errorFile = scratch.appendingPathComponent("ocr-\(name).log")
        guard FileManager.default.createFile(atPath: outputFile.path, contents: nil),
            FileManager.default.createFile(atPath: errorFile.path, contents: nil),
            let output = FileHandle(forWritingAtPath: outputFile.path),
            let errors = FileHandle(forWritingAtPath: errorFile.path)
        else { throw Failure.failed("could not create its output files in \(scratch.path)") }
        defer {
            try? output.close()
            try? errors.close()
            try? FileManager.default.removeItem(at: outputFile)
            try? FileManager.default.removeItem(at: errorFile)
        }
        let started = ContinuousClock.now
        let pid: pid_t
        do {
            pid = try ChildProcess.start(
                program.path, programArguments, environment: environment, output: output.fileDescriptor,
                errors: errors.fileDescriptor)
        } catch {
            throw Failure.failed("\(error)")
        }
        // Cancelled (the server is stopping), the program is stopped too and the photo is read after the restart.
        let (ending, stopped) = await ChildProcess.wait(for: pid, timeout: timeout)
        try Task.checkCancellation()
        if stopped || ending.byASignal {
            guard ContinuousClock.now - started < timeout else { throw Failure.timedOut }
            // Which program and which signal: out of memory (9), a crash (11), or the server stopping (15).
            let signal = if case .signalled(let number) = ending { " by signal \(number)" } else { "" }
            throw Failure.failed("\(program.lastPathComponent) running tesseract was stopped\(signal)")
        }
        guard ending.succeeded else {
            let errorText = (try? Data(contentsOf: errorFile)) ?? Data()
            throw Failure.failed(String(decoding: errorText.prefix(500), as: UTF8.self))
        }
        let reader = try FileHandle(forReadingFrom: outputFile)
        defer { try? reader.close() }
        let text = try reader.read(upToCount: maxOutputBytes) ?? Data()
        return String(decoding: text, as: UTF8.self)
    }

    private static let lowPriorityLauncher: URL? = ["/usr/bin/chrt", "/bin/chrt"].lazy
        .map { URL(fileURLWithPath: $0) }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
}
