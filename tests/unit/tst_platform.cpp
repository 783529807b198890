#include "platform/Autostart.h"
#include "platform/SystemSampler.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace cohort;

class TestPlatform : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void samplerReportsMachineFigures()
    {
        auto sampler = createSystemSampler();
        const SystemSample first = sampler->sample();
        QVERIFY(first.cpuCores >= 1);
#ifdef Q_OS_LINUX
        QCOMPARE(first.cpuPercent, -1.0); // no previous sample yet
        QVERIFY(first.memTotalBytes > 0);
        QVERIFY(first.memUsedBytes > 0 && first.memUsedBytes <= first.memTotalBytes);
        QVERIFY(first.processRssBytes > 0);
        // Burn a little CPU so the second sample has ticks to compare.
        volatile double x = 0;
        for (int i = 0; i < 20'000'000; ++i)
            x = x + i * 0.5;
        const SystemSample second = sampler->sample();
        QVERIFY(second.cpuPercent >= 0 && second.cpuPercent <= 100);
#endif
    }

    void autostartWritesAndRemovesEntry()
    {
#if defined(Q_OS_UNIX) && !defined(Q_OS_MACOS)
        QTemporaryDir dir;
        qputenv("COHORT_AUTOSTART_DIR", dir.path().toUtf8());
        auto autostart = createAutostart(QStringLiteral("/opt/cohort/bin/cohort"));
        QVERIFY(autostart->isSupported());
        QVERIFY(!autostart->isEnabled());
        QVERIFY(autostart->location().startsWith(dir.path()));
        QVERIFY(autostart->setEnabled(true));
        QVERIFY(autostart->isEnabled());
        QFile entry(autostart->location());
        QVERIFY(entry.open(QIODevice::ReadOnly));
        const QByteArray text = entry.readAll();
        QVERIFY(text.startsWith("[Desktop Entry]"));
        QVERIFY(text.contains("Exec=\"/opt/cohort/bin/cohort\" --minimized"));
        QVERIFY(text.contains("X-GNOME-Autostart-Delay"));
        QVERIFY(autostart->setEnabled(false));
        QVERIFY(!autostart->isEnabled());
        QVERIFY(!QFile::exists(autostart->location()));
        QVERIFY(autostart->setEnabled(false)); // idempotent
        qunsetenv("COHORT_AUTOSTART_DIR");
#else
        QSKIP("XDG autostart is Linux-only");
#endif
    }
};

QTEST_GUILESS_MAIN(TestPlatform)
#include "tst_platform.moc"
