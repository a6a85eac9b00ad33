import AsyncHTTPClient
import Foundation
import GRDB
import Logging

/// The doctor's checks of the services Shelfed calls out to: Google Books (and today's enrichment allowance), Open
/// Library and Gemini, each asked once with a five-second limit (`providerWait`).
extension Doctor {
    func googleBooks() async -> Check {
        let name = "Google Books"
        var url = config.search.googleBooksURL + "/volumes?q=isbn:9780140449136&maxResults=1"
        if let key = config.search.googleBooksAPIKey { url += "&key=" + Paths.queryEscape(key) }
        let budget = budgetLeft().map { ", \($0) of today's \(config.googleDailyBudget) enrichment calls left" } ?? ""
        switch await status(of: url) {
        case .some(200):
            return .ok(
                name, "answers" + (config.search.googleBooksAPIKey == nil ? " (no key)" : ", key valid") + budget)
        case .some(400) where config.search.googleBooksAPIKey != nil, .some(401):
            return Check(
                name: name, status: .problem, detail: "Google refuses the API key.",
                fix: "Check SHELFED_GOOGLE_BOOKS_API_KEY in the Google Cloud console (Books API enabled), or remove it."
            )
        case .some(429), .some(403):
            return Check(
                name: name, status: .warning, detail: "Google answers, but today's quota is used up" + budget + ".",
                fix: "It comes back at midnight Pacific time; your own key (SHELFED_GOOGLE_BOOKS_API_KEY) has its own.")
        case .some(let code):
            return Check(
                name: name, status: .warning, detail: "Google Books answers \(code).",
                fix: "Try again later; search falls back to Open Library and your own library meanwhile.")
        case .none:
            return Check(
                name: name, status: .problem, detail: "\(config.search.googleBooksURL) cannot be reached.",
                fix: "Check the server's internet connection (and SHELFED_GOOGLE_BOOKS_URL); meanwhile search answers "
                    + "from the cache and the library.")
        }
    }

    func openLibrary() async -> Check {
        let name = "Open Library"
        switch await status(of: config.search.openLibraryURL + "/isbn/9780140449136.json") {
        case .some(let code) where code < 500:
            return .ok(name, "answers")
        case .some(let code):
            return Check(
                name: name, status: .warning, detail: "Open Library answers \(code).",
                fix: "It is often briefly down; try again later.")
        case .none:
            return Check(
                name: name, status: .problem, detail: "\(config.search.openLibraryURL) cannot be reached.",
                fix: "Check the server's internet connection (and SHELFED_OPEN_LIBRARY_URL).")
        }
    }

    func gemini() async -> Check {
        let name = "Gemini (reading a shelf)"
        guard let key = config.gemini.apiKey else { return .ok(name, "off: no SHELFED_GEMINI_API_KEY") }
        switch await status(of: config.gemini.baseURL + "/v1beta/models?key=" + Paths.queryEscape(key)) {
        case .some(200): return .ok(name, "the key works")
        case .some(400), .some(401), .some(403):
            return Check(
                name: name, status: .problem, detail: "Gemini refuses the key.",
                fix: "Make a new key at aistudio.google.com and put it in SHELFED_GEMINI_API_KEY.")
        case .some(let code):
            return Check(
                name: name, status: .warning, detail: "Gemini answers \(code).", fix: "Try again later.")
        case .none:
            return Check(
                name: name, status: .problem, detail: "\(config.gemini.baseURL) cannot be reached.",
                fix: "Check the server's internet connection (and SHELFED_GEMINI_URL).")
        }
    }

    /// The HTTP status of a GET, or nil when nothing answered within `providerWait`.
    func status(of url: String, headers: [(String, String)] = []) async -> Int? {
        do {
            var request = HTTPClientRequest(url: url)
            request.headers.add(name: "User-Agent", value: "Shelfed doctor")
            request.headers.add(contentsOf: headers)
            let response = try await http.execute(request, timeout: providerWait)
            _ = try? await response.body.collect(upTo: 1 << 20)
            return Int(response.status.code)
        } catch {
            // The check says "cannot be reached"; the log says how (refused, timed out, closed). Not the address:
            // it may carry an API key.
            Logger(label: "shelfed.doctor").notice("A provider check failed: \(String(describing: error).prefix(200))")
            return nil
        }
    }

