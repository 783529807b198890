// "Pause when I play" from cohortd's command line, as a server owner would use it: a real cohortd on the embedded
// network with --pause-for a program name pauses while a process of that name runs (the reason names it) and works
// again once it is gone; the settings file's list is replaced by the command line's, not merged.
#include "TestSupport.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace cohort::test;

class TestCohortdPause : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void pausesWhileANamedProgramRuns()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // A program under a name nothing else on this machine has: /bin/sleep, copied.
        const QString name = QStringLiteral("cohort-game-%1").arg(QCoreApplication::applicationPid());
        const QString program = dir.filePath(name);
        QVERIFY(QFile::copy(QStandardPaths::findExecutable(QStringLiteral("sleep")), program));
        QVERIFY(QFile::setPermissions(program, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        QProcess game;
        game.start(program, {QStringLiteral("600")});
        QVERIFY(game.waitForStarted(10'000));
        // A program the settings file names runs the whole time: with --pause-for given it must not count.
        const QString other = dir.filePath(QStringLiteral("something-else"));
        QVERIFY(QFile::copy(program, other));
        QVERIFY(QFile::setPermissions(other, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        QProcess settingsProgram;
        settingsProgram.start(other, {QStringLiteral("600")});
        QVERIFY(settingsProgram.waitForStarted(10'000));

        // The settings file names another program: the command line's list replaces it.
        const QString settings = dir.filePath(QStringLiteral("node.ini"));
        {
            QFile file(settings);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("[schedule]\npauseForPrograms=something-else\n");
        }
        ChildProcess node(programPath(QStringLiteral("cohortd")),
                          {QStringLiteral("--data-dir"), dir.filePath(QStringLiteral("data")),
                           QStringLiteral("--settings"), settings, QStringLiteral("--json"),
                           QStringLiteral("--no-control-api"), QStringLiteral("--task"), QStringLiteral("arith-rl"),
                           QStringLiteral("--pause-for"), name});
        QVERIFY(node.start());
        QTRY_VERIFY2_WITH_TIMEOUT(lastJsonStatus(node.output()).value(QStringLiteral("reason")).toString() ==
                                      QLatin1String("foreground-app"),
                                  qPrintable(node.errors().right(2000)), 60'000);
        const QJsonObject paused = lastJsonStatus(node.output());
        QCOMPARE(paused.value(QStringLiteral("state")).toString(), QStringLiteral("paused"));
        QVERIFY2(paused.value(QStringLiteral("why")).toString().contains(name),
                 qPrintable(paused.value(QStringLiteral("why")).toString()));

        // The program ends: after the hold (15 s) the node works again.
        game.kill();
        QVERIFY(game.waitForFinished(10'000));
        QTRY_VERIFY2_WITH_TIMEOUT(lastJsonStatus(node.output()).value(QStringLiteral("reason")).toString() !=
                                          QLatin1String("foreground-app") &&
                                      lastJsonStatus(node.output()).value(QStringLiteral("state")).toString() !=
                                          QLatin1String("paused"),
                                  QJsonDocument(lastJsonStatus(node.output())).toJson().constData(), 60'000);
        QCOMPARE(settingsProgram.state(), QProcess::Running);
        settingsProgram.kill();
        settingsProgram.waitForFinished(10'000);
        int code = -1;
        QVERIFY(node.terminateAndWait(20'000, &code));
        QCOMPARE(code, 0);
    }
};

QTEST_GUILESS_MAIN(TestCohortdPause)
#include "tst_cohortd_pause.moc"
