/// What the API controllers are built from: the same stores and services the pages use.
struct APIServices: Sendable {
    let signIn: SignInService
    let keys: APIKeyStore
    let library: LibraryStore
    let books: LibraryService
    let search: BookSearchService
    let photos: PhotoStore
    let media: MediaStore
    let uploader: PhotoUploader
    let statistics: StatisticsStore
    let imports: ImportStore
    let runner: ImportRunner
    let streams: LiveStreams
    let scanner: BarcodeScanService
    let shelfScans: ShelfScanService
}
