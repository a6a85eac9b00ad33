import Foundation
import HTTPTypes
import Hummingbird

/// A job's progress as Server-Sent Events, for the progress page and the API (DESIGN §6): `id:` on every
/// event (the rows processed so far; the final event's id is one past the total), `event: progress` with the
/// counts whenever they change, a heartbeat comment every 15 s, then `event: completed` or `failed` (a cancelled
/// job ends with `failed` and status `canceled`) and the stream closes. A client that reconnects with
/// `Last-Event-ID` hears nothing it already has; a finished job replays only its final event.
struct ImportEventStream: Sendable {
    let load: @Sendable () async throws -> ImportJob?
    var pollInterval: Duration = .milliseconds(400)
    var heartbeatInterval: Duration = .seconds(15)
    /// A stream is closed after this long even if the job is still running; the client reconnects.
    var maxDuration: Duration = .seconds(600)

    /// The stream as an answer; `ticket`, its place among the live streams, is held until the stream ends.
    func response(lastEventID: String?, holding ticket: LiveStreamTicket) -> Response {
        let lastSeen = lastEventID.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? -1
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream; charset=utf-8"
        headers[.cacheControl] = "no-store"
        // Tells a proxy in front of the server not to hold the events back.
        headers[HTTPField.Name("X-Accel-Buffering")!] = "no"
        let stream = self
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                defer { withExtendedLifetime(ticket) {} }
                try await stream.write(to: &writer, after: lastSeen)
                try await writer.finish(nil)
            })
    }

    private func write(to writer: inout some ResponseBodyWriter, after lastSeen: Int) async throws {
        let clock = ContinuousClock()
        let start = clock.now
        var lastHeartbeat = start
        var lastSent = lastSeen
        try await writer.write(ByteBuffer(string: "retry: 2000\n\n"))
        while clock.now - start < maxDuration {
            guard let job = try await load() else { return }
            if job.status.isFinished {
                let id = job.total + 1
                if id > lastSeen {
                    let name = job.status == .completed ? "completed" : "failed"
                    try await writer.write(ByteBuffer(string: Self.event(name, id: id, job: job)))
                }
                return
            }
            if job.processed > lastSent || (lastSent == -1) {
                lastSent = max(job.processed, 0)
                try await writer.write(ByteBuffer(string: Self.event("progress", id: job.processed, job: job)))
                lastHeartbeat = clock.now
            } else if clock.now - lastHeartbeat >= heartbeatInterval {
                try await writer.write(ByteBuffer(string: ": heartbeat\n\n"))
                lastHeartbeat = clock.now
            }
            try await Task.sleep(for: pollInterval)
        }
    }

    static func event(_ name: String, id: Int, job: ImportJob) -> String {
        let data = Progress(
            jobId: job.id, status: job.status.apiName, processed: job.processed, total: job.total,
            created: job.created, updated: job.updated, skipped: job.skipped, failed: job.failed,
            progress: job.progress)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = (try? encoder.encode(data)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return "id: \(id)\nevent: \(name)\ndata: \(json)\n\n"
    }
}

extension ImportEventStream {
    struct Progress: Codable, Sendable {
        let jobId: String
        let status: String
        let processed, total, created, updated, skipped, failed: Int
        let progress: Double
    }
}

extension ImportJob.Status {
    /// The status as the API names it; a job still in its preview counts as `initialized`.
    var apiName: String {
        switch self {
        case .staging, .mapping, .preview, .initialized: "initialized"
        case .processing: "processing"
        case .completed: "completed"
        case .failed: "failed"
        case .canceled: "canceled"
        }
    }
}
