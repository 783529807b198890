// Does the network's training help? One cohort-hub (trainer) and N cohortd nodes as real processes, per seed, next
// to a control arm that spends the same hub time on supervised warm-up only. Scored on the hub's held-out problems
// (rl::heldOutProblems: no work item ever contains them), greedy (the model's most likely answer), as the hub's
// /v1/tasks/<task>/progress reports them.
//   bench_learning_curve [--minutes 15] [--nodes 3] [--task sort-rl] [--seeds 3] [--out DIR]
// Seed k runs the task under the id "<task>-s<k>": the trainer's initial weights and warm-up data come from the task
// id, the held-out problems from the environments, so seeds differ in everything but the test.
// - rl:      the hub warms up (W steps in T seconds, as its trainer logs them) and publishes v1; the nodes train it
//            for --minutes after that;
// - warm-up: the same task with W x (T + 60 x minutes) / T warm-up steps and no nodes: the rl arm's hub time spent on
//            supervised warm-up instead, at the rate the warm-up had beside the nodes; its v1 is scored. The hub
//            process's CPU seconds of both arms are printed and written, for the reader to weigh them.
// Writes DIR/learning-curve.csv (every held-out point of every seed and arm, with the minutes since v1 when the
// version appeared), DIR/learning-curve.png, and prints v1, the last scored version and the control, mean and min-max
// over the seeds.
#include "BenchFigure.h"

#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QGuiApplication>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPainter>
#include <QPainterPath>
#include <QProcess>
#include <QRegularExpression>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <unistd.h>

namespace {

QString program(const QString &name)
{
    return QStringLiteral(COHORT_BUILD_DIR "/app/%1/%1").arg(name);
}

QJsonObject getJson(QNetworkAccessManager &net, const QString &url)
{
    QNetworkReply *reply = net.get(QNetworkRequest(QUrl(url)));
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(10000, &loop, &QEventLoop::quit);
    if (!reply->isFinished())
        loop.exec();
    const QJsonObject o = QJsonDocument::fromJson(reply->readAll()).object();
    reply->deleteLater();
    return o;
}

void waitMs(int ms)
{
    QEventLoop wait;
    QTimer::singleShot(ms, &wait, &QEventLoop::quit);
    wait.exec();
}

// One held-out point: a version scored greedy, and when it appeared (minutes since v1; -1 unknown).
struct HeldOut {
    int version = 0;
    double reward = 0, correctness = 0;
    double minutes = -1;
};

QList<HeldOut> heldOutCurve(const QJsonObject &progress)
{
    QList<HeldOut> out;
    for (const QJsonValue &v :
         progress.value(QStringLiteral("held_out")).toObject().value(QStringLiteral("curve")).toArray()) {
        const QJsonObject p = v.toObject(), greedy = p.value(QStringLiteral("greedy")).toObject();
        out.append({p.value(QStringLiteral("version")).toInt(), greedy.value(QStringLiteral("reward")).toDouble(),
                    greedy.value(QStringLiteral("correctness")).toDouble()});
    }
    return out;
}

// A catalogue of one task: the default catalogue's `task`, renamed `id`, its warm-up steps set when given, its
// warm-up limited to `demonstrations` worked examples when given.
QString writeCatalogue(const QString &path, const QString &task, const QString &id, int warmupSteps, int demonstrations)
{
    QFile in(QStringLiteral(COHORT_SOURCE_DIR "/resources/hub/default-tasks.json"));
    if (!in.open(QIODevice::ReadOnly))
        return QStringLiteral("cannot read %1").arg(in.fileName());
    for (const QJsonValue &v :
         QJsonDocument::fromJson(in.readAll()).object().value(QStringLiteral("tasks")).toArray()) {
        QJsonObject t = v.toObject();
        if (t.value(QStringLiteral("id")).toString() != task)
            continue;
        t.insert(QStringLiteral("id"), id);
        QJsonObject rl = t.value(QStringLiteral("rl")).toObject();
        if (warmupSteps > 0)
            rl.insert(QStringLiteral("warmup_steps"), warmupSteps);
        if (demonstrations > 0)
            rl.insert(QStringLiteral("warmup_demonstrations"), demonstrations);
        t.insert(QStringLiteral("rl"), rl);
        QFile out(path);
        if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return QStringLiteral("cannot write %1").arg(path);
        out.write(QJsonDocument(QJsonObject{{QStringLiteral("tasks"), QJsonArray{t}}}).toJson());
        return {};
    }
    return QStringLiteral("the default catalogue has no task %1").arg(task);
}

// A hub on a free port with `catalogue`, training `id`; its URL, or empty (the log says why).
QString startHub(QProcess &hub, const QDir &run, const QString &catalogue, const QString &id)
{
    hub.setProcessChannelMode(QProcess::SeparateChannels);
    hub.setStandardErrorFile(run.filePath(QStringLiteral("hub.log")));
    hub.start(program(QStringLiteral("cohort-hub")),
              {QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--data-dir"),
               run.filePath(QStringLiteral("hub")), QStringLiteral("--catalogue"), catalogue, QStringLiteral("--train"),
               id});
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 30000 && hub.waitForReadyRead(30000)) {
        const auto m = QRegularExpression(QStringLiteral("listening on (http://\\S+)"))
                           .match(QString::fromUtf8(hub.readAllStandardOutput()));
        if (m.hasMatch())
            return m.captured(1);
    }
    return {};
}

