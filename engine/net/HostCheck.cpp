#include "net/HostCheck.h"

#include <QHostAddress>
#include <QUrl>

namespace cohort {

HostCheck HostCheck::loopbackOnly()
{
    HostCheck check;
    for (const char *name : {"127.0.0.1", "localhost", "::1"})
        check.allow(QString::fromLatin1(name));
    return check;
}

void HostCheck::allow(const QString &name)
{
    QString n = name.trimmed().toLower();
    if (n.startsWith(QLatin1Char('[')) && n.endsWith(QLatin1Char(']')))
        n = n.mid(1, n.size() - 2);
    if (!n.isEmpty() && !m_names.contains(n))
        m_names.append(n);
}

QString HostCheck::hostOf(const QByteArray &hostHeader)
{
    const QByteArray h = hostHeader.trimmed();
    if (h.isEmpty() || h.size() > 255)
        return {};
    for (char c : h) // a Host is ASCII without spaces, slashes or '@' (userinfo would let "good@evil" pass)
        if (uchar(c) <= 0x20 || uchar(c) >= 0x7f || c == '/' || c == '@' || c == '\\' || c == '?' || c == '#')
            return {};
    QString host;
    if (h.startsWith('[')) {
        const qsizetype close = h.indexOf(']');
        if (close < 0)
            return {};
        const QByteArray rest = h.mid(close + 1);
        if (!rest.isEmpty() && !rest.startsWith(':'))
            return {};
        host = QString::fromLatin1(h.mid(1, close - 1));
        if (QHostAddress(host).protocol() != QAbstractSocket::IPv6Protocol)
            return {};
    } else {
        const qsizetype colon = h.lastIndexOf(':');
        if (colon >= 0 && h.indexOf(':') != colon)
            return {}; // an unbracketed IPv6 literal or garbage
        host = QString::fromLatin1(colon < 0 ? h : h.left(colon));
        if (colon >= 0) {
            bool ok = false;
            const uint port = h.mid(colon + 1).toUInt(&ok);
            if (!ok || port > 65535)
                return {};
        }
    }
    while (host.endsWith(QLatin1Char('.'))) // "localhost." names the same host
        host.chop(1);
    return host.toLower();
}

std::optional<HostCheck::Refusal> HostCheck::check(const QByteArray &hostHeader, const QByteArray &originHeader) const
{
    if (!m_names.isEmpty()) {
        const QString host = hostOf(hostHeader);
        if (host.isEmpty())
            return Refusal{400, QStringLiteral("bad_host"), QStringLiteral("the request needs a valid Host header")};
        if (!m_names.contains(host))
            return Refusal{421, QStringLiteral("misdirected"),
                           QStringLiteral("this server does not answer to the name '%1'").arg(host.left(64))};
    }
    if (!originHeader.isEmpty()) {
        const QUrl origin(QString::fromLatin1(originHeader.left(512)), QUrl::StrictMode);
        QString host = origin.host().toLower();
        while (host.endsWith(QLatin1Char('.')))
            host.chop(1);
        if (!origin.isValid() || host.isEmpty() || !m_names.contains(host))
            return Refusal{403, QStringLiteral("foreign_origin"),
                           QStringLiteral("requests from web pages of other sites are refused")};
    }
    return std::nullopt;
}

} // namespace cohort
