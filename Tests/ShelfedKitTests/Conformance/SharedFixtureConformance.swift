import Testing

/// Shelfed checked against the team's real recordings in `../shared/fixtures`: the importer over real tracker
/// exports, the providers' decoders over real Google Books and Open Library answers, the Gemini mapping over real
/// Gemini answers and the photo pipeline over real phone photos. Every expectation was written from reading those
/// files (see their SOURCES.md). The rest of the suite runs on files the project made (`Tests/Fixtures/`).
@Suite struct SharedFixtureConformance {}
