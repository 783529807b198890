// bench_diloco_audit: what the DiLoCo audit costs (issue 22: goal <= 5 % of the network's compute), as real
// processes on 127.0.0.1.
//
//   bench_diloco_audit [--rounds 5] [--seconds 20] [--nodes 3] [--audit-rate 0.05]
//
// Each round: a fresh cohort-hub with one DiLoCo task (the test suites' small model, the given audit_rate) and
// --nodes cohortd processes; once all of them train in one ring, a window of --seconds. Both sides are timed the
// same way, as CPU time of the threads that do the work, read from /proc at the window's ends: the nodes' training
// threads ("cohort-diloco": inner steps, averaging) against the hub's audit thread ("cohort-diloco-audit", the
// replays). Printed per round and as median (min-max) over the rounds: the audit's share of the nodes' compute, the
// commitments and audits in the window, and the replay time per audit.
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <unistd.h>
#include <vector>

namespace {

QString program(const QString &name)
{
    return QDir(QStringLiteral(COHORT_BUILD_DIR)).filePath(QStringLiteral("app/%1/%1").arg(name));
}

// CPU seconds (user + system) of each thread of `pid` whose name is `comm`, by thread id.
std::map<QString, double> threadCpu(qint64 pid, const QByteArray &comm)
{
    std::map<QString, double> cpu;
    const QDir tasks(QStringLiteral("/proc/%1/task").arg(pid));
    const double tick = double(sysconf(_SC_CLK_TCK));
    for (const QString &tid : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile name(tasks.filePath(tid + QStringLiteral("/comm")));
        if (!name.open(QIODevice::ReadOnly) || name.readAll().trimmed() != comm)
            continue;
        QFile stat(tasks.filePath(tid + QStringLiteral("/stat")));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray line = stat.readAll();
        const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' '); // field 3 onwards
        if (fields.size() > 12)
            cpu[tid] = (fields[11].toDouble() + fields[12].toDouble()) / tick; // utime, stime: fields 14, 15
    }
    return cpu;
}

double cpuBetween(const std::map<QString, double> &before, const std::map<QString, double> &after)
{
    double sum = 0;
    for (const auto &[tid, seconds] : after)
        if (const auto it = before.find(tid); it != before.end())
            sum += seconds - it->second; // a thread that started or ended inside the window is left out
    return sum;
}

