import Foundation

/// `import/index`: the upload form and past imports.
struct ImportIndexPage: Sendable {
    struct PastJob: Sendable {
        let path: String
        let fileName: String
        let format: String
        let when: String
        let status: String
        let counts: String
    }

    let chrome: PageChrome
    let error: String?
    let jobs: [PastJob]
    let hasJobs: Bool
    let maxMegabytes = 20
    /// Bringing in what one played in the house's Jellyfin, when the admin linked a server.
    var jellyfin: JellyfinSection? = nil

    struct JellyfinSection: Sendable {
        let formPath: String
        var notice: String? = nil
        var problem: String? = nil
    }

    init(context: SignedInContext, jobs: [ImportJob], error: String?) {
        chrome = PageChrome(title: localized("Import"), context: context, tab: .profile)
        self.error = error
        self.jobs = jobs.map { job in
            PastJob(
                path: Paths.importJob(job.id), fileName: job.fileName, format: job.format.displayName,
                when: ImportJobPage.format(job.createdAt), status: ImportJobPage.statusText(job.status),
                counts: ImportJobPage.counts(job))
        }
        hasJobs = !jobs.isEmpty
    }
}
