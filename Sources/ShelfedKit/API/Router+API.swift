import Hummingbird

/// Registers the JSON API (DESIGN §6) on `router`, ahead of the session middleware: API calls carry a key, never
/// a cookie. Every answer goes through `APIResponseMiddleware` (`no-store`, JSON errors).
func addAPIRoutes(
    to router: Router<AppRequestContext>, config: AppConfig, signIn: SignInService, keys: APIKeyStore,
    library: LibraryStore
) throws {
    let clock = config.clock
    let api = router.group().add(middleware: APIResponseMiddleware())
    let reader = ReaderAPIController(signIn: signIn, keys: keys, library: library, now: clock.now)
    reader.addPublicRoutes(to: api)
    let keyed = api.group().add(middleware: APIKeyAuthenticator(keys: keys, now: clock.now))
    reader.addRoutes(to: keyed.group(context: APIContext.self))
}
