#include "net/BearerToken.h"

#include <QFile>
#include <algorithm>

namespace cohort {

bool bearerTokenMatches(const QByteArray &authorization, const QByteArray &token)
{
    if (token.isEmpty() || !authorization.startsWith("Bearer "))
        return false;
    const QByteArray given = authorization.mid(7).trimmed();
    if (given.size() != token.size())
        return false;
    // No early exit, so response timing says nothing about how much of a guess was right.
    unsigned char diff = 0;
    for (qsizetype i = 0; i < given.size(); ++i)
        diff |= static_cast<unsigned char>(given[i] ^ token[i]);
    return diff == 0;
}

Expected<QByteArray> readTokenFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot read %1: %2").arg(path, file.errorString()));
    const QByteArray token = file.read(4096).trimmed();
    const bool printable = std::all_of(token.cbegin(), token.cend(), [](char c) { return c > ' ' && c < 127; });
    if (token.size() < 32 || token.size() > 512 || !printable)
        return fail(
            QStringLiteral("%1 must hold one token of 32 to 512 printable characters, e.g. from 'openssl rand -hex 32'")
                .arg(path));
    return token;
}

} // namespace cohort
