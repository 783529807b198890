// The node's outbox: batches survive until the hub answers, and damaged files are set aside (kept for diagnosis)
// instead of blocking the queue or being lost silently.
#include "node/Outbox.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace cohort;

namespace {
OutboxEntry entry(const QString &task)
{
    OutboxEntry e;
    e.submissionId = Outbox::newSubmissionId();
    e.taskId = task;
    e.body = QJsonDocument(QJsonObject{{QStringLiteral("submission_id"), e.submissionId},
                                       {QStringLiteral("work_id"), QStringLiteral("w-1")}})
                 .toJson(QJsonDocument::Compact);
    return e;
}

void writeRaw(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}
} // namespace

class TestOutbox : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void putListRemove()
    {
        QTemporaryDir dir;
        Outbox outbox(dir.filePath(QStringLiteral("outbox")));
        const OutboxEntry a = entry(QStringLiteral("arith-rl")), b = entry(QStringLiteral("sort-rl"));
        QVERIFY(outbox.put(a).ok());
        QVERIFY(outbox.put(b).ok());
        QCOMPARE(outbox.count(), 2);
        const QList<OutboxEntry> arith = outbox.entries(QStringLiteral("arith-rl"));
        QCOMPARE(arith.size(), 1);
        QCOMPARE(arith.first().submissionId, a.submissionId);
        QCOMPARE(arith.first().body, a.body); // sent exactly as written
        QCOMPARE(outbox.entries().size(), 2);
        QVERIFY(outbox.remove(a.submissionId).ok());
        QVERIFY(outbox.remove(a.submissionId).ok()); // removing twice is harmless
        QCOMPARE(outbox.count(), 1);
        QVERIFY(!outbox.remove(QStringLiteral("../../etc/passwd")).ok()); // never a path
        OutboxEntry bad = entry(QStringLiteral("x"));
        bad.submissionId = QStringLiteral("s-../evil");
        QVERIFY(!outbox.put(bad).ok());
    }

    void damagedFilesAreSetAside()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("outbox"));
        Outbox outbox(path);
        const OutboxEntry good = entry(QStringLiteral("arith-rl"));
        QVERIFY(outbox.put(good).ok());
        const QString truncated = Outbox::newSubmissionId(), mismatched = Outbox::newSubmissionId();
        writeRaw(QDir(path).filePath(truncated + QStringLiteral(".json")),
                 "{\"outbox_task\":\"arith-rl\",\"submission\":{\"sub");
        writeRaw(
            QDir(path).filePath(mismatched + QStringLiteral(".json")),
            "{\"outbox_task\":\"arith-rl\",\"submission\":{\"submission_id\":\"s-00000000000000000000000000000000\"}}");
        const QList<OutboxEntry> left = outbox.entries();
        QCOMPARE(left.size(), 1);
        QCOMPARE(left.first().submissionId, good.submissionId);
        QVERIFY(QFile::exists(QDir(path).filePath(QStringLiteral("damaged/") + truncated + QStringLiteral(".json"))));
        QVERIFY(QFile::exists(QDir(path).filePath(QStringLiteral("damaged/") + mismatched + QStringLiteral(".json"))));
        QCOMPARE(outbox.count(), 1);
    }
};

QTEST_GUILESS_MAIN(TestOutbox)
#include "tst_outbox.moc"