QJsonObject getJson(QNetworkAccessManager &net, const QString &url)
{
    QNetworkReply *reply = net.get(QNetworkRequest(QUrl(url)));
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(10'000, &loop, &QEventLoop::quit);
    if (!reply->isFinished())
        loop.exec();
    const QJsonObject body = QJsonDocument::fromJson(reply->readAll()).object();
    reply->deleteLater();
    return body;
}

void waitMs(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

struct Round {
    bool ok = false;
    double share = 0, nodeCpu = 0, auditCpu = 0, perAudit = 0;
    qint64 commitments = 0, audits = 0;
};

Round runOnce(int nodes, int seconds, double auditRate)
{
    Round round;
    QTemporaryDir dir;
    const QByteArray catalogue =
        QStringLiteral(R"({"tasks":[{"id":"bench","kind":"diloco","title":"Bench","reward_rate":0.5,)"
                       R"("diloco":{"inner_steps":5,"audit_rate":%1,"confirm_after_steps":3,"batch_size":4,)"
                       R"("sequence_length":32,"inner_learning_rate":0.003,)"
                       R"("model":{"d_model":32,"n_layers":1,"n_heads":2,"d_ff":128,"max_seq_len":64}}}]})")
            .arg(auditRate)
            .toUtf8();
    QFile f(dir.filePath(QStringLiteral("catalogue.json")));
    if (!f.open(QIODevice::WriteOnly) || f.write(catalogue) != catalogue.size())
        return round;
    f.close();
    QProcess hub;
    hub.start(program(QStringLiteral("cohort-hub")),
              {QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--data-dir"),
               dir.filePath(QStringLiteral("hub")), QStringLiteral("--catalogue"), f.fileName(),
               QStringLiteral("--heartbeat-interval"), QStringLiteral("1"), QStringLiteral("--train"),
               QStringLiteral("none")});
    QString hubOut;
    QElapsedTimer started;
    started.start();
    while (!hubOut.contains(QStringLiteral("listening on")) && started.elapsed() < 20'000 &&
           hub.waitForReadyRead(1'000))
        hubOut += QString::fromUtf8(hub.readAllStandardOutput());
    const QString url =
        QRegularExpression(QStringLiteral("listening on (http://127\\.0\\.0\\.1:\\d+)")).match(hubOut).captured(1);
    if (url.isEmpty())
        return round;
    std::vector<std::unique_ptr<QProcess>> cohortds;
    for (int i = 0; i < nodes; ++i) {
        auto p = std::make_unique<QProcess>();
        p->setStandardOutputFile(QProcess::nullDevice());
        p->setStandardErrorFile(QProcess::nullDevice());
        const QString data = dir.filePath(QStringLiteral("node%1").arg(i));
        p->start(program(QStringLiteral("cohortd")),
                 {QStringLiteral("--hub"), url, QStringLiteral("--data-dir"), data, QStringLiteral("--task"),
                  QStringLiteral("bench"), QStringLiteral("--settings"), data + QStringLiteral(".ini")});
        cohortds.push_back(std::move(p));
    }
    QNetworkAccessManager net;
    const QString statsUrl = url + QStringLiteral("/v1/tasks/bench/diloco");
    QElapsedTimer forming;
    forming.start();
    while (getJson(net, statsUrl).value(QStringLiteral("last_world_size")).toInt() < nodes &&
           forming.elapsed() < 120'000)
        waitMs(500);
    if (forming.elapsed() >= 120'000)
        return round;
    const auto nodeCpu = [&] {
        std::map<QString, double> all;
        for (auto &p : cohortds)
            for (const auto &[tid, s] : threadCpu(p->processId(), "cohort-diloco"))
                all[QString::number(p->processId()) + QLatin1Char('/') + tid] = s;
        return all;
    };
    const QJsonObject before = getJson(net, statsUrl);
    const auto nodesBefore = nodeCpu();
    const auto hubBefore = threadCpu(hub.processId(), "cohort-diloco-a"); // the kernel keeps 15 characters of a name
    waitMs(seconds * 1000);
    const auto nodesAfter = nodeCpu();
    const auto hubAfter = threadCpu(hub.processId(), "cohort-diloco-a");
    const QJsonObject after = getJson(net, statsUrl);
    round.nodeCpu = cpuBetween(nodesBefore, nodesAfter);
    round.auditCpu = cpuBetween(hubBefore, hubAfter);
    round.commitments = after.value(QStringLiteral("commitments")).toInteger() -
                        before.value(QStringLiteral("commitments")).toInteger();
    const auto audits = [](const QJsonObject &o) {
        return o.value(QStringLiteral("audits")).toObject().value(QStringLiteral("passed")).toInteger();
    };
    round.audits = audits(after) - audits(before);
    round.share = round.nodeCpu > 0 ? round.auditCpu / round.nodeCpu : 0;
    round.perAudit = round.audits > 0 ? round.auditCpu / double(round.audits) : 0;
    round.ok = round.nodeCpu > 0 && !hubBefore.empty();
    for (auto &p : cohortds) {
        p->terminate();
        p->waitForFinished(30'000);
    }
    hub.terminate();
    hub.waitForFinished(10'000);
    return round;
}

QString medianSpread(std::vector<double> v, double scale, int decimals)
{
    std::sort(v.begin(), v.end());
    const double median = v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
    return QStringLiteral("%1 (%2-%3)")
        .arg(median * scale, 0, 'f', decimals)
        .arg(v.front() * scale, 0, 'f', decimals)
        .arg(v.back() * scale, 0, 'f', decimals);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    int rounds = 5, seconds = 20, nodes = 3;
    double auditRate = 0.05;
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); i += 2) {
        if (args[i] == QLatin1String("--rounds"))
            rounds = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--seconds"))
            seconds = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--nodes"))
            nodes = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--audit-rate"))
            auditRate = args[i + 1].toDouble();
    }
    std::printf("DiLoCo audit cost: %d rounds, %d nodes, %d s windows, audit_rate %.3f\n", rounds, nodes, seconds,
                auditRate);
    std::vector<double> share, perAudit, commitments, audits;
    for (int r = 0; r < rounds; ++r) {
        const Round round = runOnce(nodes, seconds, auditRate);
        if (!round.ok) {
            std::printf("round %d: failed (the ring did not form, or no thread was found)\n", r + 1);
            return 1;
        }
        std::printf(
            "round %d: nodes' training %.2f s CPU, hub's replays %.3f s CPU = %.2f %%; %lld commitments, %lld audits"
            " (%.1f ms each)\n",
            r + 1, round.nodeCpu, round.auditCpu, 100 * round.share, qlonglong(round.commitments),
            qlonglong(round.audits), 1000 * round.perAudit);
        std::fflush(stdout);
        share.push_back(round.share);
        perAudit.push_back(round.perAudit);
        commitments.push_back(double(round.commitments));
        audits.push_back(double(round.audits));
    }
    std::printf("audit share of the nodes' compute: %s %%\n", qPrintable(medianSpread(share, 100, 2)));
    std::printf("commitments per window: %s, audits: %s, replay per audit: %s ms\n",
                qPrintable(medianSpread(commitments, 1, 0)), qPrintable(medianSpread(audits, 1, 0)),
                qPrintable(medianSpread(perAudit, 1000, 1)));
    return 0;
}
