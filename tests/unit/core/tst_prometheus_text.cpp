// The Prometheus text writer (core/PrometheusText.h) and what cohortd and cohort-hub write with it
// (node/NodeMetrics.h, hub/HubMetrics.h): exact text for known input, escaping, numbers, refusals, and values nobody
// knows left out instead of written as 0. tst_metrics_e2e scrapes the real programs and parses their text with the
// Prometheus project's own parser.
#include "core/PrometheusText.h"
#include "hub/HubMetrics.h"
#include "node/NodeMetrics.h"

#include <QSet>
#include <QTest>

#include <cmath>
#include <limits>

using namespace cohort;
using namespace cohort::prometheus;

namespace {

// The exposition format's structure, checked line by line: each family's # HELP then # TYPE once, its samples
// straight after and named after it, no family twice. Returns what is wrong ("" when nothing).
QString structureProblem(const QByteArray &text)
{
    if (!text.isEmpty() && !text.endsWith('\n'))
        return QStringLiteral("no final line feed");
    QSet<QByteArray> seen;
    QByteArray family;
    int samples = 0;
    for (const QByteArray &line : text.split('\n')) {
        if (line.isEmpty())
            continue;
        if (line.startsWith("# HELP ")) {
            if (!family.isEmpty() && samples == 0)
                return QStringLiteral("family %1 has no samples").arg(QString::fromUtf8(family));
            family = line.mid(7).split(' ').value(0);
            if (seen.contains(family))
                return QStringLiteral("family %1 twice").arg(QString::fromUtf8(family));
            seen.insert(family);
            samples = -1; // a # TYPE must follow
            continue;
        }
        if (line.startsWith("# TYPE ")) {
            if (samples != -1 || line.mid(7).split(' ').value(0) != family)
                return QStringLiteral("a # TYPE out of place: %1").arg(QString::fromUtf8(line));
            samples = 0;
            continue;
        }
        const QByteArray name = line.left(line.indexOf(line.contains('{') ? '{' : ' '));
        if (name != family || samples < 0)
            return QStringLiteral("a sample outside its family: %1").arg(QString::fromUtf8(line));
        ++samples;
    }
    return {};
}

EngineSnapshot workingSnapshot()
{
    EngineSnapshot s;
    s.state = NodeState::Working;
    s.stateSince = QDateTime::fromMSecsSinceEpoch(1'700'000'000'500);
    s.nodeId = QStringLiteral("n-1");
    s.nodeName = QStringLiteral("desk \"east\"\\1");
    s.hubUrl = QStringLiteral("http://127.0.0.1:8420");
    s.joinedTaskId = QStringLiteral("arith-rl");
    s.schedule.throttleReasons = {PauseReason::TooHot};
    s.schedule.dutyCycle = 0.5;
    s.heartbeatFailures = 2;
    s.rollouts.batchesAccepted = 5;
    s.rollouts.batchesRejected = 1;
    s.rollouts.tokensGenerated = 123456789;
    s.rollouts.tokensPerSecond = 410.25;
    s.rollouts.lastMeanReward = -1; // before the first batch: unknown
    s.system.cpuPercent = -1;       // one sample only: unknown
    s.system.processRssBytes = 300 << 20;
    s.system.memTotalBytes = 0; // unknown
    GpuSample full;
    full.index = 0;
    full.uuid = QStringLiteral("GPU-a");
    full.name = QStringLiteral("A");
    full.utilizationPercent = 87;
    full.memoryUsedBytes = qint64(6) << 30;
    full.memoryTotalBytes = qint64(24) << 30;
    full.temperatureC = 64;
    full.powerW = 212.5;
    full.smClockMHz = 1800;
    GpuSample partial; // NVML gave only the temperature
    partial.index = 1;
    partial.uuid = QStringLiteral("GPU-b");
    partial.name = QStringLiteral("B");
    partial.temperatureC = 71;
    s.gpus = {full, partial};
    ComputeWorkerStatus onA;
    onA.gpuUuid = QStringLiteral("GPU-a");
    onA.device = QStringLiteral("cuda:0");
    onA.generating = true;
    onA.tokensPerSecond = 410.25;
    onA.batchesAccepted = 5;
    onA.memoryBudgetBytes = 12884901888;
    ComputeWorkerStatus onB = onA;
    onB.gpuUuid = QStringLiteral("GPU-b");
    onB.device = QStringLiteral("cuda:1");
    onB.paused = true;
    onB.generating = false;
    onB.tokensPerSecond = 0;
    onB.batchesAccepted = 0;
    s.computeWorkers = {onA, onB};
    return s;
}

} // namespace