// The CPU seconds a process used so far (utime + stime, /proc/<pid>/stat; Linux), -1 when unknown.
double cpuSeconds(const QProcess &p)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(p.processId()));
    if (!stat.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray line = stat.readAll();
    const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
    const long hz = sysconf(_SC_CLK_TCK);
    return fields.size() > 12 && hz > 0 ? double(fields[11].toLongLong() + fields[12].toLongLong()) / double(hz) : -1;
}

void stop(QProcess &p)
{
    p.terminate();
    if (!p.waitForFinished(20000))
        p.kill();
    p.waitForFinished(5000);
}

struct Arm {
    QList<HeldOut> curve;            // greedy, by version
    double warmupSeconds = 0;        // rl: from the hub's start to v1 (warm-up only: to v1's score)
    double trainerWarmupSeconds = 0; // rl: the warm-up's own time, as the trainer logs it
    int warmupSteps = 0;
    int published = 0;         // the newest version at the end
    double hubCpuSeconds = -1; // what the hub process used, start to end
};

// The rl arm: hub and nodes; --minutes of training after v1; the held-out points with their times.
std::optional<Arm> runRl(const QDir &run, const QString &task, const QString &id, int demonstrations, int nodeCount,
                         double minutes, int *warmupSteps)
{
    const QString catalogue = run.filePath(QStringLiteral("catalogue.json"));
    if (const QString e = writeCatalogue(catalogue, task, id, 0, demonstrations); !e.isEmpty())
        return std::fprintf(stderr, "%s\n", qPrintable(e)), std::nullopt;
    QElapsedTimer sinceStart;
    sinceStart.start();
    QProcess hub;
    const QString hubUrl = startHub(hub, run, catalogue, id);
    if (hubUrl.isEmpty())
        return std::fprintf(stderr, "cohort-hub did not start (%s)\n",
                            qPrintable(run.filePath(QStringLiteral("hub.log")))),
               std::nullopt;
    std::vector<std::unique_ptr<QProcess>> nodes;
    for (int i = 0; i < nodeCount; ++i) {
        auto node = std::make_unique<QProcess>();
        node->setStandardOutputFile(QProcess::nullDevice());
        node->setStandardErrorFile(run.filePath(QStringLiteral("node%1.log").arg(i)));
        node->start(program(QStringLiteral("cohortd")),
                    {QStringLiteral("--hub"), hubUrl, QStringLiteral("--data-dir"),
                     run.filePath(QStringLiteral("node%1").arg(i)), QStringLiteral("--task"), id,
                     QStringLiteral("--settings"), run.filePath(QStringLiteral("node%1.ini").arg(i))});
        nodes.push_back(std::move(node));
    }
    QNetworkAccessManager net;
    const QString progressUrl = hubUrl + QStringLiteral("/v1/tasks/%1/progress").arg(id);
    Arm arm;
    std::map<int, double> appeared; // version -> minutes since v1
    QElapsedTimer sinceV1;
    QJsonObject progress;
    const qint64 warmupLimitMs = 30 * 60'000;
    while (!sinceV1.isValid() ? sinceStart.elapsed() < warmupLimitMs : sinceV1.elapsed() < qint64(minutes * 60000)) {
        waitMs(2000);
        progress = getJson(net, progressUrl);
        const int version = progress.value(QStringLiteral("version")).toInt();
        if (version >= 1 && !sinceV1.isValid()) {
            sinceV1.start();
            arm.warmupSeconds = sinceStart.elapsed() / 1000.0;
        }
        if (version >= 1 && !appeared.count(version))
            appeared[version] = sinceV1.elapsed() / 60000.0;
    }
    for (auto &node : nodes)
        stop(*node);
    // The newest versions may still be scored (the hub scores within ~5 % of its time): a last look after a pause.
    waitMs(5000);
    progress = getJson(net, progressUrl);
    arm.hubCpuSeconds = cpuSeconds(hub);
    stop(hub);
    if (!sinceV1.isValid())
        return std::fprintf(stderr, "no v1 within 30 minutes (%s)\n",
                            qPrintable(run.filePath(QStringLiteral("hub.log")))),
               std::nullopt;
    arm.published = progress.value(QStringLiteral("version")).toInt();
    arm.curve = heldOutCurve(progress);
    // Versions come faster than the polls see them: a version between two seen ones appeared between them.
    for (HeldOut &p : arm.curve) {
        const auto after = appeared.lower_bound(p.version);
        if (after == appeared.end())
            p.minutes = sinceV1.elapsed() / 60000.0;
        else if (after->first == p.version || after == appeared.begin())
            p.minutes = after->second;
        else {
            const auto before = std::prev(after);
            const double share = double(p.version - before->first) / double(after->first - before->first);
            p.minutes = before->second + share * (after->second - before->second);
        }
    }
    QFile log(run.filePath(QStringLiteral("hub.log")));
    log.open(QIODevice::ReadOnly);
    // The trainer's own account of its warm-up ("warm-up: 200 supervised steps of 32 problems, loss 5.5 -> 1.3,
    // 17.2 s"): its rate sizes the control arm (the time to v1 seen from here also holds the hub's start).
    const auto m = QRegularExpression(QStringLiteral("warm-up: (\\d+) supervised steps .*, ([0-9.]+) s\""))
                       .match(QString::fromUtf8(log.readAll()));
    *warmupSteps = m.hasMatch() ? m.captured(1).toInt() : 0;
    arm.warmupSteps = *warmupSteps;
    arm.trainerWarmupSeconds = m.hasMatch() ? m.captured(2).toDouble() : 0;
    return arm;
}

