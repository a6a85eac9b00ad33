import Hummingbird

/// Registers the JSON API (DESIGN §6) on `router`, ahead of the session middleware: API calls carry a key, never
/// a cookie. Every answer goes through `APIResponseMiddleware` (`no-store`, JSON errors).
func addAPIRoutes(to router: Router<AppRequestContext>, _ services: AppServices) {
    let (config, clock) = (services.config, services.config.clock)
    APIDocsController(specFile: config.openAPIFile, renderer: services.renderer).addRoutes(to: router.group())
    let speaking = APILanguageMiddleware<AppRequestContext>(fallback: config.language)
    let api = router.group().add(middleware: speaking).add(middleware: APIResponseMiddleware())
    let reader = ReaderAPIController(
        signIn: services.signIn, keys: services.keys, library: services.library, now: clock.now)
    reader.addPublicRoutes(to: api)
    JellyfinWebhookController(webhook: JellyfinWebhookStore(db: services.database), clock: clock).addRoutes(to: api)
    let keyed = api.group().add(middleware: APIKeyAuthenticator(keys: services.keys, now: clock.now))
        .group(context: APIContext.self)
    reader.addRoutes(to: keyed)
    LibraryAPIController(library: services.library, books: services.books, media: services.media, clock: clock)
        .addRoutes(to: keyed)
    TitlesAPIController(
        titles: services.titles, library: services.library, books: services.books, media: services.media,
        pageWait: config.search.pageWait, clock: clock
    ).addRoutes(to: keyed)
    PhotoAPIController(
        library: services.library, photos: services.photos, media: services.media, uploader: services.uploader,
        clock: clock, maxUploadBytes: config.maxUploadBytes
    ).addRoutes(to: keyed)
    PhotoTouchUpAPIController(photos: services.photos, uploader: services.uploader).addRoutes(to: keyed)
    DidNotFinishAPIController(library: services.library, clock: clock).addRoutes(to: keyed)
    HouseholdAPIController(sharing: services.sharing, recommendations: services.recommendations).addRoutes(to: keyed)
    HouseLendingAPIController(loans: services.loans, library: services.library, clock: clock)
        .addRoutes(to: keyed)
    HouseRecommendationsAPIController(
        recommendations: services.recommendations,
        challenges: services.challenges, library: services.library, clock: clock
    ).addRoutes(to: keyed)
    SimilarAPIController(
        library: services.library, similar: services.embedder == nil ? nil : services.similar
    ).addRoutes(to: keyed)
    ProgressAPIController(library: services.library, journal: services.journal, clock: clock)
        .addRoutes(to: keyed)
    SeriesAPIController(series: services.series).addRoutes(to: keyed)
    ListAPIController(lists: services.lists, library: services.library).addRoutes(to: keyed)
    YearReviewAPIController(statistics: services.statistics).addRoutes(to: keyed)
    RecommendationsAPIController(readNext: services.readNext)
        .addRoutes(to: keyed)
    ProfileAPIController(
        library: services.library, photos: services.photos, statistics: services.statistics, clock: clock
    ).addRoutes(to: keyed)
    ScanAPIController(
        scanner: services.scanner, media: services.media, maxUploadBytes: config.maxUploadBytes,
        textSearch: services.textSearch, shelfScans: services.shelfScans
    ).addRoutes(to: keyed)

    // BooksTrack's paths: its envelope for errors, keyless calls per `SHELFED_API_SEARCH`, limits per minute.
    let booksTrack = router.group().add(middleware: speaking).add(middleware: EnvelopeResponseMiddleware())
        .add(middleware: APIKeyAuthenticator(keys: services.keys, now: clock.now))
        .add(middleware: BooksTrackGate(access: config.apiSearchAccess, limiter: RateLimiter(now: clock.now)))
    SearchAPIController(search: services.search, history: services.searchHistory, now: clock.now)
        .addRoutes(to: booksTrack)
    DiscoveryAPIController(
        search: services.search, meaning: services.meaning, similar: services.similar,
        history: services.searchHistory, now: clock.now
    ).addRoutes(to: booksTrack)
    TrendingAPIController(history: services.searchHistory, now: clock.now).addRoutes(to: booksTrack)
    EnrichAPIController(search: services.search, cache: services.search.cache).addRoutes(to: booksTrack)
    let importAPI = ImportAPIController(
        imports: services.imports, runner: services.importRunner, barcodeJobs: services.barcodeJobs,
        streams: services.streams, keys: services.keys,
        media: services.media, clock: clock)
    importAPI.addRoutes(to: booksTrack)
    // Cancelling takes the job's own token, which is no API key: it is checked by the handler, not the gate.
    importAPI.addCancelRoute(to: router.group().add(middleware: speaking).add(middleware: EnvelopeResponseMiddleware()))
}
