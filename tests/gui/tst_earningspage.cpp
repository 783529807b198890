// The Earnings page fed with hand-made reports (no engine): figures, per-task table, chart, cache notice, CSV export.
#include "SampleSnapshots.h"
#include "core/EnergyUse.h"
#include "core/GpuHistory.h"
#include "ui/EarningsChart.h"
#include "ui/EarningsPage.h"

#include <QAreaSeries>
#include <QComboBox>
#include <QDateTimeAxis>
#include <QFile>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace cohort;

namespace {
QString labelText(const QWidget &root, const QString &name)
{
    const auto *label = root.findChild<QLabel *>(name);
    return label ? label->text() : QStringLiteral("<missing %1>").arg(name);
}

bool shown(const QWidget &root, const QString &name)
{
    const auto *widget = root.findChild<QWidget *>(name);
    return widget && widget->isVisibleTo(&root);
}

QDateTime utc(const char *iso)
{
    return QDateTime::fromString(QLatin1String(iso), Qt::ISODate).toUTC();
}

EarningsReport smallReport()
{
    EarningsReport r;
    r.nodeId = QStringLiteral("n-0123456789abcdef0123");
    r.total = {1.5, 4.25, 0.5};
    r.today = {0.5, 1, 0};
    r.last7Days = {1.5, 4, 0.25};
    r.tasks = {TaskEarnings{QStringLiteral("arith-rl"), {1.5, 4, 0.5}, 12345, 17},
               TaskEarnings{QStringLiteral("sort-diloco"), {0, 0.25, 0}, 99, 2}};
    r.history = {EarningsBucket{utc("2026-11-29T16:00:00Z"), {0, 0.75, 0}, 1024},
                 EarningsBucket{utc("2026-11-29T17:00:00Z"), {0.5, 1, 0}, 2048}};
    r.generatedAt = utc("2026-11-29T17:05:00Z");
    return r;
}

QList<QAreaSeries *> areas(const EarningsPage &page)
{
    QList<QAreaSeries *> result;
    for (QAbstractSeries *series : page.findChild<EarningsChart *>()->chart()->series())
        result.append(qobject_cast<QAreaSeries *>(series));
    return result;
}
} // namespace

