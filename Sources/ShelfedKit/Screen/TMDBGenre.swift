/// A genre in a TMDB answer. TMDB names genres in the language it was asked in, and a household's titles are added
/// by people who read Shelfed in different languages, so the name kept is English's, found by the genre's id: the
/// genre filters then hold "Science Fiction" once, not beside "Ciencia ficción". A genre TMDB adds later keeps the
/// name it came with.
struct TMDBGenre: Decodable {
    let id: Int?
    let name: String?

    var englishName: String? { id.flatMap { Self.english[$0] } ?? name }

    /// TMDB's film and TV genres (`/genre/movie/list`, `/genre/tv/list`), as TMDB names them in English.
    static let english: [Int: String] = [
        28: "Action", 12: "Adventure", 16: "Animation", 35: "Comedy", 80: "Crime", 99: "Documentary", 18: "Drama",
        10751: "Family", 14: "Fantasy", 36: "History", 27: "Horror", 10402: "Music", 9648: "Mystery",
        10749: "Romance", 878: "Science Fiction", 10770: "TV Movie", 53: "Thriller", 10752: "War", 37: "Western",
        10759: "Action & Adventure", 10762: "Kids", 10763: "News", 10764: "Reality", 10765: "Sci-Fi & Fantasy",
        10766: "Soap", 10767: "Talk", 10768: "War & Politics",
    ]
}
