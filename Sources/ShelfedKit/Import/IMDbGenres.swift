import Foundation

extension ScreenImportValues {
    /// IMDb's genre as IMDb writes it in English, from the word an export in the account's language has for it
    /// ("Drammatico" in an Italian export, "Komödie" in a German one): a household's genres stay one list whatever
    /// language each person's IMDb speaks, as TMDB's are kept by their English names. A word IMDb does not use is
    /// kept as written.
    static func imdbGenre(_ name: String) -> String {
        imdbGenres[fold(name)] ?? name
    }

    /// Lower case, without accents, letters only: "Ciencia ficción", "ciencia-ficcion" and "CIENCIA FICCION" are one.
    private static func fold(_ name: String) -> String {
        String(
            name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).unicodeScalars
                .filter { CharacterSet.letters.contains($0) }.map(Character.init))
    }

    /// IMDb's genres (English, as exports in English write them) and their words in Italian, Spanish, German,
    /// French and Portuguese, by folded spelling.
    private static let imdbGenres: [String: String] = {
        let words: [String: [String]] = [
            "Action": ["azione", "accion", "acao"],
            "Adventure": ["avventura", "aventura", "abenteuer", "aventure"],
            "Animation": ["animazione", "animacion", "animacao"],
            "Biography": ["biografico", "biografia", "biografie", "biographie"],
            "Comedy": ["commedia", "comedia", "komodie", "comedie"],
            "Crime": ["poliziesco", "crimen", "policiaco", "policiaca", "krimi", "policier", "crimine", "policial"],
            "Documentary": ["documentario", "documental", "dokumentarfilm", "dokumentation", "documentaire"],
            "Drama": ["drammatico", "dramma", "drame"],
            "Family": ["perfamiglie", "famiglia", "familia", "familie", "famille"],
            "Fantasy": ["fantasia", "fantastique"],
            "Film-Noir": ["cinenegro", "filmnoir", "noir"],
            "Game-Show": ["giocoapremi", "concurso", "spielshow", "jeutelevise", "gameshow"],
            "History": ["storico", "storia", "historia", "historie", "geschichte", "histoire", "historico"],
            "Horror": ["terror", "horreur"],
            "Music": ["musica", "musik", "musique"],
            "Musical": ["comediemusicale"],
            "Mystery": ["mistero", "misterio", "mystere"],
            "News": ["notiziario", "noticias", "nachrichten", "informations", "noticiario"],
            "Reality-TV": ["realitytv", "reality", "telerrealidad", "telerealite"],
            "Romance": ["romantico", "sentimentale", "liebesfilm", "romantik"],
            "Sci-Fi": ["fantascienza", "cienciaficcion", "sciencefiction", "ficcaocientifica"],
            "Short": ["cortometraggio", "cortometraje", "kurzfilm", "courtmetrage", "curtametragem"],
            "Sport": ["deporte", "deportes", "esporte", "esportes"],
            "Talk-Show": ["talkshow"],
            "Thriller": ["suspense", "suspenso"],
            "War": ["guerra", "belica", "belico", "kriegsfilm", "krieg", "guerre"],
            "Western": ["deloeste", "oeste", "faroeste"],
        ]
        var genres: [String: String] = [:]
        for (english, translations) in words {
            genres[fold(english)] = english
            for word in translations { genres[word] = english }
        }
        return genres
    }()
}
