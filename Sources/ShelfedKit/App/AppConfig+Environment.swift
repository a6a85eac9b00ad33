import Foundation

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
        if let seconds = value("SHELFED_CONNECT_TIMEOUT"),
            BoundedNumber.parse(seconds, in: OutboundHTTP.connectTimeoutRange) == nil
        {
            throw InvalidSetting(name: "SHELFED_CONNECT_TIMEOUT", value: seconds, expected: "seconds, 1 to 120")
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
