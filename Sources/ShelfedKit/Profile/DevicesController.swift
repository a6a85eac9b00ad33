import Foundation
import Hummingbird

/// Profile settings → Devices: every API key the user has made (one per phone or app), and revoking one.
struct DevicesController: Sendable {
    let keys: APIKeyStore
    let renderer: PageRenderer

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.devices.routerPath, use: index)
        router.post(Route.deviceRevoke.routerPath, use: revoke)
    }

    /// GET /profile/devices
    @Sendable func index(_ request: Request, context: SignedInContext) async throws -> HTML {
        let devices = try await keys.devices(of: context.userID)
        let revoked = request.uri.queryParameters["revoked"].map(String.init)
        let notice =
            revoked == nil ? nil : localized("That device's key is revoked. The app on it has to sign in again.")
        return try renderer.render(
            DevicesPage(context: context, devices: devices, notice: notice), template: "profile/devices")
    }

    /// POST /profile/devices/:deviceID/revoke: the key stops working with the next request.
    @Sendable func revoke(_ request: Request, context: SignedInContext) async throws -> Response {
        guard let id = BoundedNumber.id(context.parameters.get("deviceID")),
            try await keys.revoke(id: id, of: context.userID)
        else {
            throw HTTPError(
                .notFound, message: localized("That device is not in your list. It may have been revoked already."))
        }
        return .seeOther(Paths.devices + "?revoked=1")
    }
}

/// `profile/devices`
struct DevicesPage: Sendable {
    struct Device: Sendable {
        let label: String
        let created: String
        let lastUsed: String
        let revokePath: String
    }

    let chrome: PageChrome
    let devices: [Device]
    /// Stored, not computed: Mustache reads properties by reflection.
    let hasDevices: Bool

    init(context: SignedInContext, devices: [APIDevice], notice: String?) {
        chrome = PageChrome(title: localized("Devices"), context: context, tab: .profile, notice: notice)
        var format = Date.FormatStyle(date: .abbreviated, time: .shortened, timeZone: TimeZone(identifier: "UTC")!)
        // English keeps the server's own way of writing dates; the other languages write them their way.
        if Language.current != .en { format.locale = Language.current.locale }
        self.devices = devices.map { device in
            Device(
                label: device.label, created: device.createdAt.formatted(format) + " UTC",
                lastUsed: device.lastUsedAt.map { $0.formatted(format) + " UTC" } ?? localized("Never"),
                revokePath: Paths.deviceRevoke(device.id))
        }
        hasDevices = !devices.isEmpty
    }
}
