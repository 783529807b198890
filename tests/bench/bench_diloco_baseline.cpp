// DiLoCo next to one node training alone with the same total compute (issue 24 item 2): is the ring's model better,
// as good, or worse per token than what one node gets from the same number of inner steps? In one process, with the
// real runner (engine/diloco), a real collectives master and real TCP on 127.0.0.1:
//   ring   K runners in a ring for S outer steps (K x S x H inner steps in all);
//   alone  one runner (a task with min_ring_size 1) for K x S outer steps (the same inner steps, the same tokens).
// Both are scored by the hub's own measure (diloco::heldOutLoss: text no node trains on) on the shared state of every
// revision, taken from the runners' audit material (the state each outer step started from). For each seed (the model's
// initial weights and every node's data) the arms run in turn, their order alternating. Prints the held-out loss at
// equal tokens (mean and spread over seeds) and writes <out>/diloco-baseline.csv and <out>/diloco-baseline.png.
//
//   ./build/tests/bench/bench_diloco_baseline --seeds 3 --steps 40 --ring 2 --out /tmp/dl
#include "BenchFigure.h"
#include "collectives/Master.h"
#include "core/DilocoTaskConfig.h"
#include "diloco/DilocoReplay.h"
#include "diloco/DilocoRunner.h"
#include "net/Ed25519.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QPainterPath>
#include <QThread>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>

using namespace cohort;
using namespace cohort::diloco;

