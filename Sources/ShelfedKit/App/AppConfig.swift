import Foundation

/// Every setting Shelfed reads at start-up, built once from `SHELFED_*` variables (tests build it directly).
public struct AppConfig: Sendable {
    public enum Registration: String, Sendable {
        /// Anyone who can reach the server may create an account, whatever the admin's switch says.
        case open
        /// Only the first account may be created through the web; later ones join by the admin's invitation links
        /// (or `shelfed user add`) unless the admin opens sign-up on the household page. The default (issue 35).
        case closed
    }

    public var host: String
    public var port: Int
    public var dataDirectory: URL
    public var registration: Registration
    /// Who may call the BooksTrack search and enrich endpoints without an API key (`SHELFED_API_SEARCH`).
    public var apiSearchAccess: APISearchAccess = .lan
    public var secureCookies: Bool
    /// bcrypt cost. 11 takes ~0.15 s on a desktop core and well under a second on a Raspberry Pi 4.
    public var bcryptCost: UInt8
    /// Where templates and static files live; defaults to the folders beside the working directory.
    public var resourcesDirectory: URL
    public var logLevel: String
    public var clock: AppClock
    /// The language of a page when neither the person nor their browser names one Shelfed speaks
    /// (`SHELFED_LANGUAGE`).
    public var language: Language = .en
    public var search: SearchSettings
    /// The most one upload request may carry (`SHELFED_MAX_UPLOAD_MB`).
    public var maxUploadBytes: Int
    /// How many photos are processed at once (`SHELFED_IMAGE_WORKERS`).
    public var imageWorkers: Int
    /// Google Books calls enrichment may make per day (`SHELFED_GOOGLE_DAILY_BUDGET`); 0 uses Open Library only.
    public var googleDailyBudget = 800
    /// tesseract's languages for reading photos, joined by `+` (`SHELFED_OCR_LANGS`, e.g. `eng+deu`).
    public var ocrLanguages = "eng"
    /// Gemini, for reading a shelf from one photo (`SHELFED_GEMINI_API_KEY`, `SHELFED_GEMINI_MODEL`,
    /// `SHELFED_GEMINI_URL`); without a key the feature explains itself and sends nothing.
    public var gemini = GeminiSettings()
    /// Photos read at once by tesseract (`SHELFED_OCR_WORKERS`); each takes a core while it runs. 0 turns the
    /// background reading off (a very small machine); the words can still be typed on each photo's page.
    public var ocrWorkers = 1
    /// Page to screen: what films and shows are based on, asked of Wikidata in the background
    /// (`SHELFED_PAGE_TO_SCREEN=0` turns it off: nothing is asked, pages show only what was kept).
    public var findsAdaptations = true
    /// Imported films and shows matched to a provider in the background (`SHELFED_MATCH_IMPORTED_TITLES=0` turns it
    /// off: they keep what the export said).
    public var matchesImportedTitles = true
    /// The pause between two books enrichment looks up.
    public var enrichmentPause: Duration = .milliseconds(500)
    /// How long a connection may wait for a request's head, or between pieces of its body, before it is closed
    /// (`SHELFED_REQUEST_TIMEOUT`, seconds).
    public var requestTimeout: TimeInterval = 30
    /// Connections served at once (`SHELFED_MAX_CONNECTIONS`); more wait in the kernel's queue for a place
    /// instead of using up the process's file descriptors. By default half of what the descriptor limit allows
    /// (448 under Linux's usual 1,024), keeping the rest for uploads, the database and covers.
    public var maxConnections = AppConfig.connectionsForDescriptorLimit()
    /// The address the household types (`SHELFED_PUBLIC_URL`), for links made to be sent; nil: found at start.
    public var publicURL: String?
    /// The sentence-embedding model's folder (`SHELFED_MODEL_DIR`; by default `models/all-MiniLM-L6-v2` beside the
    /// templates). nil: no search by meaning, keywords only (the tests' default, so only the suites about meaning
    /// load the model).
    public var modelDirectory: URL?
    /// The server's own backups: when, which to keep, and where (`SHELFED_BACKUP_EVERY`, `SHELFED_BACKUP_KEEP`,
    /// `SHELFED_BACKUP_DIR`). Copies taken before a migration go to the same folder.
    public var backups = BackupSchedule()

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        dataDirectory: URL,
        registration: Registration = .closed,
        secureCookies: Bool = false,
        bcryptCost: UInt8 = 11,
        resourcesDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
        logLevel: String = "info",
        clock: AppClock = AppClock(),
        search: SearchSettings = SearchSettings(),
        maxUploadBytes: Int = 25 * 1_048_576,
        imageWorkers: Int = 2
    ) {
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.registration = registration
        self.secureCookies = secureCookies
        self.bcryptCost = bcryptCost
        self.resourcesDirectory = resourcesDirectory
        self.logLevel = logLevel
        self.clock = clock
        self.search = search
        self.maxUploadBytes = maxUploadBytes
        self.imageWorkers = imageWorkers
    }

    static func connectionsForDescriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 448 }
        let descriptors = Int(clamping: min(limit.rlim_cur, 1_000_000))
        return min(4_096, max(8, (descriptors - 128) / 2))
    }

    public var databasePath: String { dataDirectory.appendingPathComponent("shelfed.sqlite").path }
    public var mediaDirectory: URL { dataDirectory.appendingPathComponent("media") }
    public var coversDirectory: URL { dataDirectory.appendingPathComponent("covers") }
    /// Uploaded files of unknown CSV format wait here for their column choices.
    public var importsDirectory: URL { dataDirectory.appendingPathComponent("imports") }
    public var templatesDirectory: String { resourcesDirectory.appendingPathComponent("templates").path }
    /// The message catalogues, `<code>.po` (issue 39).
    public var localesDirectory: URL { resourcesDirectory.appendingPathComponent("locales") }
    public var staticDirectory: String { resourcesDirectory.appendingPathComponent("static").path }
    public var openAPIFile: URL { resourcesDirectory.appendingPathComponent("Resources/openapi.yaml") }
    public var backupFolder: URL { backups.folder ?? dataDirectory.appendingPathComponent("backups") }
}

