#include "net/BearerToken.h"

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

} // namespace cohort
