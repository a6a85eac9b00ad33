import Foundation
import Hummingbird

/// A file part of a multipart upload, already on disk in the media folder's `.incoming/`.
struct UploadedFile: Sendable {
    let url: URL
    let bytes: Int
    /// The name the browser gave the file: shown to its owner as text (an import's file), never used as a path.
    var clientName: String? = nil
}

/// The text fields and file parts of a `multipart/form-data` upload.
struct MultipartUpload: Sendable {
    var fields: [String: String] = [:]
    var files: [UploadedFile] = []

    /// Removes every received file (after processing, or when the upload fails).
    func discardFiles() {
        for file in files { try? FileManager.default.removeItem(at: file.url) }
    }
}

extension Request {
    /// Streams a multipart body part by part: file parts named `fileField` go straight to disk, other fields
    /// are kept as text. Counting bytes as they arrive, anything over `maxBytes` stops with 413 and nothing
    /// left on disk. The first field must be `_csrf` matching `csrfToken`, checked before any file is read; only
    /// the API, whose calls carry a key and never a cookie, passes nil (no cross-site request can hold a key).
    func receiveMultipart(
        fileField: String, maxBytes: Int, csrfToken: String?, temporaryFile: @escaping () -> URL,
        tooLargeAdvice: String = "Send fewer photos at once, or smaller ones."
    ) async throws -> MultipartUpload {
        guard let contentType = headers[.contentType], contentType.lowercased().hasPrefix("multipart/form-data"),
            let boundary = Self.boundary(in: contentType)
        else {
            throw HTTPError(.badRequest, message: "This page expects a file upload.")
        }
        let limitMessage =
            "That upload is larger than this server accepts (\(maxBytes / 1_048_576) MB in all). "
            + tooLargeAdvice
        if let declared = headers[.contentLength].flatMap(Int.init), declared > maxBytes {
            throw HTTPError(.contentTooLarge, message: limitMessage)
        }
        let state = MultipartState(fileField: fileField, csrfToken: csrfToken, temporaryFile: temporaryFile)
        let parser = FormDataParser(boundary: boundary)
        parser.onHeader = { name, value in state.header(name, value) }
        parser.onBody = { buffer in state.body(&buffer) }
        parser.onPartComplete = { state.partComplete() }
        var received = 0
        do {
            for try await chunk in body {
                received += chunk.readableBytes
                guard received <= maxBytes else { throw HTTPError(.contentTooLarge, message: limitMessage) }
                try parser.execute(chunk)
                if let failure = state.failure { throw failure }
            }
            guard state.csrfVerified else { throw MultipartState.forbidden() }
            guard parser.isFinished else {
                throw HTTPError(.badRequest, message: "The upload was cut short. Try again.")
            }
        } catch {
            state.discard()
            if error is HTTPError { throw error }
            throw HTTPError(.badRequest, message: "The upload could not be read. Try again.")
        }
        return state.upload
    }

    /// The `boundary` parameter, when it is one RFC 2046 allows: 1 to 70 characters, none a control character.
    static func boundary(in contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "boundary" {
                let boundary = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                guard (1...70).contains(boundary.utf8.count), boundary.utf8.allSatisfy({ (0x20..<0x7F).contains($0) })
                else { return nil }
                return boundary
            }
        }
        return nil
    }
}

/// The parser's callbacks write here; it lives and dies within one request's task.
private final class MultipartState {
    let fileField: String
    let csrfToken: String?
    let temporaryFile: () -> URL
    var upload = MultipartUpload()
    var failure: HTTPError?
    /// Set only when the first completed part was a text part named `_csrf` holding the session's token.
    private(set) var csrfVerified = false

    private var partName: String?
    private var isFile = false
    private var clientName: String?
    private var text = Data()
    private var file: (url: URL, handle: FileHandle, bytes: Int)?
    static let maxFieldBytes = 64 * 1024

    init(fileField: String, csrfToken: String?, temporaryFile: @escaping () -> URL) {
        self.fileField = fileField
        self.csrfToken = csrfToken
        csrfVerified = csrfToken == nil
        self.temporaryFile = temporaryFile
    }

    func header(_ name: String, _ value: String) {
        guard name.lowercased() == "content-disposition" else { return }
        partName = Self.parameter("name", in: value)
        // The client's file name is never used for the file on disk, not even for the extension.
        clientName = Self.parameter("filename", in: value)
        isFile = clientName != nil
    }

    func body(_ buffer: inout ByteBuffer) {
        guard failure == nil else { return }
        // Until the token has been checked, only the text of a part named `_csrf` is read — no file, no field.
        if !csrfVerified && (partName != CSRFMiddleware.fieldName || isFile) {
            failure = Self.forbidden()
            return
        }
        if isFile {
            guard partName == fileField else { return }
            do {
                if file == nil {
                    let url = temporaryFile()
                    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                        throw CocoaError(.fileWriteUnknown)
                    }
                    file = (url, try FileHandle(forWritingTo: url), 0)
                }
                let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
                try file!.handle.write(contentsOf: bytes)
                file!.bytes += bytes.count
            } catch {
                failure = HTTPError(.internalServerError, message: "The upload could not be saved. Try again.")
            }
        } else if text.count + buffer.readableBytes <= Self.maxFieldBytes {
            text.append(contentsOf: buffer.readableBytesView)
        } else {
            failure = HTTPError(.contentTooLarge, message: "A text field in the form is too long.")
        }
    }

    func partComplete() {
        defer {
            partName = nil
            isFile = false
            text = Data()
            file = nil
        }
        guard failure == nil else {
            closeAndRemoveOpenFile()
            return
        }
        // The first part to complete must be the token as text: a file part, a nameless or empty part, or any
        // other field first is refused, so nothing can count as "seen" without being checked.
        if !csrfVerified {
            let value = String(decoding: text, as: UTF8.self)
            guard file == nil, !isFile, partName == CSRFMiddleware.fieldName,
                let csrfToken, CSRFMiddleware.constantTimeEquals(value, csrfToken)
            else {
                failure = Self.forbidden()
                return
            }
            csrfVerified = true
            return
        }
        if let file {
            try? file.handle.close()
            // An empty file input still sends a part; it is no photo.
            if file.bytes > 0 {
                upload.files.append(UploadedFile(url: file.url, bytes: file.bytes, clientName: clientName))
            } else {
                try? FileManager.default.removeItem(at: file.url)
            }
            return
        }
        guard let partName, !isFile else { return }
        upload.fields[partName] = String(decoding: text, as: UTF8.self)
    }

    func discard() {
        closeAndRemoveOpenFile()
        upload.discardFiles()
    }

    private func closeAndRemoveOpenFile() {
        if let file {
            try? file.handle.close()
            try? FileManager.default.removeItem(at: file.url)
        }
        file = nil
    }

    static func forbidden() -> HTTPError {
        HTTPError(
            .forbidden,
            message: "This form has expired or was not sent from Shelfed. Go back, reload the page and try again.")
    }

    static func parameter(_ name: String, in header: String) -> String? {
        for part in header.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == name {
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return nil
    }
}
