// The `cohort` executable as a user (or the session manager) runs it, in a private home folder.
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

class TestCohortApp : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_home;

    QProcessEnvironment environment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.filePath(QStringLiteral("share")));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen")); // no tray on this platform
        env.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("cohort.*.info=true"));
        return env;
    }

    void startCohort(QProcess &process, const QStringList &arguments) const
    {
        process.setProcessEnvironment(environment());
        process.start(QStringLiteral(COHORT_APP_PATH), arguments);
        QVERIFY2(process.waitForStarted(10000), qPrintable(process.errorString()));
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_home.isValid()); }

    void printsItsVersion()
    {
        QProcess process;
        startCohort(process, {QStringLiteral("--version")});
        QVERIFY(process.waitForFinished(10000));
        QCOMPARE(process.exitCode(), 0);
        QVERIFY2(process.readAllStandardOutput().contains(COHORT_VERSION_STRING), "version missing from --version");
    }

    void refusesBadArguments_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QByteArray>("option");
        QTest::newRow("ftp hub") << QStringList{QStringLiteral("--hub"), QStringLiteral("ftp://x")}
                                 << QByteArray("--hub");
        QTest::newRow("not a url") << QStringList{QStringLiteral("--hub"), QStringLiteral("not a url")}
                                   << QByteArray("--hub");
        QTest::newRow("data dir is a file")
            << QStringList{QStringLiteral("--data-dir"), QStringLiteral(COHORT_APP_PATH)} << QByteArray("--data-dir");
    }

    void refusesBadArguments()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QByteArray, option);
        QProcess process;
        startCohort(process, arguments);
        QVERIFY(process.waitForFinished(10000));
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(process.exitCode(), 2);
        const QByteArray errors = process.readAllStandardError();
        QVERIFY2(errors.contains(option), errors.constData());
    }

#if defined(Q_OS_UNIX) && !defined(Q_OS_MACOS)
    // Over ssh, with no desktop: --help still answers, and a start says what to run instead of a Qt plugin error.
    void withoutADisplay_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QByteArray>("output");
        QTest::newRow("--help") << QStringList{QStringLiteral("--help")} << 0 << QByteArray("--data-dir");
        QTest::newRow("--version") << QStringList{QStringLiteral("--version")} << 0
                                   << QByteArray(COHORT_VERSION_STRING);
        QTest::newRow("start") << QStringList{} << 1 << QByteArray("run cohortd");
    }
    void withoutADisplay()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, exitCode);
        QFETCH(QByteArray, output);
        QProcessEnvironment env = environment();
        for (const char *name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
            env.remove(QString::fromLatin1(name));
        QProcess process;
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(COHORT_APP_PATH), arguments);
        QVERIFY2(process.waitForStarted(10000), qPrintable(process.errorString()));
        QVERIFY(process.waitForFinished(10000));
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        const QByteArray everything = process.readAllStandardOutput() + process.readAllStandardError();
        QCOMPARE(process.exitCode(), exitCode);
        QVERIFY2(everything.contains(output), everything.constData());
        QVERIFY2(!everything.contains("platform plugin"), everything.constData());
    }
#endif

#ifdef Q_OS_UNIX
    void startsWithoutATrayAndQuitsCleanlyOnSigterm()
    {
        const QString dataDir = m_home.filePath(QStringLiteral("node-data"));
        QProcess process;
        startCohort(process, {QStringLiteral("--minimized"), QStringLiteral("--data-dir"), dataDir});

        // The engine got going (with the embedded local network) when the node has its identity.
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(dataDir + QStringLiteral("/identity/node.key")), 20000);
        QCOMPARE(process.state(), QProcess::Running);

        process.terminate(); // SIGTERM, as at logout
        QVERIFY(process.waitForFinished(15000));
        const QByteArray log = process.readAllStandardError();
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QVERIFY2(process.exitCode() == 0, log.constData());
        // --minimized without a tray must not hide the window (there would be no way back to it).
        QVERIFY2(log.contains("no system tray yet; the window stays open"), log.constData());
        QVERIFY2(log.contains("quitting: stopping the engine"), log.constData());

#  ifdef COHORT_ENGINE_MODULE_BUILD
        // The engine came as the module, loaded after the window.
        QVERIFY2(log.contains("engine module") && log.contains("loaded in"), log.constData());
#  endif
        // Settings were created, but the command-line data folder was not saved into them.
        QFile ini(m_home.filePath(QStringLiteral("config/Cohort/cohort.ini")));
        QVERIFY(ini.open(QIODevice::ReadOnly));
        QVERIFY(!ini.readAll().contains("node-data"));
    }

#  ifdef COHORT_ENGINE_MODULE_BUILD
    // The program itself does not link LibTorch (the engine module does): nothing of it loads before the window.
    void programDoesNotLinkLibTorch()
    {
        QProcess readelf;
        readelf.start(QStringLiteral("readelf"), {QStringLiteral("-d"), QStringLiteral(COHORT_APP_PATH)});
        if (!readelf.waitForStarted(5000))
            QSKIP("readelf (binutils) is not installed");
        QVERIFY(readelf.waitForFinished(10000));
        const QByteArray dynamic = readelf.readAllStandardOutput();
        QVERIFY2(dynamic.contains("(NEEDED)"), dynamic.constData());
        QVERIFY2(!dynamic.contains("libtorch") && !dynamic.contains("libc10"), dynamic.constData());
    }

    // Without its engine module the app still opens, says why it cannot work, and quits cleanly.
    void aMissingEngineModuleIsReportedNotFatal()
    {
        const QString dataDir = m_home.filePath(QStringLiteral("no-module-data"));
        QProcess process;
        QProcessEnvironment env = environment();
        env.insert(QStringLiteral("COHORT_ENGINE_MODULE"), m_home.filePath(QStringLiteral("nowhere/libmissing.so")));
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(COHORT_APP_PATH), {QStringLiteral("--data-dir"), dataDir});
        QVERIFY(process.waitForStarted(10000));
        QByteArray log;
        QTRY_VERIFY_WITH_TIMEOUT(
            (log += process.readAllStandardError()).contains("the engine module could not be loaded"), 20000);
        QVERIFY2(log.contains("libmissing.so (missing)"), log.constData());
        QCOMPARE(process.state(), QProcess::Running);
        process.terminate();
        QVERIFY(process.waitForFinished(15000));
        log += process.readAllStandardError();
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QVERIFY2(process.exitCode() == 0, log.constData());
    }
#  endif
#endif
};

QTEST_GUILESS_MAIN(TestCohortApp)
#include "tst_cohort_app.moc"