// The control arm: `steps` of warm-up and no nodes; v1's held-out point.
std::optional<Arm> runWarmupOnly(const QDir &run, const QString &task, const QString &id, int demonstrations, int steps,
                                 double limitMinutes)
{
    const QString catalogue = run.filePath(QStringLiteral("catalogue.json"));
    if (const QString e = writeCatalogue(catalogue, task, id, steps, demonstrations); !e.isEmpty())
        return std::fprintf(stderr, "%s\n", qPrintable(e)), std::nullopt;
    QProcess hub;
    const QString hubUrl = startHub(hub, run, catalogue, id);
    if (hubUrl.isEmpty())
        return std::fprintf(stderr, "cohort-hub did not start (%s)\n",
                            qPrintable(run.filePath(QStringLiteral("hub.log")))),
               std::nullopt;
    QNetworkAccessManager net;
    Arm arm;
    arm.warmupSteps = steps;
    QElapsedTimer clock;
    clock.start();
    while (arm.curve.isEmpty() && clock.elapsed() < qint64(limitMinutes * 60000)) {
        waitMs(5000);
        arm.curve = heldOutCurve(getJson(net, hubUrl + QStringLiteral("/v1/tasks/%1/progress").arg(id)));
    }
    arm.warmupSeconds = clock.elapsed() / 1000.0;
    arm.published = 1;
    arm.hubCpuSeconds = cpuSeconds(hub);
    stop(hub);
    if (arm.curve.isEmpty())
        return std::fprintf(stderr, "the warm-up-only hub scored nothing within %.0f minutes\n", limitMinutes),
               std::nullopt;
    return arm;
}

