// The doctor's report as the desktop app reads it back from `cohortd --doctor --json`: every field checked, hostile
// and broken output refused with a reason, and the bytes of a report pinned (the app and cohortd must agree).
#include "core/DoctorReport.h"
#include "platform/LoadedLibraries.h"

#include <QJsonDocument>
#include <QTest>

using namespace cohort;

class TestDoctorReport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void roundTripAndGoldenBytes()
    {
        DoctorReport report;
        report.findings.append({QStringLiteral("clock"), QStringLiteral("Clock"), DoctorOutcome::Failed,
                                QStringLiteral("10 min ahead"), QStringLiteral("sudo timedatectl set-ntp true")});
        report.findings.append(
            {QStringLiteral("gpu"), QStringLiteral("GPU"), DoctorOutcome::Skipped, QStringLiteral("none"), {}});
        const QByteArray json = QJsonDocument(report.toJson()).toJson(QJsonDocument::Compact);
        QCOMPARE(
            json,
            QByteArray(
                R"({"failed":true,"findings":[{"detail":"10 min ahead","fix":"sudo timedatectl set-ntp true","id":"clock","outcome":"failed","title":"Clock"},{"detail":"none","id":"gpu","outcome":"skipped","title":"GPU"}]})"));
        auto back = parseDoctorReport(json);
        QVERIFY2(back, qPrintable(back.error()));
        QCOMPARE(back->findings, report.findings);
        QVERIFY(back->anyFailed());
        QCOMPARE(back->count(DoctorOutcome::Skipped), 1);
    }

    void hostileReportsAreRefused_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("because");
        QTest::newRow("not json") << QByteArray("Cohort doctor: 1 to fix") << QString();
        QTest::newRow("no findings") << QByteArray(R"({"failed":false})") << QStringLiteral("findings");
        QTest::newRow("findings not an array") << QByteArray(R"({"findings":{}})") << QStringLiteral("findings");
        QTest::newRow("item not an object") << QByteArray(R"({"findings":[1]})") << QStringLiteral("finding 0");
        QTest::newRow("unknown outcome")
            << QByteArray(R"({"findings":[{"id":"a","title":"A","outcome":"great","detail":""}]})")
            << QStringLiteral("outcome");
        QTest::newRow("id with markup")
            << QByteArray(R"({"findings":[{"id":"<b>x</b>","title":"A","outcome":"ok","detail":""}]})")
            << QStringLiteral("id");
        QTest::newRow("detail too long") << (QByteArray(
                                                 R"({"findings":[{"id":"a","title":"A","outcome":"ok","detail":")") +
                                             QByteArray(2001, 'x') + "\"}]}")
                                         << QStringLiteral("detail");
        QTest::newRow("failed disagrees")
            << QByteArray(R"({"failed":false,"findings":[{"id":"a","title":"A","outcome":"failed","detail":""}]})")
            << QStringLiteral("disagrees");
        QByteArray many = R"({"findings":[)";
        for (int i = 0; i < kMaxDoctorFindings + 1; ++i)
            many += QByteArray(i ? "," : "") + R"({"id":"a","title":"A","outcome":"ok","detail":""})";
        QTest::newRow("too many findings") << (many + "]}") << QStringLiteral("findings");
        QTest::newRow("too large") << (QByteArray(R"({"pad":")") + QByteArray(kMaxDoctorReportBytes, 'x') + "\"}")
                                   << QString();
    }

    void hostileReportsAreRefused()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, because);
        const auto report = parseDoctorReport(json);
        QVERIFY(!report);
        QVERIFY(!report.error().isEmpty());
        if (!because.isEmpty())
            QVERIFY2(report.error().contains(because), qPrintable(report.error()));
    }

    void blasLibrariesAreNamed()
    {
        bool reference = true;
        QCOMPARE(describeBlas({QStringLiteral("/usr/lib/x86_64-linux-gnu/openblas-openmp/libblas.so.3")}, &reference),
                 QStringLiteral("OpenBLAS (/usr/lib/x86_64-linux-gnu/openblas-openmp/libblas.so.3)"));
        QVERIFY(!reference);
        QVERIFY(describeBlas({QStringLiteral("/usr/lib/x86_64-linux-gnu/blas/libblas.so.3.11.0")}, &reference)
                    .startsWith(QStringLiteral("the reference BLAS")));
        QVERIFY(reference);
        QCOMPARE(describeBlas({}, &reference), QString());
        QVERIFY(!reference);
        // This test links LibTorch nowhere, so no BLAS is loaded: the list is honest about it.
        QVERIFY(loadedLibraries(QStringLiteral("libblas")).isEmpty());
        QVERIFY(!loadedLibraries(QStringLiteral("libQt6Core")).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestDoctorReport)
#include "tst_doctor_report.moc"