class TestEarningsPage : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        // Figures are formatted with the default locale; fix it so the expected texts hold everywhere.
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    }

    void startsEmpty()
    {
        EarningsPage page;
        QVERIFY(!page.hasReport());
        QVERIFY(labelText(page, QStringLiteral("earningsEmptyState")).startsWith(QStringLiteral("No earnings yet")));
        QVERIFY(shown(page, QStringLiteral("earningsEmptyState")));
        QVERIFY(!shown(page, QStringLiteral("earningsChart")));
        QVERIFY(!shown(page, QStringLiteral("earningsTaskTable")));
        QVERIFY(!shown(page, QStringLiteral("earningsCacheNotice")));
        QVERIFY(!shown(page, QStringLiteral("earningsUpdated")));
        QVERIFY(!page.findChild<QPushButton *>(QStringLiteral("exportCsvButton"))->isEnabled());
        QCOMPARE(labelText(page, QStringLiteral("pendingEarnings")), QStringLiteral("0.00 credits"));
    }

    void showsAReport()
    {
        EarningsPage page;
        page.setReport(smallReport(), false);
        QCOMPARE(labelText(page, QStringLiteral("pendingEarnings")), QStringLiteral("1.50 credits"));
        QCOMPARE(labelText(page, QStringLiteral("confirmedEarnings")), QStringLiteral("4.25 credits"));
        QCOMPARE(labelText(page, QStringLiteral("refusedEarnings")), QStringLiteral("0.50 credits"));
        QCOMPARE(labelText(page, QStringLiteral("confirmedRecent")), QStringLiteral("Today 1.00 · 7 days 4.00"));
        QCOMPARE(labelText(page, QStringLiteral("refusedRecent")), QStringLiteral("Today 0.00 · 7 days 0.25"));
        QVERIFY(labelText(page, QStringLiteral("earningsUpdated")).startsWith(QStringLiteral("Last updated ")));
        QVERIFY(!shown(page, QStringLiteral("earningsEmptyState")));
        QVERIFY(!shown(page, QStringLiteral("earningsCacheNotice")));
        QVERIFY(page.findChild<QPushButton *>(QStringLiteral("exportCsvButton"))->isEnabled());

        const auto *table = page.findChild<QTableWidget *>(QStringLiteral("earningsTaskTable"));
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(table->columnCount(), 5);
        const QStringList row0{table->item(0, 0)->text(), table->item(0, 1)->text(), table->item(0, 2)->text(),
                               table->item(0, 3)->text(), table->item(0, 4)->text()};
        QCOMPARE(row0, (QStringList{QStringLiteral("arith-rl"), QStringLiteral("1.50"), QStringLiteral("4.00"),
                                    QStringLiteral("12,345"), QStringLiteral("17")}));
        QCOMPARE(table->item(1, 0)->text(), QStringLiteral("sort-diloco"));

        // Two stacked bands, one flat step (two points) per hour of the default 7-day window.
        const QList<QAreaSeries *> series = areas(page);
        QCOMPARE(series.size(), 2);
        QCOMPARE(series.at(0)->name(), QStringLiteral("Confirmed"));
        QCOMPARE(series.at(1)->name(), QStringLiteral("Pending"));
        QCOMPARE(series.at(0)->upperSeries()->count(), 2 * 7 * 24);
        // The 17:00 bucket: confirmed 1 at the bottom, pending 0.5 stacked on it.
        const qreal at17 = qreal(utc("2026-11-29T17:00:00Z").toMSecsSinceEpoch());
        // Each hour is a flat step from its start to its end; the step that starts at 17:00 is the second point there.
        const auto valueAt = [at17](QLineSeries *line) {
            qreal y = -1;
            for (const QPointF &p : line->points())
                if (p.x() == at17)
                    y = p.y();
            return y;
        };
        QCOMPARE(valueAt(series.at(0)->upperSeries()), 1.0);
        QCOMPARE(valueAt(series.at(1)->lowerSeries()), 1.0);
        QCOMPARE(valueAt(series.at(1)->upperSeries()), 1.5);

        // The range selector redraws the same history over 24 hours or 30 days.
        auto *range = page.findChild<QComboBox *>(QStringLiteral("earningsRange"));
        range->setCurrentIndex(0);
        QCOMPARE(areas(page).size(), 2);
        QCOMPARE(areas(page).at(0)->upperSeries()->count(), 2 * 24);
        QCOMPARE(valueAt(areas(page).at(1)->upperSeries()), 1.5);
        range->setCurrentIndex(2);
        QCOMPARE(areas(page).at(0)->upperSeries()->count(), 2 * 30 * 24);
        // Redrawing replaces the axes rather than piling them up.
        QCOMPARE(page.findChild<EarningsChart *>()->chart()->axes().size(), 2);
    }

    void anEmptyReportKeepsTheEmptyState()
    {
        EarningsPage page;
        EarningsReport none;
        none.nodeId = QStringLiteral("n-1");
        none.generatedAt = QDateTime::currentDateTimeUtc();
        page.setReport(none, false);
        QVERIFY(shown(page, QStringLiteral("earningsEmptyState")));
        QVERIFY(!shown(page, QStringLiteral("earningsChart")));
        QVERIFY(shown(page, QStringLiteral("earningsUpdated")));
    }

    void saysWhenFiguresComeFromTheCache()
    {
        EarningsPage page;
        page.setReport(smallReport(), true);
        QVERIFY(shown(page, QStringLiteral("earningsCacheNotice")));
        QVERIFY(labelText(page, QStringLiteral("earningsCacheNotice")).contains(QStringLiteral("cannot be reached")));
        page.setHubReachable(true);
        QVERIFY(!shown(page, QStringLiteral("earningsCacheNotice")));
        page.setHubReachable(false);
        QVERIFY(shown(page, QStringLiteral("earningsCacheNotice")));
        page.setReport(smallReport(), false);
        QVERIFY(!shown(page, QStringLiteral("earningsCacheNotice")));
    }

    // The payout address the hub has on record, checked against the one in Settings: the user sees where the
    // earnings go and whether a change has reached the hub yet. An older hub that does not say shows nothing.
    void showsThePayoutAddressOnRecord()
    {
        const QString address = QStringLiteral("0x52908400098527886e0f7030069857d2e4169ee7");
        const QString checksummed = QStringLiteral("0x52908400098527886E0F7030069857D2E4169EE7");
        const QString other = QStringLiteral("0xde709f2102306220921060314715629080e2fb77");
        EarningsPage page;
        page.setLocalPayoutAddress(address);
        page.setReport(smallReport(), false); // an older hub: no payout_address
        QVERIFY(!shown(page, QStringLiteral("payoutOnRecord")));

        EarningsReport report = smallReport();
        report.payoutAddress = checksummed;
        page.setReport(report, false);
        QVERIFY(shown(page, QStringLiteral("payoutOnRecord")));
        QCOMPARE(labelText(page, QStringLiteral("payoutOnRecord")),
                 QStringLiteral("Paid to %1, the address the hub has on record.").arg(checksummed));

        page.setLocalPayoutAddress(other); // changed in Settings; the hub has not heard yet
        QVERIFY(labelText(page, QStringLiteral("payoutOnRecord"))
                    .startsWith(QStringLiteral("The hub has %1 on record, not").arg(checksummed)));
        QVERIFY(labelText(page, QStringLiteral("payoutOnRecord"))
                    .contains(QStringLiteral("0xde709f2102306220921060314715629080e2fB77"), Qt::CaseInsensitive));
        page.setLocalPayoutAddress(QString());
        QVERIFY(labelText(page, QStringLiteral("payoutOnRecord")).startsWith(QStringLiteral("The hub still has")));

        report.payoutAddress = QString();
        page.setReport(report, false);
        QVERIFY(labelText(page, QStringLiteral("payoutOnRecord")).startsWith(QStringLiteral("No payout address yet")));
        page.setLocalPayoutAddress(address);
        QVERIFY(labelText(page, QStringLiteral("payoutOnRecord")).contains(checksummed));
        QVERIFY(labelText(page, QStringLiteral("payoutOnRecord"))
                    .startsWith(QStringLiteral("The hub has no payout address")));
    }

    void exportsCsv()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("earnings.csv"));
        EarningsPage page;
        page.setReport(smallReport(), false);
        int asked = 0;
        page.setSavePathProvider([&asked, path] {
            ++asked;
            return path;
        });
        page.findChild<QPushButton *>(QStringLiteral("exportCsvButton"))->click();
        QCOMPARE(asked, 1);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(file.readAll()), QStringLiteral("hour_utc,pending,confirmed,refused,tokens\n"
                                                                   "2026-11-29T16:00:00Z,0,0.75,0,1024\n"
                                                                   "2026-11-29T17:00:00Z,0.5,1,0,2048\n"));
        QVERIFY(shown(page, QStringLiteral("exportCsvNote")));
        QVERIFY(!shown(page, QStringLiteral("exportCsvError")));

        // Cancelling the dialog writes nothing and says nothing.
        page.setSavePathProvider([] { return QString(); });
        page.findChild<QPushButton *>(QStringLiteral("exportCsvButton"))->click();
        QVERIFY(!shown(page, QStringLiteral("exportCsvError")));

        // A folder that does not exist: the error is shown on the page.
        const QString bad = dir.filePath(QStringLiteral("missing/folder/earnings.csv"));
        page.setSavePathProvider([bad] { return bad; });
        page.findChild<QPushButton *>(QStringLiteral("exportCsvButton"))->click();
        QVERIFY(shown(page, QStringLiteral("exportCsvError")));
        QVERIFY2(labelText(page, QStringLiteral("exportCsvError")).startsWith(QStringLiteral("Could not save")),
                 qPrintable(labelText(page, QStringLiteral("exportCsvError"))));
        QVERIFY(!shown(page, QStringLiteral("exportCsvNote")));
        QVERIFY(!page.exportCsv(bad));
    }

    // Energy from stored GPU minutes: only minutes with a power reading, only the chosen GPUs, today split off.
    void energyFromGpuMinutes()
    {
        const qint64 now = 1'800'000'000;
        const qint64 todayStart = now - 3600;
        const auto minute = [](const char *gpu, qint64 time, double watts, int samples) {
            GpuHistoryRecord r;
            r.gpu = QLatin1String(gpu);
            r.point.time = time;
            r.point.powerW = watts;
            r.point.samples = samples;
            return r;
        };
        const QList<GpuHistoryRecord> minutes{
            minute("GPU-a", now - 2 * 3600, 360, 60),        // yesterday: 6 Wh
            minute("GPU-a", now - 600, 720, 60),             // today: 12 Wh
            minute("GPU-b", now - 600, 180, 30),             // today, other GPU: 1.5 Wh
            minute("GPU-a", now - 300, qQNaN(), 60),         // no power reading: counts nothing
            minute("GPU-a", now - 8 * 24 * 3600, 1000, 60)}; // older than the week
        const EnergyUse all = energyUse(minutes, {}, now, todayStart);
        QVERIFY(all.hasReadings);
        QCOMPARE(all.todayWh, 13.5);
        QCOMPARE(all.weekWh, 19.5);
        const EnergyUse onlyA = energyUse(minutes, {QStringLiteral("GPU-a")}, now, todayStart);
        QCOMPARE(onlyA.todayWh, 12.0);
        QCOMPARE(onlyA.weekWh, 18.0);
        QVERIFY(!energyUse({minute("GPU-a", now - 60, qQNaN(), 60)}, {}, now, todayStart).hasReadings);

        const NetEarnings costOnly = netOfEnergy(all, 2, 10, 0.4, 0);
        QCOMPARE(costOnly.costWeek, 19.5 / 1000 * 0.4);
        QVERIFY(!costOnly.netWeek);
        const NetEarnings net = netOfEnergy(all, 2, 10, 0.4, 0.5);
        QCOMPARE(*net.netToday, 2 * 0.5 - 13.5 / 1000 * 0.4);
        QCOMPARE(*net.netWeek, 10 * 0.5 - 19.5 / 1000 * 0.4);
    }

    // The page: "no GPU power readings" when there are none; else the energy, and with a tariff its cost and
    // earnings net of it.
    void showsEnergyAndNetEarnings()
    {
        EarningsPage page;
        page.show();
        page.setReport(smallReport(), false); // today 1.5 credits, 7 days 5.5 (pending + confirmed)
        QVERIFY(shown(page, QStringLiteral("energyCard")));
        page.setEnergy(EnergyUse{});
        QVERIFY(labelText(page, QStringLiteral("energyUsed")).contains(QStringLiteral("No GPU power readings")));
        QVERIFY(!shown(page, QStringLiteral("energyNet")));

        EnergyUse use;
        use.hasReadings = true;
        use.todayWh = 1500;
        use.weekWh = 10'000;
        page.setEnergy(use);
        QVERIFY(labelText(page, QStringLiteral("energyUsed")).contains(QStringLiteral("today 1.50 kWh")));
        QVERIFY(labelText(page, QStringLiteral("energyUsed")).contains(QStringLiteral("7 days 10.00 kWh")));
        QVERIFY(shown(page, QStringLiteral("energyNet")));
        QVERIFY(labelText(page, QStringLiteral("energyNet")).contains(QStringLiteral("Settings")));

        page.setTariff(0.30, QStringLiteral("EUR"), 0);
        QVERIFY(labelText(page, QStringLiteral("energyNet")).contains(QStringLiteral("today 0.45 EUR")));
        QVERIFY(labelText(page, QStringLiteral("energyNet")).contains(QStringLiteral("7 days 3.00 EUR")));

        page.setTariff(0.30, QStringLiteral("EUR"), 2.0); // 1.5 x 2 - 0.45 = 2.55; 5.5 x 2 - 3 = 8.00
        const QString net = labelText(page, QStringLiteral("energyNet"));
        QVERIFY2(net.contains(QStringLiteral("today 2.55 EUR")), qPrintable(net));
        QVERIFY2(net.contains(QStringLiteral("7 days 8.00 EUR")), qPrintable(net));
        // A new report changes the net figures at once.
        EarningsReport more = smallReport();
        more.last7Days.confirmed += 1;
        page.setReport(more, false);
        QVERIFY(labelText(page, QStringLiteral("energyNet")).contains(QStringLiteral("7 days 10.00 EUR")));
    }

    void rendersTheSampleWeek()
    {
        // Smoke test of the full sample, as the screenshot tool draws it.
        EarningsPage page;
        page.resize(760, 560);
        page.setReport(samples::earnings(), false);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY(!page.grab().isNull());
        QCOMPARE(areas(page).size(), 2);
    }
};

QTEST_MAIN(TestEarningsPage)
#include "tst_earningspage.moc"
