import AsyncHTTPClient
import Foundation
import Logging
import NIOPosix

/// Every store and service of the app, each built once, here: the router's controllers and the background
/// services are handed what they need from this one value.
struct AppServices: Sendable {
    let config: AppConfig
    let logger: Logger
    let database: AppDatabase
    let renderer: PageRenderer

    let users: UserStore
    /// The session, account and waiting count every signed-in page reads, kept between requests.
    let signedIn: SignedInMemos
    let library: LibraryStore
    let photos: PhotoStore
    let media: MediaStore
    let imports: ImportStore
    let keys: APIKeyStore
    let statistics: StatisticsStore
    let textSearch: TextSearchStore
    let journal: ReadingJournal
    let series: SeriesStore
    let lists: ReadingListStore
    let household: HouseholdStore
    /// What members share with the house, and who shares (DESIGN §15).
    let sharing: HouseholdSharing
    let loans: LoanStore
    let recommendations: RecommendationStore
    let borrowRequests: BorrowRequestStore
    let challenges: HouseChallengeStore
    let forYou: ForYouStore
    let backupRuns: BackupRuns
    /// Read next; nil without the model (DESIGN §14).
    let readNext: ReadNext?
    /// More like this; it finds nothing for books without a vector, so a server without the model offers it nowhere.
    let similar: SimilarBooks
    /// A person's book page, for the book controller and every form that shows it again.
    let bookPages: BookPageBuilder
    /// The sentence-embedding model (DESIGN §14); nil when no model folder is configured.
    let embedder: TextEmbedder?
    /// Search by meaning and words together; by words alone without a usable model.
    let meaning: MeaningSearch

    let hasher: PasswordHasher
    let throttle: LoginThrottle
    let signIn: SignInService
    let search: BookSearchService
    /// Films and shows from TMDB, TVmaze and Wikidata (DESIGN §17), with the same cache and breakers.
    let titles: TitleSearchService
    /// The household's own Jellyfin server, when the admin linked one.
    let jellyfin: JellyfinServer
    /// Each person's own searches of the last week, for trending searches.
    let searchHistory: SearchHistory
    let covers: CoverStore
    /// Every way of adding a book goes through this one service.
    let books: LibraryService
    let uploader: PhotoUploader
    let scanner: BarcodeScanService
    let shelfScans: ShelfScanService
    let streams: LiveStreams

    /// Background work (`BackgroundWorker`s), started and stopped with the server by `queue`.
    let importRunner: ImportRunner
    let enrichment: EnrichmentWorker
    let barcodeJobs: BarcodeJobRunner
    let textReader: PhotoTextReader
    /// Gives books and photo text their meaning vectors; nil without a model.
    let embeddingWorker: EmbeddingWorker?
    /// The requests being answered, which background work that would slow them waits for.
    let activity = ServerActivity()
    /// Runs all of them.
    let queue: BackgroundQueue
    /// The server's own backups, on their schedule and when the admin asks.
    let backups: ScheduledBackups

