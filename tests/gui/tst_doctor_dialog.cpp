// Help › Check this computer: the dialog runs the real cohortd --doctor (here on the embedded network, so no hub is
// needed), shows every finding with its fix, and says plainly when the program is missing or prints anything but a
// report.
#include "TestSupport.h"
#include "ui/DoctorDialog.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace cohort;

class TestDoctorDialog : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void showsTheRealReport()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        qputenv("COHORT_TESTING_FREE_DISK_BYTES",
                QByteArray::number(50 << 20)); // cohortd inherits it: one thing to fix
        DoctorDialog dialog(test::programPath(QStringLiteral("cohortd")),
                            {QStringLiteral("--settings"), dir.filePath(QStringLiteral("s.ini")),
                             QStringLiteral("--data-dir"), dir.filePath(QStringLiteral("data"))});
        QSignalSpy shown(&dialog, &DoctorDialog::reportShown);
        dialog.show();
        dialog.run();
        QVERIFY(dialog.isRunning());
        QVERIFY(dialog.statusText().startsWith(QStringLiteral("Checking")));
        QVERIFY(shown.wait(60'000));
        qunsetenv("COHORT_TESTING_FREE_DISK_BYTES");
        QCOMPARE(dialog.findingCount(), 9);
        QVERIFY2(dialog.statusText().contains(QStringLiteral("1 thing keeps Cohort from working here")),
                 qPrintable(dialog.statusText()));
        QStringList rows;
        for (int i = 0; i < dialog.findingCount(); ++i)
            rows << dialog.findingText(i);
        const QString all = rows.join(QLatin1Char('\n'));
        QVERIFY2(rows.at(0).startsWith(QStringLiteral("Hub reachable, its key pinned: Not needed here")),
                 qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("Free disk for the task: Fix this")) &&
                     all.contains(QStringLiteral("Fix: Free 150 MB")),
                 qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("Data folder writable: OK")), qPrintable(all));
    }

    void saysWhenTheProgramPrintsSomethingElse()
    {
        DoctorDialog dialog(QStringLiteral("/bin/echo"), {QStringLiteral("not a report")});
        QSignalSpy shown(&dialog, &DoctorDialog::reportShown);
        dialog.run();
        QVERIFY(shown.wait(10'000));
        QCOMPARE(dialog.findingCount(), 0);
        QVERIFY2(dialog.statusText().contains(QStringLiteral("could not be read")), qPrintable(dialog.statusText()));
    }

    void saysWhenTheProgramIsMissing()
    {
        DoctorDialog missing(QStringLiteral("/nonexistent/cohortd"), {});
        QSignalSpy shown(&missing, &DoctorDialog::reportShown);
        missing.run();
        QVERIFY(shown.count() > 0 || shown.wait(10'000));
        QVERIFY2(missing.statusText().contains(QStringLiteral("could not be started")),
                 qPrintable(missing.statusText()));
        DoctorDialog none(QString(), {});
        none.run();
        QVERIFY(none.statusText().contains(QStringLiteral("not found")));
    }
};

QTEST_MAIN(TestDoctorDialog)
#include "tst_doctor_dialog.moc"