    /// TMDB with the household's token (typed in Settings, else `SHELFED_TMDB_TOKEN`); without one, TVmaze, which
    /// then answers for shows (Wikidata's films need nothing checked beyond the internet connection).
    func filmsAndShows() async -> Check {
        let name = "Films and TV shows"
        guard let token = householdSetting("tmdb_token") ?? config.search.tmdbToken else {
            switch await status(of: config.search.tvmazeURL + "/shows/1") {
            case .some(let code) where code < 500:
                return .ok(name, "no TMDB token: shows from TVmaze, films from Wikidata (no posters)")
            case .some(let code):
                return Check(
                    name: name, status: .warning, detail: "TVmaze answers \(code).", fix: "Try again later.")
            case .none:
                return Check(
                    name: name, status: .warning, detail: "\(config.search.tvmazeURL) cannot be reached.",
                    fix: "Check the server's internet connection (and SHELFED_TVMAZE_URL).")
            }
        }
        let url: String
        var headers: [(String, String)] = []
        if TMDBClient.isV3Key(token) {
            url = config.search.tmdbURL + "/configuration?api_key=" + Paths.queryEscape(token)
        } else {
            url = config.search.tmdbURL + "/configuration"
            headers.append(("Authorization", "Bearer " + token))
        }
        switch await status(of: url, headers: headers) {
        case .some(200): return .ok(name, "TMDB accepts the household's token")
        case .some(401):
            return Check(
                name: name, status: .problem, detail: "TMDB refuses the household's token.",
                fix: "Copy the \"API Read Access Token\" from themoviedb.org → Settings → API into Settings → TMDB "
                    + "(or SHELFED_TMDB_TOKEN). Meanwhile shows come from TVmaze and films from Wikidata.")
        case .some(let code):
            return Check(name: name, status: .warning, detail: "TMDB answers \(code).", fix: "Try again later.")
        case .none:
            return Check(
                name: name, status: .problem, detail: "\(config.search.tmdbURL) cannot be reached.",
                fix: "Check the server's internet connection (and SHELFED_TMDB_URL).")
        }
    }

    /// A value the admin set in the app (`household_setting`), read without opening the database for writing.
    func householdSetting(_ key: String) -> String? {
        guard FileManager.default.fileExists(atPath: config.databasePath) else { return nil }
        var configuration = Configuration()
        configuration.readonly = true
        let value = try? DatabaseQueue(path: config.databasePath, configuration: configuration).read { db in
            try String.fetchOne(db, sql: "SELECT value FROM household_setting WHERE key = ?", arguments: [key])
        }
        return value ?? nil
    }

    func budgetLeft() -> Int? {
        guard FileManager.default.fileExists(atPath: config.databasePath) else { return nil }
        var configuration = Configuration()
        configuration.readonly = true
        let used = try? DatabaseQueue(path: config.databasePath, configuration: configuration).read { db in
            try Int.fetchOne(
                db, sql: "SELECT calls FROM google_budget WHERE day = ?",
                arguments: [GoogleBudget.day(of: config.clock.now())])
        }
        return max(0, config.googleDailyBudget - ((used ?? nil) ?? 0))
    }
}

extension Doctor {
    /// The household's Jellyfin server, when the admin linked one: reachable, and the API key still accepted.
    func jellyfinServer() async -> Check? {
        guard let url = householdSetting(JellyfinServer.urlKey), let key = householdSetting(JellyfinServer.apiKeyKey)
        else { return nil }
        let name = "Jellyfin server"
        switch await status(of: url + "/System/Info", headers: [("Authorization", "MediaBrowser Token=\"\(key)\"")]) {
        case .some(200): return .ok(name, "\(url) accepts the household's API key")
        case .some(401), .some(403):
            return Check(
                name: name, status: .problem, detail: "Jellyfin at \(url) refuses the API key.",
                fix: "Make a key in Jellyfin (Dashboard → API Keys → +) and save it in Household → Jellyfin.")
        case .some(let code):
            return Check(
                name: name, status: .warning, detail: "\(url) answers \(code), not as Jellyfin does.",
                fix: "Check the address in Household → Jellyfin: the one you open Jellyfin at.")
        case .none:
            return Check(
                name: name, status: .warning, detail: "\(url) cannot be reached.",
                fix: "Is Jellyfin running? Members cannot bring in what they played until it answers.")
        }
    }
}
