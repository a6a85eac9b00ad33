/// Where the book providers live and how patiently to ask them; tests point the URLs at local fakes.
public struct SearchSettings: Sendable {
    public var googleBooksURL: String
    public var googleBooksAPIKey: String?
    public var openLibraryURL: String
    public var openLibraryCoversURL: String
    /// Films and shows (DESIGN §17): TMDB with the household's own token, TVmaze and Wikidata without one.
    public var tmdbURL = "https://api.themoviedb.org/3"
    public var tmdbImagesURL = "https://image.tmdb.org/t/p"
    public var tmdbToken: String? = nil
    public var tvmazeURL = "https://api.tvmaze.com"
    public var wikidataURL = "https://www.wikidata.org"
    /// For each call, including reading the body.
    public var timeout: Duration
    /// How long the search page waits for the providers before answering from the cache and the library; the
    /// search goes on behind it and fills the cache for the next try.
    public var pageWait: Duration
    public var retry: RetryPolicy
    /// A larger answer is refused rather than read into memory.
    public var maxBodyBytes: Int
    public var maxCoverBytes: Int
    public var breakerThreshold: Int
    public var breakerCoolDown: Double

    public init(
        googleBooksURL: String = "https://www.googleapis.com/books/v1", googleBooksAPIKey: String? = nil,
        openLibraryURL: String = "https://openlibrary.org",
        openLibraryCoversURL: String = "https://covers.openlibrary.org", timeout: Duration = .seconds(5),
        pageWait: Duration = .milliseconds(2_500),
        retry: RetryPolicy = RetryPolicy(), maxBodyBytes: Int = 2 * 1024 * 1024, maxCoverBytes: Int = 5 * 1024 * 1024,
        breakerThreshold: Int = 5, breakerCoolDown: Double = 60
    ) {
        self.googleBooksURL = googleBooksURL.trimmingSuffix("/")
        self.googleBooksAPIKey = googleBooksAPIKey
        self.openLibraryURL = openLibraryURL.trimmingSuffix("/")
        self.openLibraryCoversURL = openLibraryCoversURL.trimmingSuffix("/")
        self.timeout = timeout
        self.pageWait = pageWait
        self.retry = retry
        self.maxBodyBytes = maxBodyBytes
        self.maxCoverBytes = maxCoverBytes
        self.breakerThreshold = breakerThreshold
        self.breakerCoolDown = breakerCoolDown
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
