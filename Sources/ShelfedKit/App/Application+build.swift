import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdAuth
import HummingbirdCore
import Logging
import NIOCore
import NIOPosix

/// The composition root: config → services (built once) → router → application, with the start-up repairs run
/// before the server takes its first request.
public func buildApplication(config: AppConfig) async throws -> some ApplicationProtocol {
    var logger = Logger(label: "shelfed")
    logger.logLevel = Logger.Level(rawValue: config.logLevel) ?? .info
    // The process's one outbound HTTP client (started on first use) and blocking thread pool, handed to every
    // feature from here.
    let services = try await AppServices(
        config: config, logger: logger, http: { OutboundHTTP.client }, blocking: NIOThreadPool.singleton)
    let deadline = TimeAmount.milliseconds(Int64(config.requestTimeout * 1000))
    // One address may keep a quarter of the connections idle (issue 35): a stranger parking kept-alive connections
    // leaves the rest for the house; a household behind one reverse proxy shares the quarter, and its proxy's
    // oldest idle connection is closed first, which a proxy answers by opening another.
    let startLogger = logger
    let waitingHeads = WaitingHeads(perAddress: WaitingHeads.perAddress(ofConnections: config.maxConnections))
    var app = Application(
        router: try buildRouter(services),
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
        services: [
            services.queue,
            services.backups,
            IdleMemoryService(
                activity: services.activity, database: services.database, logger: logger,
                forgetUnused: {
                    [
                        renderer = services.renderer, signedIn = services.signedIn, pages = services.bookPages,
                        vectors = services.meaning.embeddings.libraryVectors
                    ] in
                    // A language nobody asked for lately, and answers kept past their lifetime.
                    let languages = renderer.languages.forgetUnused()
                    let kept = [
                        signedIn.dropExpired(), pages.similarMemo.dropExpired(), vectors?.dropExpired() == true,
                    ]
                    return languages || kept.contains(true)
                }),
        ],
        // Start-up's migrations, repairs and templates are done: their pages need not stay (IdleMemoryService gives
        // back again once the services' own start-up has settled).
        onServerRunning: { channel in
            IdleMemory.release()
            // What to open, printed where `make run` shows it (issue 35).
            let port = channel.localAddress?.port ?? config.port
            let house = HouseAddress.find(host: config.host, port: port)
            let here = "http://\(config.host == "0.0.0.0" || config.host == "::" ? "127.0.0.1" : config.host):\(port)"
            let others =
                house.localOnly || house.urls.isEmpty
                ? " (only this computer can reach it; SHELFED_HOST=0.0.0.0 opens it to the home network)."
                : "; the rest of the house opens \(house.urls.joined(separator: " or "))."
            startLogger.notice("Shelfed is running. Open \(here) in a browser\(others)")
        },
        logger: logger
    )
    app.beforeServerStarts { try services.repairAfterRestart() }
    return app
}

