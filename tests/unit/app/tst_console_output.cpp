// cohortd's calm output: the per-kind line budget, the engine's once-a-minute summary of routine events, and what
// ConsoleOutput writes to a terminal and to a pipe (real FILE streams, read back).
#include "ConsoleOutput.h"
#include "core/LogBudget.h"
#include "core/Logging.h"
#include "node/ActivitySummary.h"

#include <QSignalSpy>
#include <QTest>
#include <cstdio>

using namespace cohort;

namespace {
// A FILE the test writes through and reads back.
struct Capture {
    FILE *file = std::tmpfile();
    ~Capture() { std::fclose(file); }
    QByteArray text() const
    {
        std::fflush(file);
        const long size = std::ftell(file);
        QByteArray bytes(size, Qt::Uninitialized);
        std::rewind(file);
        const size_t got = std::fread(bytes.data(), 1, size_t(size), file);
        bytes.truncate(qsizetype(got));
        std::fseek(file, 0, SEEK_END);
        return bytes;
    }
};

EngineEvent warning(const QString &message)
{
    return EngineEvent::warning(EventCategory::Rollouts, message);
}
} // namespace

class TestConsoleOutput : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void budgetHoldsAKindToItsLinesPerWindow()
    {
        LogBudget budget(3, 60'000);
        for (int i = 0; i < 3; ++i)
            QVERIFY(budget.admit(QStringLiteral("a"), 1000 + i));
        QVERIFY(!budget.admit(QStringLiteral("a"), 1010));
        QVERIFY(!budget.admit(QStringLiteral("a"), 1020));
        QVERIFY(budget.admit(QStringLiteral("b"), 1030)); // another kind has its own budget
        QVERIFY(budget.takeEnded(60'999).isEmpty());      // the window is not over yet
        const auto ended = budget.takeEnded(61'000);
        QCOMPARE(ended.size(), 1);
        QCOMPARE(ended.first().kind, QStringLiteral("a"));
        QCOMPARE(ended.first().count, 2);
        QVERIFY(budget.takeEnded(200'000).isEmpty());        // said once
        QVERIFY(budget.admit(QStringLiteral("a"), 200'001)); // a fresh window
    }

    void budgetOfAQuietKindRestarts()
    {
        LogBudget budget(1, 1000);
        QVERIFY(budget.admit(QStringLiteral("a"), 0));
        QVERIFY(!budget.admit(QStringLiteral("a"), 10));
        QCOMPARE(budget.takeEnded(1000).first().count, 1);
        QVERIFY(budget.admit(QStringLiteral("a"), 5000));
        QVERIFY(budget.admit(QStringLiteral("a"), 7000)); // its window of 5000 ended without anything held
    }

    // A stream of ever-new kinds (a category per attacker-chosen name) must not grow the table without bound.
    void budgetKindsAreBounded()
    {
        LogBudget budget(1, 60'000);
        for (int i = 0; i < LogBudget::kMaxKinds; ++i)
            QVERIFY(budget.admit(QStringLiteral("kind %1").arg(i), 0));
        QVERIFY(budget.admit(QStringLiteral("new 1"), 1)); // the first of the overflow shares "other"
        int printed = 0;
        for (int i = 0; i < 10'000; ++i)
            printed += budget.admit(QStringLiteral("new %1").arg(i + 2), 2) ? 1 : 0;
        QCOMPARE(printed, 0);
        const auto all = budget.takeAll();
        QCOMPARE(all.size(), 1);
        QCOMPARE(all.first().kind, QStringLiteral("other"));
        QCOMPARE(all.first().count, 10'000);
    }

    void summaryTexts()
    {
        QCOMPARE(activitySummaryText(38, 0, 61440, 0.314, 1.25, 60),
                 QStringLiteral("38 batches accepted in the last minute: 61,440 tokens, mean reward 31 %, 1.250 "
                                "credits pending verification"));
        QCOMPARE(activitySummaryText(1, 2, 512, 0.5, 0.0125, 60),
                 QStringLiteral("1 batch accepted in the last minute: 512 tokens, mean reward 50 %, 0.013 credits "
                                "pending verification; 2 batches refused"));
        QCOMPARE(activitySummaryText(0, 1, 0, 0, 0, 30), QStringLiteral("1 batch refused in the last 30 s"));
        QCOMPARE(activitySummaryText(0, 0, 0, 0, 0, 60), QString());
    }

    void summaryCountsBatchesAfterTheFirstMilestone()
    {
        ActivitySummary summary(nullptr, 50);
        QSignalSpy said(&summary, &ActivitySummary::summarized);
        summary.batchAccepted(512, 0.25, 0.01);
        QCOMPARE(said.size(), 1); // the first accepted batch is said at once
        QCOMPARE(
            said.at(0).at(0).value<EngineEvent>().message,
            QStringLiteral("First batch accepted: 512 tokens, mean reward 25 %; from now on a summary once a minute"));
        QVERIFY(!said.at(0).at(0).value<EngineEvent>().routine);
        summary.batchAccepted(100, 0.5, 0.5);
        summary.batchAccepted(300, std::numeric_limits<double>::quiet_NaN(), 0.25); // a hub's garbage counts as 0
        summary.batchRejected();
        QVERIFY(said.wait(5000)); // the window's end
        QCOMPARE(said.size(), 2);
        QCOMPARE(said.at(1).at(0).value<EngineEvent>().message,
                 QStringLiteral("2 batches accepted in the last 1 s: 400 tokens, mean reward 25 %, 0.750 credits "
                                "pending verification; 1 batch refused"));
        summary.flush(); // nothing new: nothing said
        QCOMPARE(said.size(), 2);
    }

    void pipeOutputHoldsEachKindToItsBudget()
    {
        Capture out, err;
        ConsoleOutput::Options options;
        options.linesPerKindPerMinute = 5;
        ConsoleOutput console(options, out.file, err.file);
        for (int i = 0; i < 40; ++i)
            console.event(warning(QStringLiteral("refused %1").arg(i)));
        EngineEvent routine = EngineEvent::routineInfo(EventCategory::Rollouts, QStringLiteral("Batch accepted"));
        for (int i = 0; i < 40; ++i)
            console.event(routine);
        console.event(EngineEvent::error(EventCategory::Checkpoint, QStringLiteral("disk full"))); // its own kind
        console.note(QStringLiteral("stopping (signal 15)"));
        console.finish();
        const QByteArray text = err.text();
        QCOMPARE(text.count("refused "), 5);
        QVERIFY(!text.contains("Batch accepted"));
        QVERIFY(text.contains("error checkpoint: disk full"));
        QVERIFY(text.contains("cohortd: stopping (signal 15)"));
        QVERIFY2(text.contains("35 more \"rollouts warning\" lines in the last minute not shown"), text.constData());
        QVERIFY(!text.contains("\033[K")); // no terminal codes in a pipe
        QCOMPARE(out.text(), QByteArray());
    }

    void verboseShowsEverything()
    {
        Capture out, err;
        ConsoleOutput::Options options;
        options.verbose = true;
        ConsoleOutput console(options, out.file, err.file);
        for (int i = 0; i < 40; ++i)
            console.event(warning(QStringLiteral("refused %1").arg(i)));
        console.event(EngineEvent::routineInfo(EventCategory::Rollouts, QStringLiteral("Batch accepted")));
        console.finish();
        QCOMPARE(err.text().count("refused "), 40);
        QVERIFY(err.text().contains("info rollouts: Batch accepted"));
        QVERIFY(!err.text().contains("not shown"));
    }

    // On a terminal the status line is redrawn in place; a line printed meanwhile clears it, stands above it, and
    // the status comes back below; finish() leaves the last status on screen with its newline.
    void terminalKeepsTheStatusLineAtTheBottom()
    {
        Capture out, err;
        ConsoleOutput::Options options;
        options.terminal = true;
        ConsoleOutput console(options, out.file, err.file);
        console.status(QStringLiteral("[00:01] Working"));
        console.event(warning(QStringLiteral("slow relay")));
        console.status(QStringLiteral("[00:02] Working"));
        console.finish();
        QCOMPARE(out.text(), QByteArray("\r\033[K[00:01] Working"
                                        "\r\033[K"
                                        "\r\033[K[00:01] Working"
                                        "\r\033[K[00:02] Working"
                                        "\n"));
        QVERIFY(err.text().endsWith(" warning rollouts: slow relay\n"));
    }

    // Qt's messages pass through the same budget; the engine's info logging is off unless asked for.
    void qtMessagesAreBoundedAndInfoIsQuiet()
    {
        Capture out, err;
        ConsoleOutput::Options options;
        options.linesPerKindPerMinute = 2;
        {
            ConsoleOutput console(options, out.file, err.file);
            console.installMessageHandler();
            qCInfo(lcEngine) << "submitted s-1, awaiting the hub's answer";
            for (int i = 0; i < 6; ++i)
                qCWarning(lcNet) << "hub unreachable" << i;
            console.finish();
        }
        QLoggingCategory::setFilterRules(QString()); // as before the test
        const QByteArray text = err.text();
        QVERIFY2(!text.contains("submitted s-1"), text.constData());
        QCOMPARE(text.count("cohort.net warning: hub unreachable"), 2);
        QVERIFY2(text.contains("4 more \"cohort.net warning\" lines"), text.constData());
    }
};

QTEST_GUILESS_MAIN(TestConsoleOutput)
#include "tst_console_output.moc"
