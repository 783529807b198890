#include "platform/Autostart.h"
#include "platform/DesktopIdle.h"
#include "platform/LargeBuffer.h"
#include "platform/PowerSource.h"
#include "platform/SystemSampler.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace cohort;

class TestPlatform : public QObject {
    Q_OBJECT
    static void writeSupply(const QString &root, const QString &name, const QList<QPair<QString, QString>> &files)
    {
        QDir().mkpath(root + QStringLiteral("/power_supply/") + name);
        for (const auto &[file, value] : files) {
            QFile f(root + QStringLiteral("/power_supply/") + name + QLatin1Char('/') + file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(value.toLatin1() + '\n');
        }
    }

private Q_SLOTS:
    // /sys/class/power_supply as laptops, desktops and odd machines lay it out.
    void powerSourceFromSysfs()
    {
        QTemporaryDir desktop;
        PowerStatus s = readPowerStatus(desktop.path()); // no power_supply folder at all: a desktop
        QVERIFY(!s.hasBattery);
        QCOMPARE(s.onBattery, std::optional<bool>(false));

        QTemporaryDir laptop;
        writeSupply(laptop.path(), QStringLiteral("AC"), {{QStringLiteral("type"), QStringLiteral("Mains")}, {QStringLiteral("online"), QStringLiteral("1")}});
        writeSupply(laptop.path(), QStringLiteral("BAT0"), {{QStringLiteral("type"), QStringLiteral("Battery")}, {QStringLiteral("status"), QStringLiteral("Charging")},
                                                             {QStringLiteral("capacity"), QStringLiteral("81")}});
        writeSupply(laptop.path(), QStringLiteral("hidpp_battery_0"), {{QStringLiteral("type"), QStringLiteral("Battery")}, {QStringLiteral("scope"), QStringLiteral("Device")},
                                                                        {QStringLiteral("status"), QStringLiteral("Discharging")}}); // a mouse
        s = readPowerStatus(laptop.path());
        QVERIFY(s.hasBattery);
        QCOMPARE(s.onBattery, std::optional<bool>(false));
        QCOMPARE(s.batteryPercent, 81);
        writeSupply(laptop.path(), QStringLiteral("AC"), {{QStringLiteral("online"), QStringLiteral("0")}}); // unplugged
        QCOMPARE(readPowerStatus(laptop.path()).onBattery, std::optional<bool>(true));

        QTemporaryDir noAdapter; // a battery but no mains entry: its status decides
        writeSupply(noAdapter.path(), QStringLiteral("BAT1"), {{QStringLiteral("type"), QStringLiteral("Battery")}, {QStringLiteral("status"), QStringLiteral("Discharging")}});
        QCOMPARE(readPowerStatus(noAdapter.path()).onBattery, std::optional<bool>(true));
        writeSupply(noAdapter.path(), QStringLiteral("BAT1"), {{QStringLiteral("status"), QStringLiteral("Full")}});
        QCOMPARE(readPowerStatus(noAdapter.path()).onBattery, std::optional<bool>(false));
    }

    // Without a desktop session (this test runs offscreen, usually without DISPLAY) there is no idle source, and
    // with one the answer is a plausible number of seconds.
    void desktopIdleAnswersOrSaysItCannot()
    {
        auto idle = createDesktopIdle();
        if (!idle)
            QSKIP("no desktop session here: idle time unknown (the scheduler then never holds the node back)");
        const auto seconds = idle->idleSeconds();
        QVERIFY2(seconds.has_value(), qPrintable(idle->source()));
        QVERIFY(*seconds >= 0 && *seconds < 10 * 365 * 24 * 3600);
    }

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

    // Large buffers: 2 MiB aligned from 2 MiB on (so whole huge pages fit), 64-byte aligned below, usable like any
    // vector; on Linux with THP not switched off the advice is taken (whether the kernel then finds free huge pages
    // is its business).
    void largeBuffersAreAlignedAndAdvised()
    {
        using cohort::platform::kHugePageBytes;
        cohort::platform::LargeVector<float> big(3 * kHugePageBytes / sizeof(float) + 5, 1.5f);
        QCOMPARE(reinterpret_cast<uintptr_t>(big.data()) % kHugePageBytes, uintptr_t(0));
        QCOMPARE(big.back(), 1.5f);
        cohort::platform::LargeVector<uint16_t> small(1000, 7);
        QCOMPARE(reinterpret_cast<uintptr_t>(small.data()) % 64, uintptr_t(0));
        small.assign(big.begin(), big.begin() + 10); // converts like a std::vector
        QCOMPARE(small.size(), size_t(10));
        QCOMPARE(small[9], uint16_t(1));
        big.clear();
        big.shrink_to_fit();
        QVERIFY(!cohort::platform::adviseHugePages(small.data(), small.size() * sizeof(uint16_t))); // too small

        cohort::platform::LargeVector<char> region(2 * kHugePageBytes);
#if defined(__linux__)
        QFile mode(QStringLiteral("/sys/kernel/mm/transparent_hugepage/enabled"));
        if (!mode.open(QIODevice::ReadOnly) || mode.readAll().contains("[never]"))
            QSKIP("transparent huge pages are off on this machine");
        QVERIFY(cohort::platform::adviseHugePages(region.data(), region.size()));
#else
        QVERIFY(!cohort::platform::adviseHugePages(region.data(), region.size()));
#endif
    }
};

QTEST_GUILESS_MAIN(TestPlatform)
#include "tst_platform.moc"
