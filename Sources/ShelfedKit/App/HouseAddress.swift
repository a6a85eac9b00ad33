import Foundation
import NIOCore

/// The addresses the rest of the house should type to reach this server (issue 26): its Avahi name
/// (`<hostname>.local`) and its home-network IPv4 addresses, shown on the first-run page.
struct HouseAddress: Sendable {
    /// `http://name.local:8080` first, then `http://192.168.1.20:8080` and the like.
    let urls: [String]
    /// Shelfed listens on this machine only (`SHELFED_HOST=127.0.0.1`, `make run`'s default): nobody else can
    /// reach it until it listens on the network.
    let localOnly: Bool

    static func find(host: String, port: Int) -> HouseAddress {
        let localOnly = host == "127.0.0.1" || host == "localhost" || host == "::1"
        let suffix = port == 80 ? "" : ":\(port)"
        var urls: [String] = []
        let name = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? ""
        if !name.isEmpty, name != "localhost", name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) {
            urls.append("http://\(name).local\(suffix)")
        }
        let devices = (try? System.enumerateDevices()) ?? []
        for device in devices {
            guard case .v4 = device.address, let ip = device.address?.ipAddress, !ip.hasPrefix("127.") else {
                continue
            }
            let url = "http://\(ip)\(suffix)"
            if !urls.contains(url) { urls.append(url) }
        }
        return HouseAddress(urls: Array(urls.prefix(4)), localOnly: localOnly)
    }
}
