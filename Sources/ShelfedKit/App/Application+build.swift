import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdAuth
import HummingbirdCore
import Logging
import NIOCore

/// The composition root: config → database → stores → router → application.
public func buildApplication(config: AppConfig) async throws -> some ApplicationProtocol {
    var logger = Logger(label: "shelfed")
    logger.logLevel = Logger.Level(rawValue: config.logLevel) ?? .info

    try FileManager.default.createDirectory(at: config.coversDirectory, withIntermediateDirectories: true)
    Backup.removeLeftovers(in: config.dataDirectory)
    let database = try AppDatabase(path: config.databasePath)
    let renderer = try await PageRenderer(directory: config.templatesDirectory)
    // Imports run beside the server and stop with it; an import cut off by a restart resumes here.
    let imports = ImportRunner(db: database, logger: logger, now: config.clock.now)
    // The one outbound HTTP client, created on first use so that a server that never searches never starts it.
    let outboundHTTP: @Sendable () -> HTTPClient = { HTTPClient.shared }
    // One search service for the pages, the API, adding books and enrichment: they share its cache and breakers.
    let search = BookSearchService(
        settings: config.search, database: database, clock: config.clock, logger: logger, http: outboundHTTP)
    let covers = CoverStore(
        http: outboundHTTP, directory: config.coversDirectory, timeout: config.search.timeout,
        maxBytes: config.search.maxCoverBytes, logger: logger)
    let enrichment = EnrichmentWorker(
        db: database, search: search, covers: covers,
        budget: GoogleBudget(db: database, dailyCalls: config.googleDailyBudget), logger: logger,
        now: config.clock.now, pause: config.enrichmentPause)
    // Every way of adding a book goes through this one service.
    let books = LibraryService(store: LibraryStore(db: database), covers: covers, search: search, clock: config.clock)
    let barcodeJobs = BarcodeJobRunner(db: database, books: books, logger: logger, now: config.clock.now)
    let textReader = PhotoTextReader(
        db: database, media: MediaStore(root: config.mediaDirectory),
        recognizer: TextRecognizer(languages: config.ocrLanguages), workers: config.ocrWorkers, logger: logger)
    let router = try buildRouter(
        config: config, database: database, renderer: renderer, imports: imports, search: search, books: books,
        textReader: textReader, logger: logger)
    let deadline = TimeAmount.milliseconds(Int64(config.requestTimeout * 1000))
    let waitingHeads = WaitingHeads()
    return Application(
        router: router,
        server: .http1(
            configuration: .init(
                additionalChannelHandlers: [
                    ConnectionDeadlineHandler(
                        headDeadline: deadline, bodyDeadline: deadline, waitingHeads: waitingHeads)
                ])),
        configuration: .init(
            // A deep accept queue: connections beyond `maxConnections` wait there (holding no descriptor of ours)
            // instead of having their connection attempts dropped and retried seconds later.
            address: .hostname(config.host, port: config.port), serverName: "Shelfed", backlog: 2_048,
            availableConnectionsDelegate: MaximumAvailableConnections(config.maxConnections, logger: logger)),
        services: [imports, enrichment, barcodeJobs, textReader],
        logger: logger
    )
}

