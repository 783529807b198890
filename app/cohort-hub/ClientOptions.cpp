#include "ClientOptions.h"

namespace cohort::hubcli {

void ClientOptions::addTo(QCommandLineParser &parser)
{
    parser.addOptions({m_latest, m_minimum, m_downloadUrl});
}

QString ClientOptions::apply(const QCommandLineParser &parser, HubConfig *config) const
{
    ClientRelease release;
    release.latest = parser.value(m_latest).trimmed();
    release.minimum = parser.value(m_minimum).trimmed();
    release.downloadUrl = parser.value(m_downloadUrl).trimmed();
    for (const auto &[option, version] : {std::pair{&m_latest, release.latest}, std::pair{&m_minimum, release.minimum}})
        if (parser.isSet(*option) && !isVersion(version))
            return QStringLiteral("--%1: '%2' is not a version (up to 4 numbers with dots, like 0.2.0)")
                .arg(option->names().constFirst(), version.left(kMaxVersionLength));
    if (!release.latest.isEmpty() && !release.minimum.isEmpty() &&
        *compareVersions(release.minimum, release.latest) > 0)
        return QStringLiteral("--client-minimum %1 is newer than --client-latest %2")
            .arg(release.minimum, release.latest);
    if (parser.isSet(m_downloadUrl)) {
        if (const QString problem = downloadUrlProblem(release.downloadUrl); !problem.isEmpty())
            return QStringLiteral("--client-download-url: %1").arg(problem);
        if (release.latest.isEmpty() && release.minimum.isEmpty())
            return QStringLiteral(
                "--client-download-url needs --client-latest or --client-minimum (the version to download)");
    }
    // Whatever passed here passes the hub's own check (HubService::start) and every node's parser.
    if (const QString problem = clientReleaseProblem(release); !problem.isEmpty())
        return QStringLiteral("client versions: %1").arg(problem);
    config->clientRelease = release;
    return {};
}

} // namespace cohort::hubcli