class TestPrometheusText : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void writesFamiliesWithHelpTypeAndSamples()
    {
        Writer w;
        w.family("cohort_demo_total", Type::Counter, QStringLiteral("Things done.\nSecond line \\ here."));
        w.add(3);
        w.family("cohort_unknown", Type::Gauge, QStringLiteral("Never known: left out."));
        w.add(std::optional<int>());
        w.family("cohort_temperature_celsius", Type::Gauge, QStringLiteral("Heat."));
        w.add(std::optional<double>(41.5), {{"gpu", QStringLiteral("0")}, {"name", QStringLiteral("a \"b\" c\\d\ne")}});
        w.add(std::optional<int>(), {{"gpu", QStringLiteral("1")}});
        w.add(-7, {{"gpu", QStringLiteral("2")}});
        QVERIFY2(w.problems().isEmpty(), qPrintable(w.problems().join(QLatin1Char('\n'))));
        QCOMPARE(w.text(), QByteArray("# HELP cohort_demo_total Things done.\\nSecond line \\\\ here.\n"
                                      "# TYPE cohort_demo_total counter\n"
                                      "cohort_demo_total 3\n"
                                      "# HELP cohort_temperature_celsius Heat.\n"
                                      "# TYPE cohort_temperature_celsius gauge\n"
                                      "cohort_temperature_celsius{gpu=\"0\",name=\"a \\\"b\\\" c\\\\d\\ne\"} 41.5\n"
                                      "cohort_temperature_celsius{gpu=\"2\"} -7\n"));
        QCOMPARE(structureProblem(w.text()), QString());
    }

    void escapesLabelValuesAndHelp()
    {
        QCOMPARE(escapeLabelValue(QStringLiteral("plain")), QByteArray("plain"));
        QCOMPARE(escapeLabelValue(QStringLiteral("a\\b\"c\nd")), QByteArray("a\\\\b\\\"c\\nd"));
        QCOMPARE(escapeLabelValue(QStringLiteral("Grüße")), QStringLiteral("Grüße").toUtf8());   // UTF-8 as it is
        QCOMPARE(escapeHelp(QStringLiteral("say \"hi\"\\\n")), QByteArray("say \"hi\"\\\\\\n")); // quotes stay in HELP
    }

    void formatsNumbers_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("zero") << 0.0 << QByteArray("0");
        QTest::newRow("negative zero") << -0.0 << QByteArray("0");
        QTest::newRow("whole") << 1234567.0 << QByteArray("1234567");
        QTest::newRow("large whole") << 9007199254740991.0 << QByteArray("9007199254740991");
        QTest::newRow("negative") << -42.0 << QByteArray("-42");
        QTest::newRow("fraction") << 0.1 << QByteArray("0.1");
        QTest::newRow("ratio") << 0.87 << QByteArray("0.87");
        QTest::newRow("NaN") << std::numeric_limits<double>::quiet_NaN() << QByteArray("NaN");
        QTest::newRow("+Inf") << std::numeric_limits<double>::infinity() << QByteArray("+Inf");
        QTest::newRow("-Inf") << -std::numeric_limits<double>::infinity() << QByteArray("-Inf");
    }
    void formatsNumbers()
    {
        QFETCH(double, value);
        QFETCH(QByteArray, text);
        QCOMPARE(formatValue(value), text);
    }

    // Whatever the value, the text reads back as the same double (Prometheus parses it with Go's ParseFloat).
    void numbersReadBackExactly()
    {
        for (double v : {1e300, -1e-300, 1.0 / 3.0, 2.5e-7, 9007199254740992.0, 1.8446744073709552e19, 123456.789,
                         std::numeric_limits<double>::min(), std::numeric_limits<double>::max()}) {
            const QByteArray text = formatValue(v);
            bool ok = false;
            QCOMPARE(text.toDouble(&ok), v);
            QVERIFY2(ok && !text.contains(','), text.constData());
        }
    }

    // Mistakes in names cost their own family only, and are reported.
    void refusesWhatPrometheusWouldNotRead()
    {
        Writer w;
        w.family("cohort ok", Type::Gauge, QStringLiteral("space in the name"));
        w.add(1);
        w.family("9lives", Type::Gauge, QStringLiteral("starts with a digit"));
        w.add(1);
        w.family("cohort_done", Type::Counter, QStringLiteral("a counter without _total"));
        w.add(1);
        w.family("cohort_good", Type::Gauge, QStringLiteral("fine"));
        w.add(1, {{"bad-label", QStringLiteral("x")}});
        w.add(2, {{"__reserved", QStringLiteral("x")}});
        w.add(3, {{"a", QStringLiteral("x")}, {"a", QStringLiteral("y")}});
        w.add(4, {{"a", QStringLiteral("x")}});
        w.add(5, {{"a", QStringLiteral("x")}}); // the same series again
        w.family("cohort_good", Type::Gauge, QStringLiteral("again"));
        w.add(6);
        QCOMPARE(w.problems().size(), 12); // each refused family's sample is one more
        QCOMPARE(w.text(), QByteArray("# HELP cohort_good fine\n# TYPE cohort_good gauge\ncohort_good{a=\"x\"} 4\n"));
        QVERIFY(isValidMetricName("cohort:rule_name"));
        QVERIFY(!isValidLabelName("cohort:x"));
        QVERIFY(isValidLabelName("_x"));

        Writer none;
        none.add(1);
        QCOMPARE(none.problems().size(), 1);
        QVERIFY(none.text().isEmpty());
    }

    void nodeMetricsSayWhatTheSnapshotKnows()
    {
        const EngineSnapshot s = workingSnapshot();
        EarningsReport earnings;
        earnings.total = {1.5, 20.25, 0.5};
        const QByteArray text = renderNodeMetrics(s, earnings, NodeMetricTotals{});
        QCOMPARE(structureProblem(text), QString());
        const QList<QByteArray> lines = text.split('\n');
        for (const char *expected : {
                 "cohort_build_info{version=\"" COHORT_VERSION_STRING "\"} 1",
                 "cohort_node_info{node_id=\"n-1\",name=\"desk "
                 "\\\"east\\\"\\\\1\",hub=\"http://127.0.0.1:8420\",task=\"arith-rl\"} 1",
                 "cohort_node_state{state=\"working\"} 1",
                 "cohort_node_state{state=\"idle\"} 0",
                 "cohort_node_state{state=\"paused\"} 0",
                 "cohort_node_state_since_timestamp_seconds 1700000000.5",
                 "cohort_node_pause_reason{reason=\"too-hot\"} 1",
                 "cohort_node_pause_reason{reason=\"user\"} 0",
                 "cohort_scheduler_duty_cycle_ratio 0.5",
                 "cohort_heartbeat_failures 2",
                 "# TYPE cohort_rollout_batches_accepted_total counter",
                 "cohort_rollout_batches_accepted_total 5",
                 "cohort_rollout_batches_refused_total 1",
                 "cohort_rollout_tokens_generated_total 123456789",
                 "cohort_rollout_tokens_per_second 410.25",
                 "cohort_earnings_credits{status=\"pending\"} 1.5",
                 "cohort_earnings_credits{status=\"confirmed\"} 20.25",
                 "cohort_earnings_credits{status=\"refused\"} 0.5",
                 "cohort_process_resident_memory_bytes 314572800",
                 "cohort_gpu_utilization_ratio{gpu=\"0\",uuid=\"GPU-a\",name=\"A\"} 0.87",
                 "cohort_gpu_memory_used_bytes{gpu=\"0\",uuid=\"GPU-a\",name=\"A\"} 6442450944",
                 "cohort_gpu_memory_total_bytes{gpu=\"0\",uuid=\"GPU-a\",name=\"A\"} 25769803776",
                 "cohort_gpu_temperature_celsius{gpu=\"0\",uuid=\"GPU-a\",name=\"A\"} 64",
                 "cohort_gpu_temperature_celsius{gpu=\"1\",uuid=\"GPU-b\",name=\"B\"} 71",
                 "cohort_gpu_power_watts{gpu=\"0\",uuid=\"GPU-a\",name=\"A\"} 212.5",
                 "cohort_gpu_sm_clock_hertz{gpu=\"0\",uuid=\"GPU-a\",name=\"A\"} 1800000000",
                 // A worker per GPU (every GPU used): the second paused on its own.
                 "cohort_worker_paused{device=\"cuda:0\",uuid=\"GPU-a\"} 0",
                 "cohort_worker_paused{device=\"cuda:1\",uuid=\"GPU-b\"} 1",
                 "cohort_worker_generating{device=\"cuda:0\",uuid=\"GPU-a\"} 1",
                 "cohort_worker_tokens_per_second{device=\"cuda:0\",uuid=\"GPU-a\"} 410.25",
                 "# TYPE cohort_worker_batches_accepted_total counter",
                 "cohort_worker_batches_accepted_total{device=\"cuda:0\",uuid=\"GPU-a\"} 5",
                 "cohort_worker_memory_budget_bytes{device=\"cuda:1\",uuid=\"GPU-b\"} 12884901888",
             })
            QVERIFY2(lines.contains(QByteArray(expected)), expected);
        // Unknown is absent, never 0: the second GPU's power and utilization, the CPU before its second sample, the
        // machine's memory, the reward before the first batch, the families nobody knows at all.
        for (const char *absent :
             {"cohort_gpu_power_watts{gpu=\"1\"", "cohort_gpu_utilization_ratio{gpu=\"1\"",
              "cohort_cpu_utilization_ratio", "cohort_memory_total_bytes", "cohort_rollout_last_mean_reward",
              "cohort_gpu_fan_speed_ratio", "cohort_last_heartbeat_timestamp_seconds", "cohort_diloco_revision",
              "cohort_checkpoint_download_size_bytes"})
            QVERIFY2(!text.contains(absent), absent);
        // Without a report from the hub there are no earnings to show.
        QVERIFY(!renderNodeMetrics(s, std::nullopt, NodeMetricTotals{}).contains("cohort_earnings_credits"));
    }

    // The totals a snapshot cannot carry: checkpoint bytes over several downloads, and all-reduce bytes per step.
    void totalsSumOverSnapshots()
    {
        NodeMetricTotals totals;
        EngineSnapshot s;
        s.download.taskId = QStringLiteral("t");
        s.download.version = 1;
        for (qint64 fetched : {0, 1000, 5000, 5000}) {
            s.download.fetchedThisSession = fetched;
            totals.observe(s);
        }
        s.download.version = 2; // the next version: the downloader counts from 0 again
        for (qint64 fetched : {300, 700}) {
            s.download.fetchedThisSession = fetched;
            totals.observe(s);
        }
        s.download.fetchedThisSession = 200; // the same download started again
        totals.observe(s);
        QCOMPARE(totals.checkpointBytes, 5000 + 700 + 200);

        s.diloco.lastReduceBytes = 100;
        s.diloco.outerStepsThisRun = 1;
        totals.observe(s);
        totals.observe(s);              // the same snapshot again counts nothing
        s.diloco.outerStepsThisRun = 3; // two steps in one snapshot
        totals.observe(s);
        s.diloco.outerStepsThisRun = 1; // the engine restarted: its run counter did too
        totals.observe(s);
        QCOMPARE(totals.outerSteps, 4);
        QCOMPARE(totals.allReduceBytes, 400);
        const QByteArray text = renderNodeMetrics(s, std::nullopt, totals);
        QVERIFY(text.contains("\ncohort_checkpoint_download_bytes_total 5900\n"));
        QVERIFY(text.contains("\ncohort_diloco_all_reduce_bytes_total 400\n"));
        QVERIFY(text.contains("\ncohort_diloco_outer_steps_total 4\n"));
    }

    void hubMetricsGolden()
    {
        HubMetricsInput in;
        in.nodes = {12, 3};
        RlCoordinator::TaskMetrics rl;
        rl.submissionsAccepted = 40;
        rl.submissionsRefused = 2;
        rl.verificationsConfirmed = 38;
        rl.queuedBatches = 2;
        rl.hasTrainer = true;
        rl.trainerReady = true;
        rl.trainerStep = 19;
        in.rl.insert(QStringLiteral("arith-rl"), rl);
        in.rl.insert(QStringLiteral("other-rl"), RlCoordinator::TaskMetrics{}); // a submission, no trainer here
        in.checkpointVersions.insert(QStringLiteral("arith-rl"), 7);
        DilocoTaskStats d;
        d.outerSteps = 5;
        d.recordedRevision = 9;
        d.ringSize = 3;
        d.auditsPassed = 2;
        in.diloco.insert(QStringLiteral("lm"), d);
        in.listeners = {{QStringLiteral("api"), 4, 10, 1}};
        const QByteArray text = renderHubMetrics(in);
        QCOMPARE(structureProblem(text), QString());
        const QByteArray expected =
            "# HELP cohort_hub_build_info The Cohort version this hub runs (always 1).\n"
            "# TYPE cohort_hub_build_info gauge\n"
            "cohort_hub_build_info{version=\"" COHORT_VERSION_STRING "\"} 1\n"
            "# HELP cohort_hub_nodes_registered Node identities registered with this hub.\n"
            "# TYPE cohort_hub_nodes_registered gauge\n"
            "cohort_hub_nodes_registered 12\n"
            "# HELP cohort_hub_nodes_online Nodes whose last heartbeat is within the online window (three heartbeat "
            "intervals).\n"
            "# TYPE cohort_hub_nodes_online gauge\n"
            "cohort_hub_nodes_online 3\n"
            "# HELP cohort_hub_rollout_submissions_total Rollout batches submitted since the hub started, by the "
            "intake's answer: accepted, or refused (422).\n"
            "# TYPE cohort_hub_rollout_submissions_total counter\n"
            "cohort_hub_rollout_submissions_total{task=\"arith-rl\",result=\"accepted\"} 40\n"
            "cohort_hub_rollout_submissions_total{task=\"arith-rl\",result=\"refused\"} 2\n"
            "cohort_hub_rollout_submissions_total{task=\"other-rl\",result=\"accepted\"} 0\n"
            "cohort_hub_rollout_submissions_total{task=\"other-rl\",result=\"refused\"} 0\n"
            "# HELP cohort_hub_verifications_total Accepted batches the trainer verified since the hub started, by "
            "verdict: confirmed, or refused.\n"
            "# TYPE cohort_hub_verifications_total counter\n"
            "cohort_hub_verifications_total{task=\"arith-rl\",verdict=\"confirmed\"} 38\n"
            "cohort_hub_verifications_total{task=\"arith-rl\",verdict=\"refused\"} 0\n"
            "cohort_hub_verifications_total{task=\"other-rl\",verdict=\"confirmed\"} 0\n"
            "cohort_hub_verifications_total{task=\"other-rl\",verdict=\"refused\"} 0\n"
            "# HELP cohort_hub_verification_queue_batches Accepted batches awaiting verification, or at the trainer.\n"
            "# TYPE cohort_hub_verification_queue_batches gauge\n"
            "cohort_hub_verification_queue_batches{task=\"arith-rl\"} 2\n"
            "cohort_hub_verification_queue_batches{task=\"other-rl\"} 0\n"
            "# HELP cohort_hub_trainer_step The trainer's latest optimizer step.\n"
            "# TYPE cohort_hub_trainer_step gauge\n"
            "cohort_hub_trainer_step{task=\"arith-rl\"} 19\n"
            "# HELP cohort_hub_trainer_ready 1 when the trainer has published a version and takes batches, 0 while it "
            "warms up or after it failed.\n"
            "# TYPE cohort_hub_trainer_ready gauge\n"
            "cohort_hub_trainer_ready{task=\"arith-rl\"} 1\n"
            "# HELP cohort_hub_checkpoint_version The newest checkpoint version published (SHARDCAST).\n"
            "# TYPE cohort_hub_checkpoint_version gauge\n"
            "cohort_hub_checkpoint_version{task=\"arith-rl\"} 7\n"
            "# HELP cohort_hub_diloco_outer_steps_total DiLoCo outer steps (all-reduces) every ring member completed, "
            "since the hub started.\n"
            "# TYPE cohort_hub_diloco_outer_steps_total counter\n"
            "cohort_hub_diloco_outer_steps_total{task=\"lm\"} 5\n"
            "# HELP cohort_hub_diloco_revision The DiLoCo shared-state revision the master last recorded.\n"
            "# TYPE cohort_hub_diloco_revision gauge\n"
            "cohort_hub_diloco_revision{task=\"lm\"} 9\n"
            "# HELP cohort_hub_diloco_ring_size Members of the DiLoCo ring now.\n"
            "# TYPE cohort_hub_diloco_ring_size gauge\n"
            "cohort_hub_diloco_ring_size{task=\"lm\"} 3\n"
            "# HELP cohort_hub_diloco_excluded_peers_total Ring members the master excluded (out-of-bound values, a "
            "lie, a stall).\n"
            "# TYPE cohort_hub_diloco_excluded_peers_total counter\n"
            "cohort_hub_diloco_excluded_peers_total{task=\"lm\"} 0\n"
            "# HELP cohort_hub_diloco_audits_total DiLoCo audits by verdict.\n"
            "# TYPE cohort_hub_diloco_audits_total counter\n"
            "cohort_hub_diloco_audits_total{task=\"lm\",verdict=\"passed\"} 2\n"
            "cohort_hub_diloco_audits_total{task=\"lm\",verdict=\"failed\"} 0\n"
            "cohort_hub_diloco_audits_total{task=\"lm\",verdict=\"missed\"} 0\n"
            "cohort_hub_diloco_audits_total{task=\"lm\",verdict=\"inconclusive\"} 0\n"
            "# HELP cohort_hub_connections_open Connections open now.\n"
            "# TYPE cohort_hub_connections_open gauge\n"
            "cohort_hub_connections_open{listener=\"api\"} 4\n"
            "# HELP cohort_hub_connections_refused_total Connections turned away at the connection caps "
            "(--max-connections, --max-connections-per-source).\n"
            "# TYPE cohort_hub_connections_refused_total counter\n"
            "cohort_hub_connections_refused_total{listener=\"api\"} 10\n"
            "# HELP cohort_hub_connections_timed_out_total Connections closed at a deadline: a request head or body "
            "too slow, or silence.\n"
            "# TYPE cohort_hub_connections_timed_out_total counter\n"
            "cohort_hub_connections_timed_out_total{listener=\"api\"} 1\n";
        QCOMPARE(text, expected);
    }
};

QTEST_GUILESS_MAIN(TestPrometheusText)
#include "tst_prometheus_text.moc"
