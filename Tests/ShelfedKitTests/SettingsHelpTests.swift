import Foundation
import Testing

@testable import ShelfedKit

/// `shelfed --help` and the README list every setting Shelfed reads, and nothing it does not.
@Suite struct SettingsHelpTests {
    @Test func theHelpListsExactlyTheSettingsThatAreRead() throws {
        let read = AppConfig.namesRead()
        #expect(read.count >= 20)
        #expect(Set(read) == Set(AppConfig.settings.map(\.name)))
        let help = AppConfig.settingsHelp
        for name in read { #expect(help.contains(name + " "), "\(name) is missing from --help") }
    }

    @Test func theReadmeTableListsEverySetting() throws {
        let readme = try String(contentsOf: TestApp.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for setting in AppConfig.settings {
            #expect(readme.contains("| `\(setting.name)` |"), "\(setting.name) is missing from the README's table")
        }
    }
}

extension SettingsHelpTests {
    @Test func theHelpFitsATerminal() {
        for line in AppConfig.settingsHelp.split(separator: "\n") {
            #expect(line.count <= 80, "\(line)")
        }
    }
}

extension SettingsHelpTests {
    /// `SHELFED_CONNECT_TIMEOUT` is read where the outbound client is made, so the start-up check is what refuses a
    /// value it would silently ignore.
    @Test func aConnectTimeoutOutsideItsRangeStopsTheStart() throws {
        for wrong in ["0", "121", "two", "-5", "99999999999999999999"] {
            #expect(throws: AppConfig.InvalidSetting.self, "\(wrong)") {
                try AppConfig.fromEnvironment(["SHELFED_CONNECT_TIMEOUT": wrong])
            }
        }
        for fine in ["1", "30", "120"] { _ = try AppConfig.fromEnvironment(["SHELFED_CONNECT_TIMEOUT": fine]) }
        #expect(AppConfig.namesRead().contains("SHELFED_CONNECT_TIMEOUT"))
    }
}