extension AppConfig {
    /// Reads `SHELFED_*` variables, falling back to the documented defaults.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        throws -> AppConfig
    {
        try fromEnvironment(environment, onRead: nil)
    }

    /// `onRead` hears each name asked for, so a test can hold `settings` (and `--help`) to what is read.
    static func fromEnvironment(_ environment: [String: String], onRead: (@Sendable (String) -> Void)?)
        throws -> AppConfig
    {
        func value(_ name: String) -> String? {
            onRead?(name)
            guard let raw = environment[name]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
            return raw
        }
        var config = AppConfig(dataDirectory: URL(fileURLWithPath: value("SHELFED_DATA_DIR") ?? "./data"))
        if let host = value("SHELFED_HOST") { config.host = host }
        if let port = value("SHELFED_PORT") {
            guard let number = Int(port), (1...65535).contains(number) else {
                throw InvalidSetting(name: "SHELFED_PORT", value: port, expected: "a port number from 1 to 65535")
            }
            config.port = number
        }
        if let registration = value("SHELFED_REGISTRATION") {
            guard let mode = Registration(rawValue: registration.lowercased()) else {
                throw InvalidSetting(name: "SHELFED_REGISTRATION", value: registration, expected: "open or closed")
            }
            config.registration = mode
        }
        if let access = value("SHELFED_API_SEARCH") {
            guard let mode = APISearchAccess(rawValue: access.lowercased()) else {
                throw InvalidSetting(name: "SHELFED_API_SEARCH", value: access, expected: "lan, key or open")
            }
            config.apiSearchAccess = mode
        }
        if let secure = value("SHELFED_SECURE_COOKIES") {
            config.secureCookies = try flag("SHELFED_SECURE_COOKIES", secure)
        }
        if let resources = value("SHELFED_RESOURCES_DIR") {
            config.resourcesDirectory = URL(fileURLWithPath: resources)
        }
        config.modelDirectory = URL(
            fileURLWithPath: value("SHELFED_MODEL_DIR")
                ?? config.resourcesDirectory.appendingPathComponent("models/all-MiniLM-L6-v2").path)
        if let level = value("SHELFED_LOG_LEVEL") { config.logLevel = level }
        for (name, keyPath) in [
            ("SHELFED_GOOGLE_BOOKS_URL", \SearchSettings.googleBooksURL),
            ("SHELFED_OPEN_LIBRARY_URL", \SearchSettings.openLibraryURL),
            ("SHELFED_OPEN_LIBRARY_COVERS_URL", \SearchSettings.openLibraryCoversURL),
            ("SHELFED_TMDB_URL", \SearchSettings.tmdbURL), ("SHELFED_TMDB_IMAGES_URL", \SearchSettings.tmdbImagesURL),
            ("SHELFED_TVMAZE_URL", \SearchSettings.tvmazeURL), ("SHELFED_WIKIDATA_URL", \SearchSettings.wikidataURL),
        ] {
            guard let url = value(name) else { continue }
            guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
                throw InvalidSetting(name: name, value: url, expected: "an http:// or https:// URL")
            }
            config.search[keyPath: keyPath] = url.trimmingSuffix("/")
        }
        config.search.googleBooksAPIKey = value("SHELFED_GOOGLE_BOOKS_API_KEY")
        if let token = value("SHELFED_TMDB_TOKEN") {
            guard TMDBClient.isPlausibleToken(token) else {
                throw InvalidSetting(
                    name: "SHELFED_TMDB_TOKEN", value: "…",
                    expected: "TMDB's API read access token, as its settings show it")
            }
            config.search.tmdbToken = token
        }
        if let megabytes = value("SHELFED_MAX_UPLOAD_MB") {
            guard let number = Int(megabytes), (1...1024).contains(number) else {
                throw InvalidSetting(
                    name: "SHELFED_MAX_UPLOAD_MB", value: megabytes, expected: "a whole number of MB, 1 to 1024")
            }
            config.maxUploadBytes = number * 1_048_576
        }
        if let workers = value("SHELFED_IMAGE_WORKERS") {
            guard let number = Int(workers), (1...16).contains(number) else {
                throw InvalidSetting(name: "SHELFED_IMAGE_WORKERS", value: workers, expected: "a number from 1 to 16")
            }
            config.imageWorkers = number
        }
        if let calls = value("SHELFED_GOOGLE_DAILY_BUDGET") {
            guard let number = BoundedNumber.parse(calls, in: 0...1_000_000) else {
                throw InvalidSetting(
                    name: "SHELFED_GOOGLE_DAILY_BUDGET", value: calls, expected: "a number of calls a day, 0 to 1000000"
                )
            }
            config.googleDailyBudget = number
        }
        if let languages = value("SHELFED_OCR_LANGS") {
            guard TextRecognizer.isValidLanguageList(languages) else {
                throw InvalidSetting(
                    name: "SHELFED_OCR_LANGS", value: languages,
                    expected: "tesseract language codes joined by +, such as eng or eng+deu")
            }
            config.ocrLanguages = languages
        }
        config.gemini.apiKey = value("SHELFED_GEMINI_API_KEY")
        if let model = value("SHELFED_GEMINI_MODEL") {
            guard (1...80).contains(model.utf8.count),
                model.utf8.allSatisfy({
                    (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x2E
                })
            else {
                throw InvalidSetting(
                    name: "SHELFED_GEMINI_MODEL", value: model, expected: "a model name such as gemini-2.5-flash")
            }
            config.gemini.model = model
        }
        if let url = value("SHELFED_GEMINI_URL") {
            guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
                throw InvalidSetting(name: "SHELFED_GEMINI_URL", value: url, expected: "an http:// or https:// URL")
            }
            config.gemini.baseURL = url.trimmingSuffix("/")
        }
        if let workers = value("SHELFED_OCR_WORKERS") {
            guard let number = BoundedNumber.parse(workers, in: 0...8) else {
                throw InvalidSetting(
                    name: "SHELFED_OCR_WORKERS", value: workers, expected: "a number from 0 (off) to 8")
            }
            config.ocrWorkers = number
        }
        if let pageToScreen = value("SHELFED_PAGE_TO_SCREEN") {
            config.findsAdaptations = try flag("SHELFED_PAGE_TO_SCREEN", pageToScreen)
        }
        if let matching = value("SHELFED_MATCH_IMPORTED_TITLES") {
            config.matchesImportedTitles = try flag("SHELFED_MATCH_IMPORTED_TITLES", matching)
        }
        if let seconds = value("SHELFED_REQUEST_TIMEOUT") {
            guard let number = BoundedNumber.parse(seconds, in: 1...600) else {
                throw InvalidSetting(name: "SHELFED_REQUEST_TIMEOUT", value: seconds, expected: "seconds, 1 to 600")
            }
            config.requestTimeout = TimeInterval(number)
        }
        if let connections = value("SHELFED_MAX_CONNECTIONS") {
            guard let number = BoundedNumber.parse(connections, in: 8...10_000) else {
                throw InvalidSetting(
                    name: "SHELFED_MAX_CONNECTIONS", value: connections, expected: "a number from 8 to 10000")
            }
            config.maxConnections = number
        }
        if let url = value("SHELFED_PUBLIC_URL") {
            guard let clean = Self.publicURL(url) else {
                throw InvalidSetting(
                    name: "SHELFED_PUBLIC_URL", value: url,
                    expected: "an address such as http://pi.local:8080 or https://books.example.org")
            }
            config.publicURL = clean
        }
        if let folder = value("SHELFED_BACKUP_DIR") { config.backups.folder = URL(fileURLWithPath: folder) }
        if let every = value("SHELFED_BACKUP_EVERY") {
            guard let parsed = BackupSchedule.parseEvery(every) else {
                throw InvalidSetting(
                    name: "SHELFED_BACKUP_EVERY", value: every,
                    expected: "off, daily, daily@HH:MM, or an interval such as 6h, 30m or 90s")
            }
            config.backups.every = parsed
        }
        if let keep = value("SHELFED_BACKUP_KEEP") {
            guard let parsed = BackupSchedule.parseKeep(keep) else {
                throw InvalidSetting(
                    name: "SHELFED_BACKUP_KEEP", value: keep,
                    expected: "daily+weekly backups to keep, such as 7+4, or a number of the newest to keep")
            }
            config.backups.keep = parsed
        }
        if let code = value("SHELFED_LANGUAGE") {
            guard let language = Language(tag: code) else {
                throw InvalidSetting(
                    name: "SHELFED_LANGUAGE", value: code,
                    expected: Language.allCases.map(\.rawValue).joined(separator: ", "))
            }
            config.language = language
        }
        if let zone = value("SHELFED_TIMEZONE") {
            guard let timeZone = TimeZone(identifier: zone) else {
                throw InvalidSetting(
                    name: "SHELFED_TIMEZONE", value: zone, expected: "a zone name such as Europe/Berlin")
            }
            config.clock = AppClock(timeZone: timeZone)
        }
        if let problem = config.backupPlaceProblem(config.backupFolder) {
            throw InvalidSetting(name: "SHELFED_BACKUP_DIR", value: config.backupFolder.path, expected: problem)
        }
        return config
    }
}
