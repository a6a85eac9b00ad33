import Foundation

extension PhotoUploader {
    /// What became of an upload of page photos: stored, or refused with what to fix (nothing kept then).
    enum PageUpload {
        case stored([Photo])
        case refused(PhotoForm, FieldErrors)
    }

    /// Photos of a book's pages, from the web form or the API alike: the page number and comment checked against
    /// the book (a page beyond its last is refused), at least one picture, then every picture stored or none.
    func storePages(from upload: MultipartUpload, of entry: LibraryEntry, now: Date) async throws -> PageUpload {
        let form = PhotoForm(pageNumber: upload.fields["page_number"], comment: upload.fields["comment"])
        var details = Details(bookID: entry.book.id)
        switch form.validate(pageCount: entry.book.pageCount) {
        case .success(let (page, comment)):
            details.pageNumber = page
            details.comment = comment
        case .failure(let errors):
            upload.discardFiles()
            return .refused(form, errors)
        }
        guard !upload.files.isEmpty else {
            var errors = FieldErrors()
            errors["photo"] = "Choose a photo to upload."
            return .refused(form, errors)
        }
        return .stored(try await storeAll(upload, userID: entry.userBook.userId, details: details, now: now))
    }
}