namespace {

struct Point {
    uint64_t revision = 0;
    double tokens = 0; // inner-step tokens of all nodes up to this revision
    double loss = 0;   // held-out, nats per byte
};

struct Arm {
    QString name;
    QList<Point> points;
    double seconds = 0;
};

// Runs `nodes` runners against a fresh master until each has made `steps` outer steps; returns the held-out loss of
// every revision's shared state (rank 0's audit material: the state each outer step started from).
Arm runArm(const QString &name, const DilocoTaskConfig &config, int nodes, uint64_t steps, uint64_t seed)
{
    Arm arm;
    arm.name = name;
    collectives::Master master;
    if (!master.listen(QHostAddress(QHostAddress::LocalHost), 0)) {
        std::fprintf(stderr, "the master cannot listen\n");
        return arm;
    }
    std::mutex lock;
    std::map<uint64_t, std::vector<float>> states; // revision -> shared weights
    std::vector<std::unique_ptr<QThread>> threads;
    std::vector<std::unique_ptr<std::atomic<bool>>> cancels;
    std::vector<QString> errors(static_cast<size_t>(nodes));
    QElapsedTimer clock;
    clock.start();
    for (int i = 0; i < nodes; ++i) {
        DilocoRunnerOptions o;
        o.taskId = QStringLiteral("baseline");
        o.config = config;
        o.dataSeed = seed * 1000 + uint64_t(i) + 1;
        o.maxOuterSteps = steps;
        o.reconnectDelayMs = 100;
        o.communicator.masterPort = master.port();
        o.communicator.secretKey = ed25519::generate().secretKey;
        o.communicator.bindAddress = QHostAddress(QHostAddress::LocalHost);
        cancels.push_back(std::make_unique<std::atomic<bool>>(false));
        std::atomic<bool> *cancel = cancels.back().get();
        QString *error = &errors[size_t(i)];
        threads.emplace_back(QThread::create([o, i, cancel, error, &lock, &states] {
            DilocoRunner runner(o);
            const Status s = runner.run(*cancel, [&](const DilocoProgress &p) {
                if (i == 0 && p.outerStepDone && p.audit) {
                    const std::lock_guard guard(lock);
                    states[p.audit->step - 1] = p.audit->global;
                }
            });
            if (!s)
                *error = s.error();
        }));
        threads.back()->start();
    }
    // The master lives in this thread: run its event loop until every runner is done.
    while (std::any_of(threads.begin(), threads.end(), [](const auto &t) { return !t->isFinished(); }))
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    arm.seconds = double(clock.nsecsElapsed()) / 1e9;
    for (const QString &e : errors)
        if (!e.isEmpty())
            std::fprintf(stderr, "%s: a runner stopped: %s\n", qPrintable(name), qPrintable(e));
    const double tokensPerRevision = double(config.innerSteps) * config.batchSize * config.sequenceLength * nodes;
    std::atomic<bool> never{false};
    for (const auto &[revision, weights] : states) {
        auto loss = heldOutLoss(config, weights, never);
        if (!loss) {
            std::fprintf(stderr, "held-out loss of revision %llu: %s\n", qulonglong(revision),
                         qPrintable(loss.error()));
            continue;
        }
        arm.points.append({revision, tokensPerRevision * double(revision), *loss});
    }
    return arm;
}

// The arm's loss at `tokens` (linear between the revisions around it); NaN beyond its last point.
double lossAt(const Arm &arm, double tokens)
{
    for (qsizetype i = 1; i < arm.points.size(); ++i)
        if (arm.points[i].tokens >= tokens) {
            const Point &a = arm.points[i - 1], &b = arm.points[i];
            const double t = (tokens - a.tokens) / std::max(1.0, b.tokens - a.tokens);
            return a.loss + t * (b.loss - a.loss);
        }
    return NAN;
}

void meanAndSpread(const QList<double> &values, double *mean, double *spread)
{
    double sum = 0;
    for (double v : values)
        sum += v;
    *mean = values.isEmpty() ? NAN : sum / double(values.size());
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    *spread = values.isEmpty() ? NAN : *hi - *lo;
}

void plot(const QList<Arm> &arms, const QString &title, const QString &path)
{
    QImage image(960, 540, QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter p(&image);
    p.setRenderHint(QPainter::Antialiasing);
    const QRectF area(80, 50, 840, 420);
    double maxTokens = 1, hi = 0;
    for (const Arm &a : arms)
        for (const Point &pt : a.points) {
            maxTokens = std::max(maxTokens, pt.tokens);
            hi = std::max(hi, pt.loss);
        }
    hi = std::ceil(hi);
    const auto x = [&](double t) { return area.left() + t / maxTokens * area.width(); };
    const auto y = [&](double l) { return area.bottom() - l / std::max(1.0, hi) * area.height(); };
    QFont font = p.font();
    font.setPixelSize(13);
    p.setFont(font);
    for (double l = 0; l <= hi + 0.01; l += 1) {
        p.setPen(QColor(0xdd, 0xdd, 0xdd));
        p.drawLine(QPointF(area.left(), y(l)), QPointF(area.right(), y(l)));
        p.setPen(Qt::black);
        p.drawText(QRectF(0, y(l) - 10, 70, 20), Qt::AlignRight | Qt::AlignVCenter, QString::number(l, 'f', 0));
    }
    p.setPen(Qt::black);
    p.drawRect(area);
    p.drawText(QRectF(area.left(), area.bottom() + 8, area.width(), 20), Qt::AlignCenter,
               QStringLiteral("tokens trained on, all nodes together (%1 M at the right edge)")
                   .arg(maxTokens / 1e6, 0, 'f', 2));
    p.save();
    p.translate(20, area.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-150, -10, 300, 20), Qt::AlignCenter, QStringLiteral("held-out loss (nats per byte)"));
    p.restore();
    for (const Arm &a : arms) {
        QPainterPath line;
        for (qsizetype i = 0; i < a.points.size(); ++i) {
            const QPointF pt(x(a.points[i].tokens), y(a.points[i].loss));
            i == 0 ? line.moveTo(pt) : line.lineTo(pt);
        }
        const bool ring = a.name.startsWith(QLatin1String("ring"));
        p.setPen(QPen(ring ? QColor(0x1f, 0x6f, 0xd0) : QColor(0xd0, 0x6f, 0x1f), 1.8));
        p.drawPath(line);
    }
    p.setPen(QColor(0x1f, 0x6f, 0xd0));
    p.drawText(QRectF(area.right() - 300, area.top() + 10, 290, 20), Qt::AlignRight,
               QStringLiteral("DiLoCo ring (one line per seed)"));
    p.setPen(QColor(0xd0, 0x6f, 0x1f));
    p.drawText(QRectF(area.right() - 300, area.top() + 30, 290, 20), Qt::AlignRight,
               QStringLiteral("one node alone, same inner steps"));
    if (!bench::finishFigure(p, image, title, path))
        std::fprintf(stderr, "cannot write %s\n", qPrintable(path));
}

} // namespace