/// Middleware order matters: security headers and errors outermost, static files before any database work,
/// then the session and the signed-in user, the error pages again (so they keep the navigation and sign-out),
/// and CSRF; public routes before the login redirect, protected after. Every GET also answers HEAD.
func buildRouter(
    config: AppConfig, database: AppDatabase, renderer: PageRenderer, imports runner: ImportRunner,
    search: BookSearchService, books: LibraryService, textReader: PhotoTextReader, logger: Logger
) throws
    -> Router<AppRequestContext>
{
    let clock = config.clock
    let users = UserStore(db: database)
    let library = LibraryStore(db: database)
    let photos = PhotoStore(db: database)
    let media = MediaStore(root: config.mediaDirectory)
    // Whatever an interrupted upload left behind goes before the first request.
    try media.prepare()
    let orphans = media.removeUnreferenced(keeping: try photos.allFilePaths())
    if !orphans.isEmpty {
        logger.notice("Removed \(orphans.count) media files that no photo refers to: \(orphans.prefix(10))")
    }
    var uploader = PhotoUploader(
        media: media, processor: ImageProcessor(concurrentImages: config.imageWorkers), photos: photos, logger: logger)
    uploader.textReader = textReader
    var printedText = TextRecognizer(languages: config.ocrLanguages)
    printedText.processor = uploader.processor
    let scanner = BarcodeScanService(
        reader: BarcodeReader(processor: uploader.processor), text: printedText,
        search: search, library: library, scratch: media.incoming, logger: logger)
    try ShelfScanService.failInterrupted(in: database)
    let shelfScans = ShelfScanService(
        gemini: GeminiClient(settings: config.gemini, http: { HTTPClient.shared }), search: search, db: database,
        media: media, processor: uploader.processor, logger: logger, now: clock.now)
    let router = Router(context: AppRequestContext.self, options: .autoGenerateHeadEndpoints)

    router.add(middleware: SecurityHeadersMiddleware())
    router.add(middleware: RequestLogMiddleware())
    router.add(middleware: ErrorPageMiddleware(renderer: renderer))
    router.add(
        middleware: FileMiddleware(
            config.staticDirectory, urlBasePath: "/static",
            cacheControl: .init([
                (.text, [.public, .maxAge(60 * 60)]), (.image, [.public, .maxAge(60 * 60)]),
                (.application, [.public, .maxAge(60 * 60)]),
            ]), logger: logger))
    router.add(
        middleware: FileMiddleware(
            config.coversDirectory.path, urlBasePath: "/covers",
            // Cover files get a new random name when replaced, so they can be cached for good.
            cacheControl: .init([(.image, [.public, .maxAge(60 * 60 * 24 * 365)])]), logger: logger))
    router.get(Route.health.routerPath) { _, _ in "ok" }

    let imports = ImportStore(db: database, directory: config.importsDirectory)
    // Live progress streams may take a quarter of the connections; the rest stay for pages.
    let streams = LiveStreams(total: config.maxConnections / 4)
    let staleImports = try imports.removeFilesOfEndedJobs()
    if !staleImports.isEmpty {
        logger.notice("Removed \(staleImports.count) import files no waiting import needs: \(staleImports.prefix(10))")
    }
    let hasher = PasswordHasher(cost: config.bcryptCost)
    let signIn = SignInService(users: users, hasher: hasher, throttle: LoginThrottle(db: database), now: clock.now)
    // The API comes before the session: it never reads or sets a cookie and needs no CSRF token.
    try addAPIRoutes(
        to: router, config: config,
        services: APIServices(
            signIn: signIn, keys: APIKeyStore(db: database), library: library, books: books, search: search,
            photos: photos, media: media, uploader: uploader, statistics: StatisticsStore(db: database),
            imports: imports, runner: runner, streams: streams, scanner: scanner, shelfScans: shelfScans),
        renderer: renderer)

    router.add(
        middleware: SessionMiddleware(
            storage: SQLitePersistDriver(db: database, now: clock.now),
            configuration: .init(
                sessionCookieParameters: .init(name: "shelfed_session", secure: config.secureCookies, sameSite: .lax),
                defaultSessionExpiration: AccountController.sessionLength)))
    router.add(
        middleware: SessionAuthenticator(context: AppRequestContext.self) { (session: UserSession, _) in
            try await users.user(id: session.userID)
        })
    router.add(middleware: CSRFMiddleware(secureCookies: config.secureCookies))
    router.add(middleware: ErrorPageMiddleware(renderer: renderer, passesUnmatchedPaths: true))
    router.add(middleware: CSRFMiddleware.Check())

    AccountController(
        users: users, hasher: hasher, throttle: LoginThrottle(db: database), signIn: signIn,
        renderer: renderer, registration: config.registration, now: clock.now
    ).addRoutes(to: router)

    let signedIn = router.group().add(middleware: LoginRedirectMiddleware()).group(context: SignedInContext.self)
    HomeController(library: library, renderer: renderer).addRoutes(to: signedIn)
    ShelfController(library: library, renderer: renderer).addRoutes(to: signedIn)
    BookController(library: library, books: books, photos: photos, media: media, renderer: renderer, clock: clock)
        .addRoutes(to: signedIn)
    ProfileController(
        library: library, statistics: StatisticsStore(db: database), users: users, photos: photos, uploader: uploader,
        renderer: renderer, clock: clock,
        maxUploadBytes: config.maxUploadBytes
    ).addRoutes(to: signedIn)
    ProfileSettingsController(users: users, hasher: hasher, media: media, imports: imports, renderer: renderer)
        .addRoutes(to: signedIn)
    DevicesController(keys: APIKeyStore(db: database), renderer: renderer).addRoutes(to: signedIn)
    let textSearch = TextSearchStore(db: database)
    PhotoController(
        photos: photos, library: library, uploader: uploader, renderer: renderer, clock: clock,
        maxUploadBytes: config.maxUploadBytes, textSearch: textSearch,
        readsText: config.ocrWorkers > 0 && textReader.recognizer.isAvailable
    ).addRoutes(to: signedIn)
    TextSearchController(store: textSearch, renderer: renderer).addRoutes(to: signedIn)
    SearchController(search: search, library: library, books: books, renderer: renderer).addRoutes(to: signedIn)
    ScanController(scanner: scanner, media: media, renderer: renderer, maxUploadBytes: config.maxUploadBytes)
        .addRoutes(to: signedIn)
    ShelfScanController(
        shelves: shelfScans, books: books, media: media, renderer: renderer, maxUploadBytes: config.maxUploadBytes
    ).addRoutes(to: signedIn)
    DataDownloadController(database: database, dataDirectory: config.dataDirectory, media: media, clock: clock)
        .addRoutes(to: signedIn)
    ImportController(
        imports: imports, runner: runner, streams: streams, media: media,
        renderer: renderer, clock: clock
    ).addRoutes(to: signedIn)
    return router
}
