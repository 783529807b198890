// The DiLoCo evidence's reading of a node's audited work (DilocoEvidence::confirmedSteps), on a real hub.sqlite:
// it is the weight of the node's vote on the shared state (MasterOptions::auditedWork), so only outer steps whose
// credit an audit confirmed may count — never a pending or refused one, another node's, another task's, or any
// after the node forfeited.
#include "hub/DilocoEvidence.h"
#include "hub/HubStore.h"
#include "hub/Ledger.h"

#include <QTemporaryDir>
#include <QTest>

using namespace cohort;

namespace {

const QString kTask = QStringLiteral("tiny-diloco");
const QString kNode = QStringLiteral("n-0123456789abcdef0123");
const QString kSybil = QStringLiteral("n-fedcba9876543210fedc");
constexpr qint64 kNow = 1764428400000; // 2025-11-29 15:00 UTC

// One outer-step credit, as DilocoCoordinator::credit writes it.
bool credit(Ledger &ledger, const QString &task, const QString &node, int step)
{
    SubmissionRecord r;
    r.submissionId = QStringLiteral("diloco:%1:%2:%3").arg(task).arg(step).arg(node);
    r.nodeId = node;
    r.taskId = task;
    r.version = step;
    r.status = QStringLiteral("accepted");
    r.credit = 1;
    r.createdAtMs = kNow;
    return ledger.recordSubmission(r).ok();
}

diloco::Commitment commitmentFor(int step)
{
    diloco::Commitment c;
    c.step = uint64_t(step);
    c.startDigest = QByteArray(32, char(step));
    c.adamDigest = QByteArray(32, 'a');
    c.deltaDigest = QByteArray(32, 'd');
    c.deltaNorm = 0.5;
    return c;
}

} // namespace

class TestDilocoEvidence : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void onlyAuditConfirmedStepsWeigh()
    {
        QTemporaryDir dir;
        auto store = HubStore::open(dir.filePath(QStringLiteral("hub.sqlite")));
        QVERIFY2(store.ok(), qPrintable(store.error()));
        Ledger ledger((*store)->connectionName());
        DilocoEvidence evidence((*store)->connectionName());
        for (int step = 1; step <= 10; ++step) {
            QVERIFY(credit(ledger, kTask, kNode, step));
            QVERIFY(credit(ledger, kTask, kSybil, step)); // in the ring, never commits
            QVERIFY(credit(ledger, QStringLiteral("other-diloco"), kNode, step));
            if (step <= 6)
                QVERIFY(evidence.commit(kTask, kNode, commitmentFor(step), kNow).ok());
        }
        QCOMPARE(evidence.confirmedSteps(kTask, kNode), 0); // pending: nothing audited yet
        QVERIFY(evidence.setAudit(kTask, kNode, 4, QStringLiteral("passed"), QString()).ok());
        // Ripe up to step 10 - 3 = 7; committed up to 6; covered by the passed audit up to 4.
        QCOMPARE(evidence.confirmAudited(kTask, 10, 3, kNow), 4);
        QCOMPARE(evidence.confirmedSteps(kTask, kNode), 4);
        QCOMPARE(evidence.confirmedSteps(kTask, kSybil), 0);
        QCOMPARE(evidence.confirmedSteps(QStringLiteral("other-diloco"), kNode), 0);
        QCOMPARE(evidence.confirmedSteps(kTask, QStringLiteral("n-unknown")), 0);
        // A failed audit forfeits the node's credits in the task, and with them its weight.
        QVERIFY(evidence.forfeit(kTask, kNode, QStringLiteral("replay differs"), kNow) > 0);
        QCOMPARE(evidence.confirmedSteps(kTask, kNode), 0);
    }
};

QTEST_GUILESS_MAIN(TestDilocoEvidence)
#include "tst_diloco_evidence.moc"