struct Spread {
    double mean = 0, min = 0, max = 0;
};

Spread spreadOf(const QList<double> &v)
{
    Spread s{0, v.isEmpty() ? 0 : v.front(), v.isEmpty() ? 0 : v.front()};
    for (const double x : v) {
        s.mean += x / double(v.size());
        s.min = std::min(s.min, x);
        s.max = std::max(s.max, x);
    }
    return s;
}

void plot(const std::map<int, Arm> &rl, const std::map<int, Arm> &control, double minutes, const QString &title,
          const QString &path)
{
    QImage image(960, 540, QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    const QRectF area(80, 50, 840, 420);
    // The last versions may appear a little after --minutes (a version in flight when the time ran out).
    for (const auto &[seed, arm] : rl)
        for (const HeldOut &pt : arm.curve)
            minutes = std::max(minutes, pt.minutes);
    const auto x = [&](double m) { return area.left() + m / std::max(0.1, minutes) * area.width(); };
    const auto y = [&](double reward) { return area.bottom() - reward * area.height(); }; // 0..100 points
    QFont font = p.font();
    font.setPixelSize(13);
    p.setFont(font);
    for (int r = 0; r <= 100; r += 10) {
        p.setPen(QColor(0xdd, 0xdd, 0xdd));
        p.drawLine(QPointF(area.left(), y(r / 100.0)), QPointF(area.right(), y(r / 100.0)));
        p.setPen(Qt::black);
        p.drawText(QRectF(0, y(r / 100.0) - 10, 70, 20), Qt::AlignRight | Qt::AlignVCenter, QString::number(r));
    }
    p.setPen(Qt::black);
    p.drawRect(area);
    for (int i = 0; i <= 5; ++i)
        p.drawText(QRectF(x(minutes * i / 5) - 30, area.bottom() + 5, 60, 20), Qt::AlignCenter,
                   QString::number(minutes * i / 5, 'f', 1));
    p.drawText(QRectF(area.left(), area.bottom() + 25, area.width(), 20), Qt::AlignCenter,
               QStringLiteral("minutes of training after the warm-up policy (v1)"));
    p.save();
    p.translate(20, area.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-200, -10, 400, 20), Qt::AlignCenter, QStringLiteral("held-out greedy reward (points)"));
    p.restore();
    const QColor colours[] = {QColor(0x1f, 0x6f, 0xd0), QColor(0xd0, 0x5f, 0x1f), QColor(0x2f, 0x9f, 0x4f),
                              QColor(0x8f, 0x3f, 0xbf)};
    int i = 0;
    for (const auto &[seed, arm] : rl) {
        const QColor colour = colours[i++ % 4];
        QPainterPath line;
        bool first = true;
        for (const HeldOut &pt : arm.curve) {
            if (pt.minutes < 0)
                continue;
            const QPointF at(x(pt.minutes), y(pt.reward));
            first ? line.moveTo(at) : line.lineTo(at);
            first = false;
        }
        p.setPen(QPen(colour, 2.5));
        p.drawPath(line);
        if (const auto c = control.find(seed); c != control.end() && !c->second.curve.isEmpty()) {
            // The control's score, at the end of the same hub time: a dashed level and a square.
            const double level = y(c->second.curve.front().reward);
            p.setPen(QPen(colour, 1.5, Qt::DashLine));
            p.drawLine(QPointF(area.left(), level), QPointF(area.right(), level));
            p.setPen(QPen(colour, 1.5));
            p.setBrush(colour);
            p.drawRect(QRectF(x(minutes) - 5, level - 5, 10, 10));
            p.setBrush(Qt::NoBrush);
        }
        p.setPen(colour);
        p.drawText(
            QRectF(area.left() + 10, area.top() + 8 + 18 * (i - 1), 600, 18), Qt::AlignLeft,
            QStringLiteral("seed %1: the network's training (line); warm-up only, same hub time (dashed)").arg(seed));
    }
    if (!cohort::bench::finishFigure(p, image, title, path))
        std::fprintf(stderr, "cannot write %s\n", qPrintable(path));
}

} // namespace

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption minutesOption(QStringLiteral("minutes"),
                                           QStringLiteral("Training time after v1, per seed."), QStringLiteral("m"),
                                           QStringLiteral("15"));
    const QCommandLineOption nodesOption(QStringLiteral("nodes"), QStringLiteral("How many cohortd nodes."),
                                         QStringLiteral("n"), QStringLiteral("3"));
    const QCommandLineOption taskOption(QStringLiteral("task"), QStringLiteral("RL task of the default catalogue."),
                                        QStringLiteral("id"), QStringLiteral("sort-rl"));
    const QCommandLineOption seedsOption(QStringLiteral("seeds"), QStringLiteral("How many seeds."),
                                         QStringLiteral("n"), QStringLiteral("3"));
    const QCommandLineOption outOption(QStringLiteral("out"), QStringLiteral("Output folder."), QStringLiteral("dir"),
                                       QStringLiteral("learning-curve"));
    const QCommandLineOption demonstrationsOption(
        QStringLiteral("demonstrations"),
        QStringLiteral("Worked examples the warm-up has, in both arms (0: a fresh one for every slot)."),
        QStringLiteral("n"), QStringLiteral("0"));
    parser.addOptions({minutesOption, nodesOption, taskOption, seedsOption, outOption, demonstrationsOption});
    parser.process(app);
    const double minutes = parser.value(minutesOption).toDouble();
    const int nodeCount = parser.value(nodesOption).toInt();
    const int seeds = std::max(1, parser.value(seedsOption).toInt());
    const QString task = parser.value(taskOption);
    const int demonstrations = std::max(0, parser.value(demonstrationsOption).toInt());
    const QDir out(parser.value(outOption));
    QDir().mkpath(out.path());
    QDir runs(out.filePath(QStringLiteral("runs")));
    runs.removeRecursively();

    const QString examples = demonstrations > 0 ? QStringLiteral("%1 worked examples").arg(demonstrations)
                                                : QStringLiteral("a fresh worked example for every slot");
    std::printf("%s: %d seeds; per seed the network (hub + %d nodes, %.1f min after v1) and warm-up only for the same "
                "hub time; "
                "warm-up from %s; scored greedy on the hub's held-out problems\n",
                qPrintable(task), seeds, nodeCount, minutes, qPrintable(examples));
    QFile csv(out.filePath(QStringLiteral("learning-curve.csv")));
    if (!csv.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return std::fprintf(stderr, "cannot write %s\n", qPrintable(csv.fileName())), 1;
    csv.write("seed,arm,warmup_steps,hub_cpu_s,version,minutes_after_v1,held_out_greedy_reward,held_out_greedy_"
              "correctness\n");
    std::map<int, Arm> rl, control;
    QList<double> firsts, lasts, controls, gains;
    for (int seed = 1; seed <= seeds; ++seed) {
        const QString id = QStringLiteral("%1-s%2").arg(task).arg(seed);
        const QDir rlRun(runs.filePath(QStringLiteral("s%1-rl").arg(seed))),
            controlRun(runs.filePath(QStringLiteral("s%1-warmup").arg(seed)));
        QDir().mkpath(rlRun.path());
        QDir().mkpath(controlRun.path());
        int warmupSteps = 0;
        const auto trained = runRl(rlRun, task, id, demonstrations, nodeCount, minutes, &warmupSteps);
        if (!trained || trained->curve.isEmpty() || trained->curve.front().version != 1 || warmupSteps <= 0 ||
            trained->trainerWarmupSeconds <= 0)
            return std::fprintf(stderr, "seed %d: no held-out score of v1 (see %s)\n", seed, qPrintable(rlRun.path())),
                   1;
        // The rl arm's hub time (its warm-up, then --minutes with the nodes) as warm-up steps at the trainer's rate.
        const double warmup = trained->trainerWarmupSeconds;
        const int controlSteps = int(double(warmupSteps) * (warmup + minutes * 60) / warmup);
        const auto warmedUp = runWarmupOnly(controlRun, task, id, demonstrations, controlSteps,
                                            3 * (trained->warmupSeconds / 60 + minutes) + 5);
        if (!warmedUp)
            return 1;
        rl[seed] = *trained;
        control[seed] = *warmedUp;
        for (const HeldOut &p : trained->curve)
            csv.write(QStringLiteral("%1,rl,%2,%3,%4,%5,%6,%7\n")
                          .arg(seed)
                          .arg(warmupSteps)
                          .arg(trained->hubCpuSeconds, 0, 'f', 0)
                          .arg(p.version)
                          .arg(p.minutes, 0, 'f', 2)
                          .arg(p.reward * 100, 0, 'f', 2)
                          .arg(p.correctness * 100, 0, 'f', 2)
                          .toUtf8());
        const HeldOut &c = warmedUp->curve.front();
        csv.write(QStringLiteral("%1,warmup-only,%2,%3,%4,%5,%6,%7\n")
                      .arg(seed)
                      .arg(controlSteps)
                      .arg(warmedUp->hubCpuSeconds, 0, 'f', 0)
                      .arg(c.version)
                      .arg(minutes, 0, 'f', 2)
                      .arg(c.reward * 100, 0, 'f', 2)
                      .arg(c.correctness * 100, 0, 'f', 2)
                      .toUtf8());
        csv.flush();
        const HeldOut &first = trained->curve.front(), &last = trained->curve.back();
        firsts.append(first.reward * 100);
        lasts.append(last.reward * 100);
        controls.append(c.reward * 100);
        gains.append((last.reward - c.reward) * 100);
        std::printf(
            "seed %d: warm-up %d steps in %.0f s; v1 %.1f points; after %.1f min v%d (of %d published) %.1f points, "
            "hub CPU %.0f s; warm-up only (%d steps, %.0f s, hub CPU %.0f s) %.1f points\n",
            seed, warmupSteps, trained->trainerWarmupSeconds, first.reward * 100, last.minutes, last.version,
            trained->published, last.reward * 100, trained->hubCpuSeconds, controlSteps, warmedUp->warmupSeconds,
            warmedUp->hubCpuSeconds, c.reward * 100);
        std::fflush(stdout);
    }
    const Spread a = spreadOf(firsts), b = spreadOf(lasts), c = spreadOf(controls), g = spreadOf(gains);
    std::printf(
        "held-out greedy reward, mean (min-max) over %d seeds: v1 %.1f (%.1f-%.1f); the network after %.1f min %.1f "
        "(%.1f-%.1f); warm-up only for the same hub time %.1f (%.1f-%.1f); network - warm-up only %+.1f (%+.1f to "
        "%+.1f)\n",
        seeds, a.mean, a.min, a.max, minutes, b.mean, b.min, b.max, c.mean, c.min, c.max, g.mean, g.min, g.max);
    const QString title =
        QStringLiteral("%1%7, %2 seeds: v1 %3 -> %4 points after %5 min; warm-up only %6")
            .arg(task)
            .arg(seeds)
            .arg(a.mean, 0, 'f', 1)
            .arg(b.mean, 0, 'f', 1)
            .arg(minutes)
            .arg(c.mean, 0, 'f', 1)
            .arg(demonstrations > 0 ? QStringLiteral(" (warm-up: %1 worked examples)").arg(demonstrations) : QString());
    plot(rl, control, minutes, title, out.filePath(QStringLiteral("learning-curve.png")));
    std::printf("wrote %s and %s\n", qPrintable(csv.fileName()),
                qPrintable(out.filePath(QStringLiteral("learning-curve.png"))));
    return 0;
}
