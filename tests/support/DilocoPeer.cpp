// cohort-diloco-peer: one DiLoCo node (engine/diloco's DilocoRunner) as a real process, for tst_diloco_e2e.
//
//   cohort-diloco-peer --master-port P --data-seed S --outer-steps N [--checkpoint-dir D] [--inner-steps H]
//                      [--quant none|uint8|uint16] [--d-model 32] [--layers 1] [--batch 4] [--seq 32]
//
// Runs the real training loop against a collectives master on 127.0.0.1 (cohort-collective-peer master) and prints
// one JSON line per event on stdout:
//   {"event":"sync","outer":k,"rx":B,"tx":B,"world":w}           after each shared-state sync that moved bytes
//   {"event":"outer","outer":k,"hash":"hex","loss":x,"world":w,"sync_rx":B,"resumed":b}  after each outer step
//   {"event":"training","outer":k,"inner":i}                     after each inner step (the tests' kill points)
//   {"event":"note","message":...}                               e.g. the master refused this node
//   {"event":"model","parameters":n,"bound":C}                   first: the model's size, the pseudo-gradient bound
//   {"event":"done"} / {"event":"error","message":...}
// Exit codes: 0 done, 1 error, 2 usage.
#include "diloco/DilocoRunner.h"
#include "net/Ed25519.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>

using namespace cohort;

namespace {

void emitLine(const QJsonObject &object)
{
    const QByteArray line = QJsonDocument(object).toJson(QJsonDocument::Compact);
    std::fwrite(line.constData(), 1, size_t(line.size()), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const char *valued[] = {"master-port", "data-seed", "outer-steps", "checkpoint-dir", "inner-steps",
                            "quant",       "d-model",   "layers",      "batch",          "seq"};
    for (const char *name : valued)
        parser.addOption({QString::fromLatin1(name), QString::fromLatin1(name), QStringLiteral("value")});
    parser.process(app);
    auto value = [&](const char *name, const QString &fallback) {
        const QString key = QString::fromLatin1(name);
        return parser.isSet(key) ? parser.value(key) : fallback;
    };
    if (!parser.isSet(QStringLiteral("master-port"))) {
        std::fputs("usage: cohort-diloco-peer --master-port P --data-seed S --outer-steps N [...]\n", stderr);
        return 2;
    }

    diloco::DilocoRunnerOptions options;
    options.taskId = QStringLiteral("test-diloco");
    DilocoTaskConfig &c = options.config;
    c.innerSteps = value("inner-steps", QStringLiteral("10")).toInt();
    c.quantization = value("quant", QStringLiteral("uint8"));
    c.model.dModel = value("d-model", QStringLiteral("32")).toInt();
    c.model.nLayers = value("layers", QStringLiteral("1")).toInt();
    c.model.nHeads = 2;
    c.model.dFF = 4 * c.model.dModel;
    c.model.maxSeqLen = 64;
    c.batchSize = value("batch", QStringLiteral("4")).toInt();
    c.sequenceLength = value("seq", QStringLiteral("32")).toInt();
    c.innerLearningRate = 3e-3;
    options.dataSeed = value("data-seed", QStringLiteral("1")).toULongLong();
    options.maxOuterSteps = value("outer-steps", QStringLiteral("5")).toULongLong();
    options.checkpointDir = value("checkpoint-dir", QString());
    options.checkpointIntervalMs = 0; // every inner step: the tests kill at arbitrary moments
    options.reconnectDelayMs = 200;
    options.communicator.masterPort = uint16_t(value("master-port", QStringLiteral("0")).toUInt());
    options.communicator.secretKey = ed25519::generate().secretKey;
    options.communicator.bindAddress = QHostAddress(QHostAddress::LocalHost);
    options.communicator.ioTimeoutMs = 5'000;

    {
        const auto parameters = diloco::modelParameterCount(c);
        if (!parameters) {
            emitLine(
                {{QStringLiteral("event"), QStringLiteral("error")}, {QStringLiteral("message"), parameters.error()}});
            return 1;
        }
        emitLine({{QStringLiteral("event"), QStringLiteral("model")},
                  {QStringLiteral("parameters"), qint64(*parameters)},
                  {QStringLiteral("bound"), diloco::pseudoGradientBound(c, *parameters)}});
    }
    diloco::DilocoRunner runner(options);
    std::atomic<bool> cancel{false};
    const Status s = runner.run(cancel, [](const diloco::DilocoProgress &p) {
        if (!p.note.isEmpty())
            emitLine({{QStringLiteral("event"), QStringLiteral("note")}, {QStringLiteral("message"), p.note}});
        if (p.phase == diloco::DilocoProgress::Phase::Syncing)
            return;
        if (p.outerStepDone) {
            emitLine({{QStringLiteral("event"), QStringLiteral("outer")},
                      {QStringLiteral("outer"), qint64(p.outerStep)},
                      {QStringLiteral("hash"), QString::number(p.stateHash, 16)},
                      {QStringLiteral("loss"), p.outerLoss},
                      {QStringLiteral("world"), p.lastReduceWorld},
                      {QStringLiteral("sync_rx"), qint64(p.lastSyncRxBytes)},
                      {QStringLiteral("reduce_tx"), qint64(p.lastReduceTxBytes)},
                      {QStringLiteral("resumed"), p.resumed}});
        } else if (p.phase == diloco::DilocoProgress::Phase::Training) {
            if (p.innerStep == 1 && p.lastSyncRxBytes > 0)
                emitLine({{QStringLiteral("event"), QStringLiteral("sync")},
                          {QStringLiteral("outer"), qint64(p.outerStep)},
                          {QStringLiteral("rx"), qint64(p.lastSyncRxBytes)},
                          {QStringLiteral("world"), p.worldSize}});
            emitLine({{QStringLiteral("event"), QStringLiteral("training")},
                      {QStringLiteral("outer"), qint64(p.outerStep)},
                      {QStringLiteral("inner"), p.innerStep},
                      {QStringLiteral("resumed"), p.resumed}});
        }
    });
    if (!s) {
        emitLine({{QStringLiteral("event"), QStringLiteral("error")}, {QStringLiteral("message"), s.error()}});
        return 1;
    }
    emitLine({{QStringLiteral("event"), QStringLiteral("done")}});
    return 0;
}