/// Middleware order matters: security headers and errors outermost, static files before any database work,
/// then the session and the signed-in user, the error pages again (so they keep the navigation and sign-out),
/// and CSRF; public routes before the login redirect, protected after. Every GET also answers HEAD.
func buildRouter(_ services: AppServices) throws -> Router<AppRequestContext> {
    let (config, renderer, logger, clock) = (services.config, services.renderer, services.logger, services.config.clock)
    let router = Router(context: AppRequestContext.self, options: .autoGenerateHeadEndpoints)
    // What the rest of the house types to reach the server, found once.
    let house = HouseAddress.find(host: config.host, port: config.port)

    router.add(middleware: ServerActivityMiddleware(activity: services.activity))
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

    // The API comes before the session: it never reads or sets a cookie and needs no CSRF token.
    addAPIRoutes(to: router, services)

    router.add(
        middleware: SessionMiddleware(
            storage: SQLitePersistDriver(db: services.database, now: clock.now, memo: services.signedIn.sessions),
            configuration: .init(
                sessionCookieParameters: .init(name: "shelfed_session", secure: config.secureCookies, sameSite: .lax),
                defaultSessionExpiration: AccountController.sessionLength)))
    let users = services.users
    router.add(
        middleware: SessionAuthenticator(context: AppRequestContext.self) { (session: UserSession, _) in
            try await users.user(id: session.userID)
        })
    router.add(middleware: LanguageMiddleware(fallback: config.language))
    router.add(middleware: ForYouCountMiddleware(store: services.forYou))
    router.add(middleware: CSRFMiddleware(secureCookies: config.secureCookies))
    router.add(middleware: ErrorPageMiddleware(renderer: renderer, passesUnmatchedPaths: true))
    router.add(middleware: CSRFMiddleware.Check())

    // "ok" for anyone (a monitor, a load test); the doctor's checks as JSON for the signed-in admin (issue 26).
    let doctor = Doctor(config: config)
    router.get(Route.health.routerPath) { request, context -> Response in
        guard request.uri.queryParameters["detail"] == "1" else {
            return Response(
                status: .ok, headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: .init(string: "ok")))
        }
        guard let user = context.identity, user.isAdmin else { throw HTTPError(.notFound) }
        var inside = doctor
        inside.ownMemory = true
        let checks = await inside.run()
        return JSONBody.response(
            Doctor.Report(checks: checks), status: Doctor.exitCode(checks) == 0 ? .ok : .serviceUnavailable)
    }

    AccountController(
        users: users, household: services.household, hasher: services.hasher,
        throttle: services.throttle, signIn: services.signIn,
        renderer: renderer, registration: config.registration, now: clock.now,
        houseAddress: house
    ).addRoutes(to: router)
    LanguageController(users: users).addRoutes(to: router)
    InvitationController(
        household: services.household, users: users, hasher: services.hasher,
        throttle: services.throttle, renderer: renderer, now: clock.now
    ).addRoutes(to: router)

    let signedIn = router.group().add(middleware: LoginRedirectMiddleware()).group(context: SignedInContext.self)
    let (library, photos, media) = (services.library, services.photos, services.media)
    HomeController(
        library: library, renderer: renderer, clock: clock, journal: services.journal,
        readNext: services.readNext,
        showsHousehold: true
    ).addRoutes(to: signedIn)
    HouseChallengeController(
        challenges: services.challenges, users: users, renderer: renderer, clock: clock
    ).addRoutes(to: signedIn)
    SharingController(sharing: services.sharing, renderer: renderer, clock: clock)
        .addRoutes(to: signedIn)
    HousemateController(
        sharing: services.sharing, library: library, renderer: renderer, clock: clock
    ).addRoutes(to: signedIn)
    HouseBookController(sharing: services.sharing, renderer: renderer, clock: clock)
        .addRoutes(to: signedIn)
    ForYouController(store: services.forYou, renderer: renderer, clock: clock)
        .addRoutes(to: signedIn)
    SharedItemsController(
        sharing: services.sharing, lists: services.lists,
        media: media, renderer: renderer, clock: clock
    ).addRoutes(to: signedIn)
    ShelfController(library: library, renderer: renderer, clock: clock).addRoutes(to: signedIn)
    let pages = services.bookPages
    BookController(pages: pages, books: services.books, photos: photos, media: media).addRoutes(to: signedIn)
    WatchedTogetherController(together: WatchedTogetherStore(db: services.database), pages: pages)
        .addRoutes(to: signedIn)
    SeriesController(series: services.series, renderer: renderer).addRoutes(to: signedIn)
    GenresController(library: library, renderer: renderer).addRoutes(to: signedIn)
    ListController(
        lists: services.lists, library: library, renderer: renderer, clock: clock,
        sharing: services.sharing
    ).addRoutes(to: signedIn)
    JournalController(pages: pages, journal: services.journal).addRoutes(to: signedIn)
    DidNotFinishController(pages: pages).addRoutes(to: signedIn)
    EpisodeController(library: library, clock: clock).addRoutes(to: signedIn)
    BookCopyController(pages: pages).addRoutes(to: signedIn)
    LendingController(pages: pages, loans: services.loans, sharing: services.sharing).addRoutes(to: signedIn)
    FilmNightController(
        filmNight: FilmNight(db: services.database, memo: FilmNightMemo(database: services.database)),
        sharing: services.sharing, renderer: renderer, clock: clock
    ).addRoutes(to: signedIn)
    RecommendationController(recommendations: services.recommendations, pages: pages)
        .addRoutes(to: signedIn)
    BorrowRequestController(requests: services.borrowRequests, clock: clock).addRoutes(to: signedIn)
    BookEditController(
        library: library, search: services.search, covers: services.covers, uploader: services.uploader,
        renderer: renderer, clock: clock, maxUploadBytes: config.maxUploadBytes,
        coverWait: config.search.pageWait + .milliseconds(500)
    ).addRoutes(to: signedIn)
    ProfileController(
        library: library, statistics: services.statistics, users: users, photos: photos, uploader: services.uploader,
        renderer: renderer, clock: clock, maxUploadBytes: config.maxUploadBytes,
        challenges: services.challenges
    ).addRoutes(to: signedIn)
    ProfileSettingsController(
        users: users, household: services.household, sharing: services.sharing, hasher: services.hasher, media: media,
        imports: services.imports, renderer: renderer,
        backups: BackupStatus(
            schedule: config.backups, folder: config.backupFolder, runs: services.backupRuns,
            clock: clock, dataDirectory: config.dataDirectory),
        backupRunner: services.backups
    ).addRoutes(to: signedIn)
    DevicesController(keys: services.keys, renderer: renderer).addRoutes(to: signedIn)
    YearReviewController(statistics: services.statistics, renderer: renderer).addRoutes(to: signedIn)
    PhotoController(
        photos: photos, library: library, uploader: services.uploader, renderer: renderer, clock: clock,
        maxUploadBytes: config.maxUploadBytes, textSearch: services.textSearch,
        readsText: config.ocrWorkers > 0 && services.textReader.recognizer.isAvailable,
        sharing: services.sharing
    ).addRoutes(to: signedIn)
    let textSearch = TextSearchController(store: services.textSearch, meaning: services.meaning, renderer: renderer)
    textSearch.addRoutes(to: signedIn)
    FindController(
        textSearch: textSearch, search: services.search, titles: services.titles, library: library,
        history: services.searchHistory,
        renderer: renderer, pageWait: config.search.pageWait, clock: clock
    ).addRoutes(to: signedIn)
    SearchController(
        search: services.search, library: library, books: services.books, textSearch: services.textSearch,
        meaning: services.meaning, history: services.searchHistory, renderer: renderer,
        pageWait: config.search.pageWait, clock: clock
    ).addRoutes(to: signedIn)
    TitleSearchController(
        titles: services.titles, library: library, books: services.books, users: users, renderer: renderer,
        pageWait: config.search.pageWait, clock: clock
    ).addRoutes(to: signedIn)
    TitleMatchController(
        matching: ImportedTitleMatching(db: services.database, titles: services.titles, covers: services.covers),
        renderer: renderer, pageWait: config.search.pageWait, clock: clock
    ).addRoutes(to: signedIn)
    JellyfinController(
        webhook: JellyfinWebhookStore(db: services.database), server: services.jellyfin, users: users,
        renderer: renderer, clock: clock, house: house
    ).addRoutes(to: signedIn)
    JellyfinHistoryController(
        server: services.jellyfin, webhook: JellyfinWebhookStore(db: services.database), imports: services.imports,
        users: users, renderer: renderer, clock: clock
    ).addRoutes(to: signedIn)
    TMDBTokenController(titles: services.titles, users: users, renderer: renderer, clock: clock)
        .addRoutes(to: signedIn)
    ScanController(
        scanner: services.scanner, media: media, renderer: renderer, maxUploadBytes: config.maxUploadBytes,
        library: library, clock: clock
    ).addRoutes(to: signedIn)
    ShelfScanController(
        shelves: services.shelfScans, books: services.books, media: media, renderer: renderer,
        maxUploadBytes: config.maxUploadBytes
    ).addRoutes(to: signedIn)
    let downloads = DataDownloadController(
        database: services.database, users: users, exports: MyDataStore(db: services.database),
        dataDirectory: config.dataDirectory, media: media, clock: clock)
    downloads.addRoutes(to: signedIn)
    HouseholdController(
        household: services.household, users: users, media: media, imports: services.imports,
        renderer: renderer, clock: clock, registration: config.registration, doctor: Doctor(config: config),
        houseURL: config.publicURL ?? house.urls.first.flatMap { house.localOnly ? nil : $0 },
        listensLocallyOnly: house.localOnly
    ).addRoutes(to: signedIn)
    ImportController(
        imports: services.imports, runner: services.importRunner, streams: services.streams, media: media,
        renderer: renderer, clock: clock, matchesTitles: config.matchesImportedTitles, jellyfin: services.jellyfin
    ).addRoutes(to: signedIn)
    return router
}
