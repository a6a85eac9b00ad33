import Foundation

extension PhotoUploader {
    /// What became of an upload of page photos: stored, or refused with what to fix (nothing kept then).
    enum PageUpload {
        case stored([Photo])
        /// `pending` keeps the pictures sent with the refused form (`MediaStore.keepPending`) when there were any.
        case refused(PhotoForm, FieldErrors, pending: String?)
    }

    /// Photos of a book's pages or a film's or show's moments, from the web form or the API alike: the page number
    /// or moment and the comment checked against the title (a page beyond its last, an episode it does not have, a
    /// time beyond a film's end are refused), at least one picture, then every picture stored or none.
    ///
    /// The web form may name `pending` photos kept from its last try: they are used when no new photo was chosen.
    /// `keepingRefused` keeps the pictures of a refused form for its next try (the web form; an API client sends
    /// them again itself).
    /// `refusesOtherKindsPlace`: see `PhotoForm` (the API's uploads).
    func storePages(
        from upload: MultipartUpload, of entry: LibraryEntry, now: Date, keepingRefused: Bool = false,
        refusesOtherKindsPlace: Bool = false
    ) async throws -> PageUpload {
        let userID = entry.userBook.userId
        var upload = upload
        if let token = upload.fields["pending"], !token.isEmpty {
            if upload.files.isEmpty {
                upload.files = media.takePending(token, userID: userID)
            } else {
                media.discardPending(token, userID: userID)
            }
        }
        var form = PhotoForm(
            pageNumber: upload.fields["page_number"], moment: upload.fields["moment"], comment: upload.fields["comment"]
        )
        form.refusesOtherKindsPlace = refusesOtherKindsPlace
        for name in PhotoForm.touchUpFields { form.touchUp[name] = upload.fields[name] }
        var details = Details(bookID: entry.book.id)
        let target = try await photos.target(of: entry.book)
        let checked = form.validate(for: target).flatMap { values in
            PhotoEdit.parse { upload.fields[$0] }.map { (values, $0) }
        }
        switch checked {
        case .success(let ((place, comment), edit)):
            details.place = place
            details.comment = comment
            details.edit = edit
        case .failure(let errors):
            guard keepingRefused, !upload.files.isEmpty else {
                upload.discardFiles()
                return .refused(form, errors, pending: nil)
            }
            do {
                return .refused(form, errors, pending: try media.keepPending(upload.files, userID: userID, now: now))
            } catch {
                upload.discardFiles()
                return .refused(form, errors, pending: nil)
            }
        }
        guard !upload.files.isEmpty else {
            var errors = FieldErrors()
            errors["photo"] = localized("Choose a photo to upload: take one, or choose one from your photos.")
            return .refused(form, errors, pending: nil)
        }
        return .stored(try await storeAll(upload, userID: userID, details: details, now: now))
    }
}
