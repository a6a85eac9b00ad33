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
    /// How long an answer kept between requests (`CommitMemo`: the session and account a page reads, More like this)
    /// may stand for a change this server did not make itself, such as the command line's. Its own changes are seen at
    /// once.
    public var memoLifetime: Duration = .seconds(10)
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
