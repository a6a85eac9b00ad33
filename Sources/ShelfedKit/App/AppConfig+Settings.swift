import Synchronization

extension AppConfig {
    /// A setting that could not be understood, naming the variable so the message says what to fix.
    public struct InvalidSetting: Error, CustomStringConvertible {
        public let name: String
        public let value: String
        public let expected: String
        public var description: String { "\(name)=\(value) is not valid: expected \(expected)." }
    }

    /// One `SHELFED_*` variable and what it does, as `shelfed --help` lists it.
    public struct Setting: Sendable {
        public let name: String
        public let meaning: String
    }

    /// Every setting `fromEnvironment` reads, in the order of the README's table (a test keeps the two lists equal).
    public static let settings: [Setting] = [
        Setting(name: "SHELFED_HOST", meaning: "listen address (127.0.0.1; 0.0.0.0 = LAN)"),
        Setting(name: "SHELFED_PORT", meaning: "port (8080)"),
        Setting(name: "SHELFED_DATA_DIR", meaning: "database, photos, covers (./data)"),
        Setting(name: "SHELFED_REGISTRATION", meaning: "closed | open (closed: by invitation)"),
        Setting(name: "SHELFED_SECURE_COOKIES", meaning: "true behind HTTPS (false)"),
        Setting(name: "SHELFED_LANGUAGE", meaning: "en|es|de|fr|it|pt when none is chosen (en)"),
        Setting(name: "SHELFED_TIMEZONE", meaning: "household time zone (system's)"),
        Setting(name: "SHELFED_BACKUP_DIR", meaning: "where backups go (DATA_DIR/backups)"),
        Setting(name: "SHELFED_BACKUP_EVERY", meaning: "off | daily | daily@HH:MM | 6h (daily@03:30)"),
        Setting(name: "SHELFED_BACKUP_KEEP", meaning: "daily+weekly kept, or newest N (7+4)"),
        Setting(name: "SHELFED_GOOGLE_BOOKS_URL", meaning: "Google Books API base"),
        Setting(name: "SHELFED_GOOGLE_BOOKS_API_KEY", meaning: "own Google Books quota (none)"),
        Setting(name: "SHELFED_OPEN_LIBRARY_URL", meaning: "Open Library base"),
        Setting(name: "SHELFED_OPEN_LIBRARY_COVERS_URL", meaning: "Open Library covers base"),
        Setting(name: "SHELFED_TMDB_TOKEN", meaning: "TMDB token for films, shows (none)"),
        Setting(name: "SHELFED_TMDB_URL", meaning: "TMDB API base"),
        Setting(name: "SHELFED_TMDB_IMAGES_URL", meaning: "TMDB posters base"),
        Setting(name: "SHELFED_TVMAZE_URL", meaning: "TVmaze API base"),
        Setting(name: "SHELFED_WIKIDATA_URL", meaning: "Wikidata base"),
        Setting(name: "SHELFED_MAX_UPLOAD_MB", meaning: "largest photo upload (25)"),
        Setting(name: "SHELFED_IMAGE_WORKERS", meaning: "photos processed at once (2)"),
        Setting(name: "SHELFED_GOOGLE_DAILY_BUDGET", meaning: "Google lookups a day for imports (800)"),
        Setting(name: "SHELFED_OCR_LANGS", meaning: "languages read in photos: eng+deu (eng)"),
        Setting(name: "SHELFED_OCR_WORKERS", meaning: "photos read at once; 0 = off (1)"),
        Setting(name: "SHELFED_PAGE_TO_SCREEN", meaning: "ask Wikidata what films are based on (1)"),
        Setting(name: "SHELFED_MATCH_IMPORTED_TITLES", meaning: "match imported films to a provider (1)"),
        Setting(name: "SHELFED_GEMINI_API_KEY", meaning: "reads a shelf from one photo (none: off)"),
        Setting(name: "SHELFED_GEMINI_MODEL", meaning: "shelf-reading model (gemini-2.5-flash)"),
        Setting(name: "SHELFED_GEMINI_URL", meaning: "Gemini API base"),
        Setting(name: "SHELFED_REQUEST_TIMEOUT", meaning: "seconds a request may stall (30)"),
        Setting(name: "SHELFED_CONNECT_TIMEOUT", meaning: "seconds to reach a provider (2)"),
        Setting(name: "SHELFED_PUBLIC_URL", meaning: "address in invitation links (pi.local)"),
        Setting(name: "SHELFED_MAX_CONNECTIONS", meaning: "connections at once (half the fd limit)"),
        Setting(name: "SHELFED_API_SEARCH", meaning: "keyless search API: lan | key | open (lan)"),
        Setting(name: "SHELFED_LOG_LEVEL", meaning: "trace … critical (info)"),
        Setting(name: "SHELFED_RESOURCES_DIR", meaning: "templates/ and static/ folder (cwd)"),
        Setting(name: "SHELFED_MODEL_DIR", meaning: "meaning model (models/all-MiniLM-L6-v2)"),
    ]

    /// The settings as `shelfed --help` shows them: one a line, names aligned, within 80 columns.
    public static var settingsHelp: String {
        let width = (settings.map(\.name.count).max() ?? 0) + 2
        return settings.map { setting in
            "  " + setting.name + String(repeating: " ", count: max(1, width - setting.name.count)) + setting.meaning
        }.joined(separator: "\n")
    }

    /// `/etc/shelfed/shelfed.env` as `make install` writes it: every setting, commented out, with what it does; the
    /// unit itself sets the data and resources folders and listens on the LAN.
    public static var environmentFile: String {
        var lines = [
            "# Shelfed's settings, read by the shelfed service at start. Uncomment a line and give it a value,",
            "# then `sudo systemctl restart shelfed`. README.md explains each one; `shelfed --help` lists them.",
            "# The service already sets SHELFED_DATA_DIR, SHELFED_RESOURCES_DIR and SHELFED_HOST=0.0.0.0.",
            "",
        ]
        for setting in settings {
            lines.append("# \(setting.meaning)")
            lines.append("#\(setting.name)=")
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// A setting that is on or off: 1, true, yes, on, or 0, false, no, off.
    static func flag(_ name: String, _ text: String) throws -> Bool {
        switch text.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw InvalidSetting(name: name, value: text, expected: "true or false (1 or 0)")
        }
    }

    /// The names `fromEnvironment` asks for, found by running it on an empty environment.
    static func namesRead() -> [String] {
        let names = Mutex<[String]>([])
        _ = try? fromEnvironment([:], onRead: { name in names.withLock { $0.append(name) } })
        return names.withLock { $0 }
    }
}
