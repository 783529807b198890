#pragma once
// Update notices: the client versions a hub advertises (its operator's --client-latest, --client-minimum and
// --client-download-url) and what they mean for the running program. The hub sends them as "client" in /v1/health
// and in its registration and heartbeat answers; the node compares them with its own version. The parser is strict:
// the object comes from the network, and its link ends up clickable in the app.
#include "core/Expected.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <optional>

namespace cohort {

inline constexpr int kMaxVersionLength = 32; // "123456.123456.123456.123456" fits
inline constexpr int kMaxDownloadUrlLength = 512;

// A version is 1 to 4 dot-separated numbers of 1 to 6 digits each ("0.2.0", "1.10"): nothing else, no sign,
// suffix or blank. nullopt for anything that is not one.
std::optional<QList<int>> parseVersion(const QString &text);
bool isVersion(const QString &text);
// -1, 0 or 1 as a is older than, the same as or newer than b, number by number ("0.10.0" > "0.9.2"; a missing
// number counts as 0, so "0.2" == "0.2.0"). nullopt when either is not a version.
std::optional<int> compareVersions(const QString &a, const QString &b);

// Why `url` may not be offered as a download link, or empty if it may: an http:// or https:// URL with a host,
// printable ASCII only (no blanks, control characters or look-alike letters), no user name or password (a link
// reading "https://cohort.example@elsewhere" goes elsewhere), at most kMaxDownloadUrlLength characters.
QString downloadUrlProblem(const QString &url);

// What a hub advertises. Empty fields: not advertised.
struct ClientRelease {
    QString latest;      // the newest client version
    QString minimum;     // the oldest the hub works with
    QString downloadUrl; // where to get the newest
    bool isEmpty() const { return latest.isEmpty() && minimum.isEmpty() && downloadUrl.isEmpty(); }
    bool operator==(const ClientRelease &) const = default;
    QJsonObject toJson() const; // {"latest", "minimum", "download_url"}, each only when set
};

// The checks a hub's operator options and a hub's answer both pass: versions as above, the minimum not newer than
// the latest, a URL only with a version to fetch it for. Returns the first problem, naming the field.
QString clientReleaseProblem(const ClientRelease &release);

// The "client" value of a hub answer: absent or null is an empty release (a hub that advertises nothing, or an
// older one); anything but an object of valid fields is refused with the reason. Unknown fields are ignored
// (a newer hub may say more).
Expected<ClientRelease> parseClientRelease(const QJsonValue &value);

// The hub's verdict on a node's declared version (the "client_version" of its request): empty when it may work
// with this hub (no minimum set, or the version is at least the minimum), else the reason it may not. A request
// that declares no version, or one that is not a version, does not meet a minimum.
QString clientVersionRefusal(const ClientRelease &release, const QString &declaredVersion);

// What the advertised versions mean for the program running (its snapshot's "update").
struct UpdateNotice {
    QString running; // this program's version
    QString latest;
    QString minimum;
    QString downloadUrl;       // checked by parseClientRelease: http(s) only
    bool available = false;    // latest is newer than running
    bool belowMinimum = false; // running is older than minimum: the hub does not work with it
    bool isEmpty() const { return latest.isEmpty() && minimum.isEmpty(); }
    bool operator==(const UpdateNotice &) const = default;
    QJsonObject toJson() const;
};

UpdateNotice assessUpdate(const ClientRelease &release, const QString &running);
// "Cohort 0.3.0 is available: https://…" (the event a node emits once per new version).
QString updateAvailableMessage(const UpdateNotice &notice);
// "This hub needs Cohort 0.2.0 or newer; you have 0.1.0. Download: https://…" (why the node stopped).
QString belowMinimumMessage(const UpdateNotice &notice);

} // namespace cohort