    /// `http` is the one outbound HTTP client, asked for on first use so that a server that never searches never
    /// starts it.
    /// `blocking` runs what must not hold an event loop: bcrypt, image decoding, the grey images tesseract reads.
    init(
        config: AppConfig, logger: Logger, http: @escaping @Sendable () -> HTTPClient, blocking: NIOThreadPool
    ) async throws {
        self.config = config
        self.logger = logger
        let clock = config.clock
        try FileManager.default.createDirectory(at: config.coversDirectory, withIntermediateDirectories: true)
        let database = try AppDatabase(path: config.databasePath, backupFolder: config.backupFolder)
        self.database = database
        try Translations.shared.load(directory: config.localesDirectory, logger: logger)
        renderer = try await PageRenderer(directory: config.templatesDirectory, serverLanguage: config.language)

        let signedIn = SignedInMemos(database: database, lifetime: config.memoLifetime)
        self.signedIn = signedIn
        var users = UserStore(db: database)
        users.memo = signedIn.users
        self.users = users
        library = LibraryStore(db: database)
        photos = PhotoStore(db: database)
        media = MediaStore(root: config.mediaDirectory)
        imports = ImportStore(db: database, directory: config.importsDirectory)
        keys = APIKeyStore(db: database)
        statistics = StatisticsStore(db: database)
        textSearch = TextSearchStore(db: database)
        journal = ReadingJournal(db: database)
        series = SeriesStore(db: database)
        lists = ReadingListStore(db: database)
        household = HouseholdStore(db: database)
        sharing = HouseholdSharing(db: database)
        loans = LoanStore(db: database)
        recommendations = RecommendationStore(db: database)
        borrowRequests = BorrowRequestStore(db: database)
        challenges = HouseChallengeStore(db: database)
        forYou = ForYouStore(db: database, memo: signedIn.waiting)
        backupRuns = BackupRuns(db: database)
        let findsMeaning = config.modelDirectory != nil
        readNext = findsMeaning ? ReadNext(db: database) : nil
        similar = SimilarBooks(db: database)
        bookPages = BookPageBuilder(
            library: library, renderer: renderer, clock: clock, findsSimilar: findsMeaning,
            similarLifetime: config.memoLifetime)

        hasher = PasswordHasher(cost: config.bcryptCost, threadPool: blocking)
        throttle = LoginThrottle(db: database)
        signIn = SignInService(users: users, hasher: hasher, throttle: throttle, now: clock.now)
        // One search service for the pages, the API, adding books and enrichment: they share its cache and breakers.
        search = BookSearchService(
            settings: config.search, database: database, clock: clock, logger: logger, http: http)
        titles = TitleSearchService(
            settings: config.search, database: database, clock: clock, logger: logger, http: http)
        searchHistory = SearchHistory(db: database)
        jellyfin = JellyfinServer(db: database, settings: config.search, clock: clock, logger: logger, http: http)
        covers = CoverStore(
            http: http, directory: config.coversDirectory, timeout: config.search.timeout,
            maxBytes: config.search.maxCoverBytes, logger: logger)
        books = LibraryService(store: library, covers: covers, search: search, clock: clock)

        var backgroundText = TextRecognizer(languages: config.ocrLanguages)
        backgroundText.threadPool = blocking
        textReader = PhotoTextReader(
            db: database, media: media, recognizer: backgroundText, workers: config.ocrWorkers, logger: logger)
        var uploader = PhotoUploader(
            media: media, processor: ImageProcessor(concurrentImages: config.imageWorkers, threadPool: blocking),
            photos: photos,
            logger: logger)
        uploader.textReader = textReader
        self.uploader = uploader
        var printedText = TextRecognizer(languages: config.ocrLanguages)
        printedText.processor = uploader.processor
        printedText.threadPool = blocking
        scanner = BarcodeScanService(
            reader: BarcodeReader(processor: uploader.processor), text: printedText, search: search,
            library: library, scratch: media.incoming, logger: logger)
        shelfScans = ShelfScanService(
            gemini: GeminiClient(settings: config.gemini, http: http), search: search, db: database, media: media,
            processor: uploader.processor, logger: logger, now: clock.now, doorbell: Doorbell())
        // Live progress streams may take a quarter of the connections; the rest stay for pages.
        streams = LiveStreams(total: config.maxConnections / 4)

        // Imports run beside the server and stop with it; an import cut off by a restart resumes.
        importRunner = ImportRunner(db: database, logger: logger, now: clock.now)
        enrichment = EnrichmentWorker(
            db: database, search: search, covers: covers,
            budget: GoogleBudget(db: database, dailyCalls: config.googleDailyBudget), logger: logger,
            now: clock.now, pause: config.enrichmentPause)
        barcodeJobs = BarcodeJobRunner(db: database, books: books, logger: logger, now: clock.now)
        var workers: [any BackgroundWorker] = [
            importRunner, barcodeJobs, enrichment, ShelfScanWorker(service: shelfScans),
            ScreenRefreshWorker(
                db: database, titles: titles, logger: logger, clock: clock, serverLanguage: config.language),
            JellyfinLibraryWorker(
                library: JellyfinLibrary(db: database, server: jellyfin), logger: logger, clock: clock),
        ]
        if textReader.isEnabled() { workers.append(textReader) }
        if config.findsAdaptations {
            workers.append(
                PageToScreenWorker(
                    finder: PageToScreen(db: database, wikidata: titles.wikidata), logger: logger, clock: clock))
        }
        if config.matchesImportedTitles {
            workers.append(
                ImportedTitleMatchWorker(
                    matching: ImportedTitleMatching(db: database, titles: titles, covers: covers), logger: logger,
                    clock: clock))
        }
        if let folder = config.modelDirectory {
            let embedder = TextEmbedder(folder: folder, logger: logger)
            switch embedder.checkFiles() {
            case .available: logger.info("Search by meaning uses the model in \(folder.path)")
            case .unavailable(let reason): logger.warning("\(reason)")
            }
            let worker = EmbeddingWorker(
                db: database, embedder: embedder, clock: clock, logger: logger, activity: activity)
            workers.append(worker)
            workers.append(ReadNextRanker(db: database, logger: logger, activity: activity))
            workers.append(NeighbourFinder(db: database, logger: logger, activity: activity))
            self.embedder = embedder
            embeddingWorker = worker
        } else {
            embedder = nil
            embeddingWorker = nil
        }
        // A person's vectors are kept a minute after a search: the next question, or the next page, reads none.
        let libraryVectors = LibraryVectorsMemo(database: database, lifetime: .seconds(60))
        meaning = MeaningSearch(
            embeddings: EmbeddingStore(db: database, libraryVectors: libraryVectors), textSearch: textSearch,
            embedder: embedder,
            budget: RateLimiter(now: config.clock.now))
        queue = BackgroundQueue(workers, logger: logger, activity: activity, database: database)
        backups = ScheduledBackups(
            schedule: config.backups, folder: config.backupFolder, dataDirectory: config.dataDirectory,
            database: database, clock: config.clock, logger: logger, threadPool: blocking)
    }

    /// What a stop in the middle of something left behind is put right before the first request: scratch files of
    /// backups, uploads that never became photos, import files no import can use. (Background work puts its own
    /// rows right: `BackgroundWorker.recover()`.)
    func repairAfterRestart() throws {
        Backup.removeLeftovers(in: config.dataDirectory)
        try media.prepare()
        let orphans = media.removeUnreferenced(keeping: try photos.allFilePaths())
        if !orphans.isEmpty {
            logger.notice("Removed \(orphans.count) media files that no photo refers to: \(orphans.prefix(10))")
        }
        let staleImports = try imports.removeFilesOfEndedJobs()
        if !staleImports.isEmpty {
            logger.notice(
                "Removed \(staleImports.count) import files no waiting import needs: \(staleImports.prefix(10))")
        }
    }
}