int main(int argc, char **argv)
{
    QGuiApplication app(argc, argv); // QPainter text needs fonts; run with QT_QPA_PLATFORM=offscreen on a server
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOption({QStringLiteral("seeds"), QStringLiteral("Seeds (initial model and data), each runs both arms."),
                      QStringLiteral("n"), QStringLiteral("3")});
    parser.addOption({QStringLiteral("steps"), QStringLiteral("Outer steps of the ring."), QStringLiteral("n"),
                      QStringLiteral("40")});
    parser.addOption(
        {QStringLiteral("ring"), QStringLiteral("Nodes in the ring."), QStringLiteral("n"), QStringLiteral("2")});
    parser.addOption({QStringLiteral("out"), QStringLiteral("Folder for the CSV and the PNG."), QStringLiteral("dir"),
                      QStringLiteral(".")});
    parser.process(app);
    const int seeds = std::max(1, parser.value(QStringLiteral("seeds")).toInt());
    const uint64_t steps = std::max(2, parser.value(QStringLiteral("steps")).toInt());
    const int ring = std::clamp(parser.value(QStringLiteral("ring")).toInt(), 2, 8);
    const QDir out(parser.value(QStringLiteral("out")));
    QDir().mkpath(out.path());

    DilocoTaskConfig ringConfig; // the default task's shape and recipe (tiny-lm-diloco)
    DilocoTaskConfig aloneConfig = ringConfig;
    aloneConfig.minRingSize = 1;
    std::printf("DiLoCo (%d nodes x %llu outer steps of %d inner steps) vs one node alone (%llu outer steps): model "
                "d_model %d, "
                "%d layers, batch %d x %d tokens, %s on the wire\n",
                ring, qulonglong(steps), ringConfig.innerSteps, qulonglong(steps * uint64_t(ring)),
                ringConfig.model.dModel, ringConfig.model.nLayers, ringConfig.batchSize, ringConfig.sequenceLength,
                qPrintable(ringConfig.quantization));
    QFile csv(out.filePath(QStringLiteral("diloco-baseline.csv")));
    if (!csv.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        std::fprintf(stderr, "cannot write %s\n", qPrintable(csv.fileName()));
        return 1;
    }
    csv.write("seed,arm,revision,tokens,held_out_loss\n");
    QList<Arm> all;
    QList<double> ringEnd, aloneEnd, ringSeconds, aloneSeconds, startLoss;
    for (int s = 1; s <= seeds; ++s) {
        ringConfig.seed = aloneConfig.seed = uint64_t(s);
        // The arms alternate which goes first, so that a slower second half of the run is no arm's alone.
        Arm ringArm, aloneArm;
        if (s % 2) {
            ringArm = runArm(QStringLiteral("ring"), ringConfig, ring, steps, uint64_t(s));
            aloneArm = runArm(QStringLiteral("alone"), aloneConfig, 1, steps * uint64_t(ring), uint64_t(s));
        } else {
            aloneArm = runArm(QStringLiteral("alone"), aloneConfig, 1, steps * uint64_t(ring), uint64_t(s));
            ringArm = runArm(QStringLiteral("ring"), ringConfig, ring, steps, uint64_t(s));
        }
        for (const Arm *a : {&ringArm, &aloneArm})
            for (const Point &pt : a->points)
                csv.write(QStringLiteral("%1,%2,%3,%4,%5\n")
                              .arg(s)
                              .arg(a->name)
                              .arg(pt.revision)
                              .arg(qint64(pt.tokens))
                              .arg(pt.loss, 0, 'f', 5)
                              .toUtf8());
        if (ringArm.points.size() < 2 || aloneArm.points.isEmpty()) {
            std::fprintf(stderr, "seed %d: an arm measured nothing\n", s);
            return 1;
        }
        const double tokens = ringArm.points.last().tokens; // the ring's last measured revision
        const double r = ringArm.points.last().loss, a = lossAt(aloneArm, tokens);
        std::printf("seed %d: at %.2f M tokens held-out loss ring %.3f, alone %.3f (from %.3f); %.1f s and %.1f s\n", s,
                    tokens / 1e6, r, a, ringArm.points.first().loss, ringArm.seconds, aloneArm.seconds);
        ringEnd << r;
        aloneEnd << a;
        startLoss << ringArm.points.first().loss;
        ringSeconds << ringArm.seconds;
        aloneSeconds << aloneArm.seconds;
        all << ringArm << aloneArm;
    }
    double m = 0, sp = 0;
    meanAndSpread(startLoss, &m, &sp);
    std::printf("fresh model: %.3f (spread %.3f)\n", m, sp);
    meanAndSpread(ringEnd, &m, &sp);
    std::printf("ring  (%d nodes): %.3f (spread %.3f over %d seeds)\n", ring, m, sp, seeds);
    const double ringMean = m;
    meanAndSpread(aloneEnd, &m, &sp);
    std::printf("alone (1 node):  %.3f (spread %.3f over %d seeds), at equal tokens; ring - alone = %+.3f nats\n", m,
                sp, seeds, ringMean - m);
    meanAndSpread(ringSeconds, &m, &sp);
    std::printf("wall time: ring %.1f s (spread %.1f), ", m, sp);
    meanAndSpread(aloneSeconds, &m, &sp);
    std::printf("alone %.1f s (spread %.1f) on %d cores\n", m, sp, QThread::idealThreadCount());
    plot(all,
         QStringLiteral("Held-out loss: DiLoCo ring of %1 vs one node alone, equal tokens, %2 seeds")
             .arg(ring)
             .arg(seeds),
         out.filePath(QStringLiteral("diloco-baseline.png")));
    std::printf("wrote %s and %s\n", qPrintable(csv.fileName()),
                qPrintable(out.filePath(QStringLiteral("diloco-baseline.png"))));
    return 0;
}
