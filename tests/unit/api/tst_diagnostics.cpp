// "Save diagnostics…": the zip holds events, snapshot, settings, the data folder's listing and versions, and never
// the node's private key or the control token — even when an event message happens to quote one.
#include "api/Diagnostics.h"
#include "net/Identity.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>
#include <quazip.h>
#include <quazipfile.h>

using namespace cohort;

namespace {
QMap<QString, QByteArray> unzip(const QString &path)
{
    QMap<QString, QByteArray> out;
    QuaZip zip(path);
    if (!zip.open(QuaZip::mdUnzip))
        return out;
    for (bool more = zip.goToFirstFile(); more; more = zip.goToNextFile()) {
        QuaZipFile f(&zip);
        if (f.open(QIODevice::ReadOnly))
            out.insert(zip.getCurrentFileName(), f.readAll());
    }
    return out;
}

void writeFile(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(data);
}
} // namespace

class TestDiagnostics : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void containsWhatHelpsAndNoSecret()
    {
        QTemporaryDir data;
        auto identity = Identity::loadOrCreate(data.filePath(QStringLiteral("identity")));
        QVERIFY2(identity.ok(), qPrintable(identity.error()));
        QFile keyFile(data.filePath(QStringLiteral("identity/node.key")));
        QVERIFY(keyFile.open(QIODevice::ReadOnly));
        const QByteArray secret = QJsonDocument::fromJson(keyFile.readAll())
                                      .object()
                                      .value(QStringLiteral("secret_key"))
                                      .toString()
                                      .toLatin1();
        QVERIFY(secret.size() > 40);
        const QByteArray token = QByteArray(64, 'c');
        writeFile(data.filePath(QStringLiteral("control.json")),
                  "{\"url\":\"http://127.0.0.1:5\",\"token\":\"" + token + "\"}");
        writeFile(data.filePath(QStringLiteral("settings.ini")),
                  "[network]\nhubUrl=https://"
                  "hub.example\n[account]\npayoutAddress=0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed\n");
        writeFile(data.filePath(QStringLiteral("outbox/s-0123.json")), "{}");

        DiagnosticsInput in;
        in.events = {EngineEvent::info(EventCategory::Lifecycle, QStringLiteral("Started")),
                     EngineEvent::error(EventCategory::Checkpoint, QStringLiteral("disk full"))};
        in.snapshot = QJsonObject{{QStringLiteral("state"), QStringLiteral("paused")},
                                  {QStringLiteral("node_id"), identity->nodeId()}};
        in.settingsFile = data.filePath(QStringLiteral("settings.ini"));
        in.dataDir = data.path();
        const QString zipPath = data.filePath(QStringLiteral("diag.zip"));
        auto written = writeDiagnostics(zipPath, in);
        QVERIFY2(written.ok(), qPrintable(written.error()));
        const auto entries = unzip(zipPath);
        for (const char *name : {"events.json", "snapshot.json", "system.json", "settings.ini", "data-folder.tsv"})
            QVERIFY2(entries.contains(QStringLiteral("cohort-diagnostics/") + QLatin1String(name)), name);
        QVERIFY(entries.value(QStringLiteral("cohort-diagnostics/events.json")).contains("disk full"));
        QVERIFY(entries.value(QStringLiteral("cohort-diagnostics/settings.ini")).contains("hub.example"));
        // The payout address is redacted, and the zip says one was set.
        QVERIFY(entries.value(QStringLiteral("cohort-diagnostics/settings.ini")).contains("payoutAddress=<redacted>"));
        for (auto it = entries.cbegin(); it != entries.cend(); ++it)
            QVERIFY2(!it.value().toLower().contains("5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"), qPrintable(it.key()));
        const QByteArray listing = entries.value(QStringLiteral("cohort-diagnostics/data-folder.tsv"));
        QVERIFY(listing.contains("identity/node.key\t")); // listed by name, so a missing key would show
        QVERIFY(listing.contains("outbox/s-0123.json\t2\t"));
        for (auto it = entries.cbegin(); it != entries.cend(); ++it) {
            QVERIFY2(!it.value().contains(secret), qPrintable(it.key()));
            QVERIFY2(!it.value().contains(QByteArray::fromBase64(secret)), qPrintable(it.key()));
            QVERIFY2(!it.value().contains(token), qPrintable(it.key()));
        }
        QVERIFY(!QFile::exists(zipPath + QStringLiteral(".part")));
    }

    void refusesWhenAnEntryWouldCarryASecret()
    {
        QTemporaryDir data;
        const QByteArray token = QByteArray(64, 'd');
        writeFile(data.filePath(QStringLiteral("control.json")),
                  "{\"url\":\"http://127.0.0.1:5\",\"token\":\"" + token + "\"}");
        DiagnosticsInput in;
        in.dataDir = data.path();
        in.events = {EngineEvent::warning(EventCategory::Control,
                                          QStringLiteral("a client sent ") + QString::fromLatin1(token))};
        const QString zipPath = data.filePath(QStringLiteral("diag.zip"));
        auto written = writeDiagnostics(zipPath, in);
        QVERIFY(!written.ok());
        QVERIFY2(written.error().contains(QStringLiteral("events.json")), qPrintable(written.error()));
        QVERIFY(!QFile::exists(zipPath));
    }
};

QTEST_GUILESS_MAIN(TestDiagnostics)
#include "tst_diagnostics.moc"
