#include "ListenerOptions.h"

#include "net/BearerToken.h"
#include "net/HostCheck.h"
#include "platform/FilePermissions.h"

#include <QFile>
#include <cstdio>

namespace cohort::hubcli {

void ListenerOptions::addTo(QCommandLineParser &parser)
{
    parser.addOptions({m_maxConnections, m_perSource, m_headerTimeout, m_idleTimeout, m_publicName, m_operatorToken,
                       m_registrations, m_workBits, m_tlsCertificate, m_tlsKey, m_tlsCheck, m_trustedProxy});
}

QString ListenerOptions::apply(const QCommandLineParser &parser, HubConfig *config) const
{
    const auto number = [&parser](const QCommandLineOption &option, qint64 min, qint64 max, qint64 *out) -> QString {
        if (!parser.isSet(option))
            return {};
        bool ok = false;
        const qint64 value = parser.value(option).toLongLong(&ok);
        if (!ok || value < min || value > max)
            return QStringLiteral("--%1 must be %2..%3").arg(option.names().constFirst()).arg(min).arg(max);
        *out = value;
        return {};
    };
    qint64 total = -1, perSource = -1, header = -1, idle = -1, registrations = -1, workBits = 20, tlsCheck = 60;
    for (const QString &problem :
         {number(m_maxConnections, 1, 1'000'000, &total), number(m_perSource, 1, 1'000'000, &perSource),
          number(m_headerTimeout, 1, 600, &header), number(m_idleTimeout, 1, 3600, &idle),
          number(m_registrations, 1, 100'000, &registrations), number(m_workBits, 0, 26, &workBits),
          number(m_tlsCheck, 1, 86400, &tlsCheck)})
        if (!problem.isEmpty())
            return problem;
    if (total > 0) {
        config->apiLimits.maxConnections = int(total);
        config->relayLimits.maxConnections = int(qMax<qint64>(1, total / 4));
    }
    if (perSource > 0) {
        config->apiLimits.maxPerSource = int(perSource);
        config->relayLimits.maxPerSource = int(qMax<qint64>(1, perSource / 4));
    }
    for (ListenerLimits *limits : {&config->apiLimits, &config->relayLimits}) {
        limits->maxPerSource = qMin(limits->maxPerSource, limits->maxConnections);
        if (header > 0)
            limits->headerTimeoutMs = int(header * 1000);
        if (idle > 0)
            limits->idleTimeoutMs = int(idle * 1000);
    }
    config->registrationWorkBits = int(workBits);
    config->tlsCertificateFile = parser.value(m_tlsCertificate);
    config->tlsKeyFile = parser.value(m_tlsKey);
    config->tlsCheckSeconds = int(tlsCheck);
    if (config->tlsCertificateFile.isEmpty() != config->tlsKeyFile.isEmpty())
        return QStringLiteral("--tls-certificate and --tls-key go together");
    if (registrations > 0)
        config->registrationsPerMinute = double(registrations);
    if (parser.isSet(m_operatorToken)) {
        const QString path = parser.value(m_operatorToken);
        const Expected<QByteArray> token = readTokenFile(path);
        if (!token)
            return QStringLiteral("--operator-token-file: %1").arg(token.error());
        if (!isOwnerOnly(path))
            std::fprintf(stderr, "cohort-hub: warning: %s can be read by other users; chmod 600 it\n",
                         qPrintable(path));
        config->operatorToken = *token;
    }
    for (const QString &proxy : parser.values(m_trustedProxy)) {
        const QHostAddress address(proxy.trimmed());
        if (address.isNull())
            return QStringLiteral("--trusted-proxy: '%1' is not an IP address").arg(proxy);
        config->trustedProxies.append(address);
    }
    for (const QString &name : parser.values(m_publicName)) {
        if (HostCheck::hostOf(name.toUtf8()) != name.trimmed().toLower() || name.trimmed().isEmpty())
            return QStringLiteral("--public-name: '%1' is not a host name (give it without scheme or port)").arg(name);
        config->publicNames.append(name.trimmed());
    }
    return {};
}

} // namespace cohort::hubcli
