#include "platform/Autostart.h"
#include "platform/DesktopIdle.h"
#include "platform/DiskSpace.h"
#include "platform/LargeBuffer.h"
#include "platform/PowerSource.h"
#include "platform/SystemSampler.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QStorageInfo>
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
        writeSupply(
            laptop.path(), QStringLiteral("AC"),
            {{QStringLiteral("type"), QStringLiteral("Mains")}, {QStringLiteral("online"), QStringLiteral("1")}});
        writeSupply(laptop.path(), QStringLiteral("BAT0"),
                    {{QStringLiteral("type"), QStringLiteral("Battery")},
                     {QStringLiteral("status"), QStringLiteral("Charging")},
                     {QStringLiteral("capacity"), QStringLiteral("81")}});
        writeSupply(laptop.path(), QStringLiteral("hidpp_battery_0"),
                    {{QStringLiteral("type"), QStringLiteral("Battery")},
                     {QStringLiteral("scope"), QStringLiteral("Device")},
                     {QStringLiteral("status"), QStringLiteral("Discharging")}}); // a mouse
        s = readPowerStatus(laptop.path());
        QVERIFY(s.hasBattery);
        QCOMPARE(s.onBattery, std::optional<bool>(false));
        QCOMPARE(s.batteryPercent, 81);
        writeSupply(laptop.path(), QStringLiteral("AC"),
                    {{QStringLiteral("online"), QStringLiteral("0")}}); // unplugged
        QCOMPARE(readPowerStatus(laptop.path()).onBattery, std::optional<bool>(true));

        QTemporaryDir noAdapter; // a battery but no mains entry: its status decides
        writeSupply(noAdapter.path(), QStringLiteral("BAT1"),
                    {{QStringLiteral("type"), QStringLiteral("Battery")},
                     {QStringLiteral("status"), QStringLiteral("Discharging")}});
        QCOMPARE(readPowerStatus(noAdapter.path()).onBattery, std::optional<bool>(true));
        writeSupply(noAdapter.path(), QStringLiteral("BAT1"), {{QStringLiteral("status"), QStringLiteral("Full")}});
        QCOMPARE(readPowerStatus(noAdapter.path()).onBattery, std::optional<bool>(false));
    }

    // A real idle source: the desktop's when this runs inside one, otherwise a private Xvfb server (installed by
    // installer/install-deps-debian.sh), read through the X11 screensaver extension as on a desktop without D-Bus.
    void desktopIdleAnswersFromARealSource()
    {
        QProcess xvfb;
        const bool haveDesktop = qEnvironmentVariableIsSet("DISPLAY") || qEnvironmentVariableIsSet("WAYLAND_DISPLAY");
        const QByteArray oldDisplay = qgetenv("DISPLAY");
        auto restore = qScopeGuard([&] {
            if (!haveDesktop)
                qunsetenv("DISPLAY");
            else
                qputenv("DISPLAY", oldDisplay);
            if (xvfb.state() != QProcess::NotRunning) {
                xvfb.terminate();
                xvfb.waitForFinished(5000);
            }
        });
        if (!haveDesktop) {
            const QString server = QStandardPaths::findExecutable(QStringLiteral("Xvfb"));
            QVERIFY2(!server.isEmpty(), "Xvfb is missing: installer/install-deps-debian.sh installs it");
            // -displayfd: the server picks a free display and writes its number once it accepts clients.
            xvfb.start(server, {QStringLiteral("-displayfd"), QStringLiteral("1"), QStringLiteral("-nolisten"),
                                QStringLiteral("tcp"), QStringLiteral("-screen"), QStringLiteral("0"),
                                QStringLiteral("320x240x24")});
            QVERIFY(xvfb.waitForStarted(10'000));
            QByteArray number;
            while (!number.contains('\n') && xvfb.waitForReadyRead(20'000))
                number += xvfb.readAllStandardOutput();
            QVERIFY2(number.trimmed().toInt() > 0 || number.trimmed() == "0", number.constData());
            qputenv("DISPLAY", ":" + number.trimmed());
        }
        auto idle = createDesktopIdle();
        QVERIFY2(idle, "no idle source answered");
        const auto seconds = idle->idleSeconds();
        QVERIFY2(seconds.has_value(), qPrintable(idle->source()));
        QVERIFY(*seconds >= 0 && *seconds < 10 * 365 * 24 * 3600);
        if (!haveDesktop) {
            QCOMPARE(idle->source(), QStringLiteral("x11-screensaver"));
            QVERIFY2(*seconds < 60, "a server started a moment ago cannot have been idle for a minute");
        }
    }

    // Free space comes from the filesystem itself; anything it cannot answer for is an error, not "enough".
    void diskSpaceIsAskedOfTheFilesystem()
    {
        QTemporaryDir dir;
        const Expected<qint64> free = availableDiskBytes(dir.path());
        QVERIFY2(free.ok(), qPrintable(free.error()));
        QVERIFY(*free > 0);
        const QStorageInfo mounted(dir.path());
        if (mounted.isValid()) // the mount table agrees within what other writers could change meanwhile
            QVERIFY2(std::abs(double(*free - mounted.bytesAvailable())) < 1024.0 * 1024 * 1024,
                     qPrintable(QStringLiteral("%1 vs %2").arg(*free).arg(mounted.bytesAvailable())));
        QVERIFY(!availableDiskBytes(dir.filePath(QStringLiteral("missing"))).ok());
        QFile file(dir.filePath(QStringLiteral("plain")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        QVERIFY(availableDiskBytes(file.fileName()).error().contains(QStringLiteral("no such folder")));
        qputenv("COHORT_TESTING_FREE_DISK_BYTES", "unknown");
        QVERIFY(!availableDiskBytes(dir.path()).ok());
        qputenv("COHORT_TESTING_FREE_DISK_BYTES", "4096");
        QCOMPARE(availableDiskBytes(dir.path()).value(), qint64(4096));
        qunsetenv("COHORT_TESTING_FREE_DISK_BYTES");
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
