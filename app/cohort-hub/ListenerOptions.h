#pragma once
// cohort-hub's options for facing strangers: connection caps and deadlines of the API and relay, the host names
// it answers (net/ConnectionGate, net/HostCheck), the registration rate and the operator's token.
#include "hub/HubService.h"

#include <QCommandLineParser>

namespace cohort::hubcli {

class ListenerOptions {
public:
    void addTo(QCommandLineParser &parser);
    // Fills config's limits and names; returns an error message for a bad value (exit status 2).
    QString apply(const QCommandLineParser &parser, HubConfig *config) const;

private:
    QCommandLineOption m_maxConnections{
        QStringLiteral("max-connections"),
        QStringLiteral("Connections the API accepts at once (default 1024; the relay: a quarter)."),
        QStringLiteral("n")};
    QCommandLineOption m_perSource{
        QStringLiteral("max-connections-per-source"),
        QStringLiteral("Connections from one IPv4 address or IPv6 /64 (default 64; the relay: 16)."),
        QStringLiteral("n")};
    QCommandLineOption m_headerTimeout{QStringLiteral("header-timeout"),
                                       QStringLiteral("Seconds a client may take to send a request head (default 10)."),
                                       QStringLiteral("seconds")};
    QCommandLineOption m_idleTimeout{QStringLiteral("idle-timeout"),
                                     QStringLiteral("Seconds a connection may stay silent (default 60)."),
                                     QStringLiteral("seconds")};
    QCommandLineOption m_operatorToken{
        QStringLiteral("operator-token-file"),
        QStringLiteral("File holding the operator's token (32+ characters): 'Authorization: Bearer <token>' shows "
                       "every field of node records."),
        QStringLiteral("file")};
    QCommandLineOption m_registrations{
        QStringLiteral("registrations-per-minute"),
        QStringLiteral(
            "New identities one IPv4 address or IPv6 /64 may register a minute, after a burst of 20 (default 6)."),
        QStringLiteral("n")};
    QCommandLineOption m_workBits{QStringLiteral("registration-work-bits"),
                                  QStringLiteral("Proof of work a new identity brings, in leading zero bits of SHA-256 "
                                                 "(default 20: about a second of one core; 0: none)."),
                                  QStringLiteral("bits"), QStringLiteral("20")};
    QCommandLineOption m_tlsCertificate{QStringLiteral("tls-certificate"),
                                        QStringLiteral("Serve the API and relay over HTTPS with this PEM certificate "
                                                       "chain (with --tls-key; reloaded when renewed)."),
                                        QStringLiteral("file")};
    QCommandLineOption m_tlsKey{QStringLiteral("tls-key"), QStringLiteral("The PEM private key of --tls-certificate."),
                                QStringLiteral("file")};
    QCommandLineOption m_tlsCheck{
        QStringLiteral("tls-check-seconds"),
        QStringLiteral("Seconds between looks at the TLS files for a renewed certificate (default 60)."),
        QStringLiteral("seconds")};
    QCommandLineOption m_trustedProxy{QStringLiteral("trusted-proxy"),
                                      QStringLiteral("The address of a proxy in front of the API (nginx terminating "
                                                     "TLS): its X-Forwarded-For names the client (repeatable)."),
                                      QStringLiteral("address")};
    QCommandLineOption m_publicName{
        QStringLiteral("public-name"),
        QStringLiteral("A host name the hub answers besides the loopback names and the listen address (repeatable)."),
        QStringLiteral("host")};
};

} // namespace cohort::hubcli
