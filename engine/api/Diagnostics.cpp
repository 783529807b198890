#include "api/Diagnostics.h"

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSysInfo>
#include <quazip.h>
#include <quazipfile.h>
#include <quazipnewinfo.h>

namespace cohort {

namespace {
constexpr qint64 kMaxCopiedFile = 1 << 20; // settings, pins: small text files; anything bigger is listed, not copied

QByteArray readSmall(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly) || f.size() > kMaxCopiedFile)
        return {};
    return f.readAll();
}

// The secrets a diagnostics zip must never contain: the node key file's bytes and the control token.
QList<QByteArray> secretsIn(const QString &dataDir)
{
    QList<QByteArray> secrets;
    QDirIterator keys(QDir(dataDir).filePath(QStringLiteral("identity")), QDir::Files, QDirIterator::Subdirectories);
    while (keys.hasNext()) {
        const QString path = keys.next();
        if (path.endsWith(QLatin1String(".key"))) {
            // Key files are JSON with a base64 "secret_key"; an unreadable one is guarded as a whole.
            const QByteArray file = readSmall(path);
            const QByteArray secret =
                QJsonDocument::fromJson(file).object().value(QStringLiteral("secret_key")).toString().toLatin1();
            if (secret.size() >= 16) {
                secrets.append(secret);
                secrets.append(QByteArray::fromBase64(secret));
            } else if (file.size() >= 16) {
                secrets.append(file);
            }
        }
    }
    const QJsonObject control =
        QJsonDocument::fromJson(readSmall(QDir(dataDir).filePath(QStringLiteral("control.json")))).object();
    const QByteArray token = control.value(QStringLiteral("token")).toString().toLatin1();
    if (token.size() >= 16)
        secrets.append(token);
    return secrets;
}
} // namespace

// The settings file as it is, except the payout address (an account detail that identifies the person, and that
// whoever reads a diagnostics zip has no need for): its value is replaced, so the zip still shows one was set.
static QByteArray redactSettings(const QByteArray &ini)
{
    QList<QByteArray> lines = ini.split('\n');
    for (QByteArray &line : lines) {
        const QByteArray trimmed = line.trimmed();
        if (trimmed.startsWith("payoutAddress") && trimmed.mid(13).trimmed().startsWith('=')) {
            const bool set = !trimmed.mid(trimmed.indexOf('=') + 1).trimmed().isEmpty();
            line = set ? QByteArrayLiteral("payoutAddress=<redacted>") : QByteArrayLiteral("payoutAddress=");
        }
    }
    return lines.join('\n');
}

Expected<QStringList> writeDiagnostics(const QString &zipPath, const DiagnosticsInput &in)
{
    QList<QPair<QString, QByteArray>> entries;
    QJsonArray events;
    for (const EngineEvent &e : in.events)
        events.append(e.toJson());
    entries.append({QStringLiteral("events.json"), QJsonDocument(events).toJson()});
    entries.append({QStringLiteral("snapshot.json"), QJsonDocument(in.snapshot).toJson()});
    entries.append(
        {QStringLiteral("system.json"),
         QJsonDocument(
             QJsonObject{{QStringLiteral("cohort"), QStringLiteral(COHORT_VERSION_STRING)},
                         {QStringLiteral("qt"), QString::fromLatin1(qVersion())},
                         {QStringLiteral("os"), QSysInfo::prettyProductName()},
                         {QStringLiteral("kernel"),
                          QString(QSysInfo::kernelType() + QLatin1Char(' ') + QSysInfo::kernelVersion())},
                         {QStringLiteral("cpu"), QSysInfo::currentCpuArchitecture()},
                         {QStringLiteral("written_at"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)}})
             .toJson()});
    if (!in.settingsFile.isEmpty() && QFileInfo::exists(in.settingsFile))
        entries.append({QStringLiteral("settings.ini"), redactSettings(readSmall(in.settingsFile))});
    // The data folder: names and sizes only. identity/ is listed by name too (so a missing key shows), never read.
    QByteArray listing;
    QDirIterator it(in.dataDir, QDir::Files | QDir::Hidden | QDir::NoSymLinks, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        listing += QDir(in.dataDir).relativeFilePath(it.filePath()).toUtf8() + '\t' +
                   QByteArray::number(it.fileInfo().size()) + '\t' +
                   it.fileInfo().lastModified().toUTC().toString(Qt::ISODate).toUtf8() + '\n';
    }
    entries.append({QStringLiteral("data-folder.tsv"), listing});
    const QByteArray pins = readSmall(QDir(in.dataDir).filePath(QStringLiteral("identity/hubs.json")));
    if (!pins.isEmpty())
        entries.append({QStringLiteral("pinned-hubs.json"), pins});
    const QStringList bundles = QDir(QDir(in.dataDir).filePath(QStringLiteral("bundles")))
                                    .entryList({QStringLiteral("bundle-*.zip")}, QDir::Files, QDir::Name);
    if (!bundles.isEmpty())
        entries.append({QStringLiteral("newest-bundle-name.txt"), bundles.last().toUtf8()});

    // Last line of defence: nothing secret leaves, whatever a future entry contains.
    const QList<QByteArray> secrets = secretsIn(in.dataDir);
    for (const auto &[name, data] : entries)
        for (const QByteArray &secret : secrets)
            if (data.contains(secret) || data.contains(secret.toHex()))
                return fail(QStringLiteral("refusing to write diagnostics: %1 would contain a secret").arg(name));

    const QString part = zipPath + QStringLiteral(".part");
    QStringList written;
    {
        QuaZip zip(part);
        if (!zip.open(QuaZip::mdCreate))
            return fail(QStringLiteral("cannot create %1 (zip error %2)").arg(part).arg(zip.getZipError()));
        for (const auto &[name, data] : entries) {
            QuaZipFile out(&zip);
            if (!out.open(QIODevice::WriteOnly, QuaZipNewInfo(QStringLiteral("cohort-diagnostics/") + name))) {
                zip.close();
                QFile::remove(part);
                return fail(QStringLiteral("cannot add %1 to %2").arg(name, part));
            }
            out.write(data);
            out.close();
            written.append(name);
        }
        zip.close();
        if (zip.getZipError() != 0) {
            QFile::remove(part);
            return fail(QStringLiteral("cannot finish %1 (zip error %2)").arg(part).arg(zip.getZipError()));
        }
    }
    QFile::remove(zipPath); // the user chose to replace it in the file dialog
    if (!QFile::rename(part, zipPath)) {
        QFile::remove(part);
        return fail(QStringLiteral("cannot write %1").arg(zipPath));
    }
    return written;
}

} // namespace cohort
