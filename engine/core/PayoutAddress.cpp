#include "core/PayoutAddress.h"

#include <QCryptographicHash>

#include <algorithm>

namespace cohort::payout {

namespace {
bool isAsciiHexDigit(QChar c)
{
    return (c >= QLatin1Char('0') && c <= QLatin1Char('9')) || (c >= QLatin1Char('a') && c <= QLatin1Char('f')) ||
           (c >= QLatin1Char('A') && c <= QLatin1Char('F'));
}
} // namespace

QString checksummed(const QString &address)
{
    // EIP-55: the i-th hex letter is upper case when the i-th nibble of Keccak-256(lower-case hex) is 8 or more.
    // Qt's Keccak_256 is the original Keccak (Ethereum's), not the final SHA3-256.
    const QString hex = address.mid(2).toLower();
    const QByteArray hash = QCryptographicHash::hash(hex.toLatin1(), QCryptographicHash::Keccak_256).toHex();
    QString out = QStringLiteral("0x");
    for (qsizetype i = 0; i < hex.size(); ++i) {
        const QChar c = hex.at(i);
        out += (c.isLetter() && hash.at(i) >= '8') ? c.toUpper() : c;
    }
    return out;
}

QString addressProblem(const QString &address)
{
    const QString hex = address.mid(2);
    if (!address.startsWith(QLatin1String("0x")) || address.size() != 42 ||
        !std::all_of(hex.begin(), hex.end(), isAsciiHexDigit))
        return QStringLiteral("Enter 0x followed by 40 hexadecimal digits (0-9, a-f).");
    // All lower or all upper case carries no checksum; mixed case must be the EIP-55 checksum, which catches typos.
    if (hex == hex.toLower() || hex == hex.toUpper())
        return {};
    if (checksummed(address) != address)
        return QStringLiteral(
            "The upper/lower case letters do not match the address checksum (EIP-55): check it for a typo.");
    return {};
}

QString redacted(const QString &address)
{
    if (address.isEmpty())
        return QStringLiteral("(none)");
    if (address.size() <= 10)
        return QStringLiteral("…");
    return address.left(6) + QStringLiteral("…") + address.right(4);
}

} // namespace cohort::payout
