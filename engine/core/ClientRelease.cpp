#include "core/ClientRelease.h"

#include <QUrl>

#include <algorithm>
#include <tuple>

namespace cohort {

namespace {
constexpr int kMaxVersionParts = 4;
constexpr int kMaxVersionDigits = 6;

// The field names of the hub's "client" object.
const QString kLatest = QStringLiteral("latest");
const QString kMinimum = QStringLiteral("minimum");
const QString kDownloadUrl = QStringLiteral("download_url");

// A value quoted in a message: never more than a version's worth of whatever arrived.
QString quoted(const QString &text)
{
    return QLatin1Char('\'') + text.left(kMaxVersionLength) +
           (text.size() > kMaxVersionLength ? QStringLiteral("…'") : QStringLiteral("'"));
}

QString whereToUpdate(const ClientRelease &release)
{
    return release.downloadUrl.isEmpty() ? QStringLiteral("update Cohort")
                                         : QStringLiteral("update Cohort (%1)").arg(release.downloadUrl);
}
} // namespace

std::optional<QList<int>> parseVersion(const QString &text)
{
    if (text.isEmpty() || text.size() > kMaxVersionLength)
        return std::nullopt;
    const QStringList parts = text.split(QLatin1Char('.'));
    if (parts.size() > kMaxVersionParts)
        return std::nullopt;
    QList<int> numbers;
    for (const QString &part : parts) {
        if (part.isEmpty() || part.size() > kMaxVersionDigits)
            return std::nullopt;
        int value = 0;
        for (const QChar c : part) {
            // Only ASCII digits: QChar::isDigit() would take Arabic-Indic and other digits, toInt() a sign.
            if (c < QLatin1Char('0') || c > QLatin1Char('9'))
                return std::nullopt;
            value = value * 10 + (c.unicode() - '0');
        }
        numbers.append(value);
    }
    return numbers;
}

bool isVersion(const QString &text)
{
    return parseVersion(text).has_value();
}

std::optional<int> compareVersions(const QString &a, const QString &b)
{
    const auto left = parseVersion(a), right = parseVersion(b);
    if (!left || !right)
        return std::nullopt;
    for (qsizetype i = 0; i < std::max(left->size(), right->size()); ++i) {
        const int l = left->value(i, 0), r = right->value(i, 0);
        if (l != r)
            return l < r ? -1 : 1;
    }
    return 0;
}

QString downloadUrlProblem(const QString &url)
{
    if (url.isEmpty())
        return QStringLiteral("no address");
    if (url.size() > kMaxDownloadUrlLength)
        return QStringLiteral("longer than %1 characters").arg(kMaxDownloadUrlLength);
    // RFC 3986's characters only: no blank, control character, quote, angle bracket or backslash (each a way out of
    // an href or into another host), and no letter outside ASCII (a look-alike host is given in its xn-- form).
    static const QByteArray allowed = QByteArrayLiteral("-._~:/?#[]@!$&'()*+,;=%");
    for (const QChar c : url) {
        const char16_t u = c.unicode();
        const bool alphanumeric = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9');
        if (!alphanumeric && (u > 0x7e || !allowed.contains(char(u))))
            return QStringLiteral("holds a character a URL may not (a blank, a quote, a letter outside ASCII, …)");
    }
    const QUrl parsed(url, QUrl::StrictMode);
    if (!parsed.isValid())
        return QStringLiteral("not a valid URL");
    const QString scheme = parsed.scheme().toLower();
    if (scheme != QLatin1String("https") && scheme != QLatin1String("http"))
        return QStringLiteral("not an http:// or https:// address");
    if (parsed.host().isEmpty() || !url.contains(QStringLiteral("//")))
        return QStringLiteral("names no host");
    if (!parsed.userInfo().isEmpty())
        return QStringLiteral("names a user or password (a link that reads as one site and goes to another)");
    return {};
}

QJsonObject ClientRelease::toJson() const
{
    QJsonObject o;
    if (!latest.isEmpty())
        o.insert(kLatest, latest);
    if (!minimum.isEmpty())
        o.insert(kMinimum, minimum);
    if (!downloadUrl.isEmpty())
        o.insert(kDownloadUrl, downloadUrl);
    return o;
}

QString clientReleaseProblem(const ClientRelease &release)
{
    for (const auto &[field, version] : {std::pair{kLatest, release.latest}, std::pair{kMinimum, release.minimum}})
        if (!version.isEmpty() && !isVersion(version))
            return QStringLiteral("%1: %2 is not a version (up to 4 numbers with dots, like 0.2.0)")
                .arg(field, quoted(version));
    if (!release.latest.isEmpty() && !release.minimum.isEmpty() &&
        *compareVersions(release.minimum, release.latest) > 0)
        return QStringLiteral("minimum: %1 is newer than the latest version %2").arg(release.minimum, release.latest);
    if (!release.downloadUrl.isEmpty()) {
        if (const QString problem = downloadUrlProblem(release.downloadUrl); !problem.isEmpty())
            return QStringLiteral("download_url: %1").arg(problem);
        if (release.latest.isEmpty() && release.minimum.isEmpty())
            return QStringLiteral("download_url: given without a version to download");
    }
    return {};
}

Expected<ClientRelease> parseClientRelease(const QJsonValue &value)
{
    if (value.isUndefined() || value.isNull())
        return ClientRelease{};
    if (!value.isObject())
        return fail(QStringLiteral("'client' is not an object"));
    const QJsonObject object = value.toObject();
    ClientRelease release;
    const std::tuple<const QString &, QString *, int> fields[] = {
        {kLatest, &release.latest, kMaxVersionLength},
        {kMinimum, &release.minimum, kMaxVersionLength},
        {kDownloadUrl, &release.downloadUrl, kMaxDownloadUrlLength}};
    for (const auto &[name, out, maxLength] : fields) {
        const QJsonValue field = object.value(name);
        if (field.isUndefined() || field.isNull())
            continue;
        if (!field.isString())
            return fail(QStringLiteral("client.%1 is not text").arg(name));
        // The length first: nothing of a huge string is copied into a message or a snapshot.
        if (field.toString().size() > maxLength)
            return fail(QStringLiteral("client.%1 is longer than %2 characters").arg(name).arg(maxLength));
        *out = field.toString();
    }
    if (const QString problem = clientReleaseProblem(release); !problem.isEmpty())
        return fail(QStringLiteral("client.") + problem);
    return release;
}

QString clientVersionRefusal(const ClientRelease &release, const QString &declaredVersion)
{
    if (release.minimum.isEmpty())
        return {};
    if (declaredVersion.isEmpty())
        return QStringLiteral("this hub works with Cohort %1 or newer, and this client does not say its version "
                              "(field 'client_version'): %2")
            .arg(release.minimum, whereToUpdate(release));
    const std::optional<int> order = compareVersions(declaredVersion, release.minimum);
    if (!order)
        return QStringLiteral("this hub works with Cohort %1 or newer, and this client's version %2 is not a version "
                              "number: %3")
            .arg(release.minimum, quoted(declaredVersion), whereToUpdate(release));
    if (*order < 0)
        return QStringLiteral("this hub works with Cohort %1 or newer; this client is %2: %3")
            .arg(release.minimum, declaredVersion, whereToUpdate(release));
    return {};
}

QJsonObject UpdateNotice::toJson() const
{
    return QJsonObject{{QStringLiteral("running"), running},
                       {kLatest, latest.isEmpty() ? QJsonValue() : QJsonValue(latest)},
                       {kMinimum, minimum.isEmpty() ? QJsonValue() : QJsonValue(minimum)},
                       {kDownloadUrl, downloadUrl.isEmpty() ? QJsonValue() : QJsonValue(downloadUrl)},
                       {QStringLiteral("available"), available},
                       {QStringLiteral("below_minimum"), belowMinimum}};
}

UpdateNotice assessUpdate(const ClientRelease &release, const QString &running)
{
    UpdateNotice notice;
    notice.running = running;
    notice.latest = release.latest;
    notice.minimum = release.minimum;
    notice.downloadUrl = release.downloadUrl;
    if (!release.latest.isEmpty())
        notice.available = compareVersions(release.latest, running).value_or(0) > 0;
    if (!release.minimum.isEmpty())
        notice.belowMinimum = compareVersions(running, release.minimum).value_or(0) < 0;
    return notice;
}

QString updateAvailableMessage(const UpdateNotice &notice)
{
    return notice.downloadUrl.isEmpty()
               ? QStringLiteral("Cohort %1 is available").arg(notice.latest)
               : QStringLiteral("Cohort %1 is available: %2").arg(notice.latest, notice.downloadUrl);
}

QString belowMinimumMessage(const UpdateNotice &notice)
{
    const QString needs =
        QStringLiteral("This hub needs Cohort %1 or newer; you have %2.").arg(notice.minimum, notice.running);
    return notice.downloadUrl.isEmpty() ? needs + QStringLiteral(" Update Cohort to work with it again.")
                                        : needs + QStringLiteral(" Download: %1").arg(notice.downloadUrl);
}

} // namespace cohort
