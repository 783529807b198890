#pragma once
// cohort-hub's update notices: the client versions it advertises to nodes and the oldest it works with
// (core/ClientRelease). Checked here with the words of the options, so a typo stops the hub before it starts.
#include "hub/HubService.h"

#include <QCommandLineParser>

namespace cohort::hubcli {

class ClientOptions {
public:
    void addTo(QCommandLineParser &parser);
    // Fills config->clientRelease; returns an error message for a bad value (exit status 2).
    QString apply(const QCommandLineParser &parser, HubConfig *config) const;

private:
    QCommandLineOption m_latest{
        QStringLiteral("client-latest"),
        QStringLiteral(
            "The newest Cohort version, e.g. 0.2.0: nodes running an older one say \"Cohort 0.2.0 is available\"."),
        QStringLiteral("version")};
    QCommandLineOption m_minimum{QStringLiteral("client-minimum"),
                                 QStringLiteral("The oldest Cohort version this hub works with: older nodes are "
                                                "refused (426 upgrade_required) and stop with the reason."),
                                 QStringLiteral("version")};
    QCommandLineOption m_downloadUrl{
        QStringLiteral("client-download-url"),
        QStringLiteral("Where nodes download the newest version (an https:// or http:// address), shown as a link."),
        QStringLiteral("url")};
};

} // namespace cohort::hubcli
