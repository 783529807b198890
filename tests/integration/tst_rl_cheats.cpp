// A cheater next to an honest node, against a real cohort-hub (issue: credit only for work that helped). The cheater
// speaks the whole RL protocol — registered identities, signed requests, work items, well-formed submissions whose
// rewards the hub recomputes and whose TOPLOC proofs have the right shape — but never samples from the policy:
//  - copies: every sample of a group one unfinished completion (8x the credit of one generation, before);
//  - garbage: random tokens (accepted, then refused, never flagged, before);
//  - hoarding: identities that take many work items and return them at once (an honest node was told "busy").
// Each cheat mints no confirmed credit, the copier and the garbler are flagged and get no more work, and the real
// cohortd beside them is credited and never refused.
#include "LedgerRows.h"
#include "TestSupport.h"
#include "net/Identity.h"
#include "net/RequestSigning.h"
#include "rl/Environment.h"
#include "rl/Policy.h"
#include "rl/Tokenizer.h"
#include "rl/WorkSampling.h"
#include "toploc/Proof.h"

#include <QDateTime>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using cohort::test::ChildProcess;
using cohort::test::programPath;

namespace {
const char kCatalogue[] = R"({"tasks":[{"id":"mini-rl","kind":"rl","title":"Mini sorting","reward_rate":2.0,
  "rl":{"environments":["sort-digits","reverse"],"prompts_per_batch":4,"samples_per_prompt":4,"max_new_tokens":10,
        "batches_per_step":1,"steps_per_version":2,"warmup_steps":40,"warmup_batch":16,"async_level":2,
        "model":{"d_model":32,"n_layers":1,"n_heads":2,"d_ff":64,"max_seq_len":48}}}]})";
constexpr int kPrompts = 4, kSamples = 4, kMaxNew = 10, kDim = 32;

struct Reply {
    int status = 0;
    QJsonObject body;
    QString code() const
    {
        return body.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toString();
    }
};

// A sample as the cheater submits it: tokens and, when it has them, the hidden states its proof commits to.
struct CheatSample {
    std::vector<int> tokens;
    std::vector<float> hidden; // tokens x kDim; empty: random (a proof of the right shape only)
};

// What the cheater puts in a sample: its tokens (the hub recomputes the reward; the proof only has to parse).
using SampleMaker = std::function<std::vector<int>(int group, int sample)>;
} // namespace

class TestRlCheats : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QNetworkAccessManager m_net;
    QString m_catalogue;

    Reply send(const QString &base, const QByteArray &method, const QByteArray &path, const QByteArray &body,
               const cohort::Identity *id)
    {
        QNetworkRequest request(QUrl(base + QString::fromLatin1(path)));
        request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
        if (id)
            for (const auto &[name, value] :
                 cohort::signRequest(*id, method, path, body, QDateTime::currentMSecsSinceEpoch()))
                request.setRawHeader(name, value);
        QNetworkReply *reply = method == "GET" ? m_net.get(request) : m_net.post(request, body);
        QSignalSpy done(reply, &QNetworkReply::finished);
        if (!reply->isFinished())
            done.wait(30'000);
        Reply r;
        r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        r.body = QJsonDocument::fromJson(reply->readAll()).object();
        reply->deleteLater();
        return r;
    }

    std::unique_ptr<cohort::Identity> identity(const QString &name)
    {
        auto id = cohort::Identity::loadOrCreate(m_dir.filePath(name));
        return id ? std::make_unique<cohort::Identity>(std::move(*id)) : nullptr;
    }

    // holdVerification: the trainer verifies nothing until the test lets it (COHORT_TESTING_HOLD_VERIFICATION).
    std::unique_ptr<ChildProcess> startHub(const QString &dir, QString *url, bool holdVerification = false)
    {
        QString why;
        auto hub = cohort::test::startHub(
            dir,
            {QStringLiteral("--catalogue"), m_catalogue, QStringLiteral("--heartbeat-interval"), QStringLiteral("1"),
             QStringLiteral("--registration-work-bits"), QStringLiteral("0"), QStringLiteral("--train"),
             QStringLiteral("mini-rl")},
            &why, holdVerification ? QStringLiteral("export COHORT_TESTING_HOLD_VERIFICATION=1") : QString());
        if (!hub) {
            qWarning() << "cohort-hub did not start:" << why;
            return nullptr;
        }
        *url = hub->url;
        return std::move(hub->process);
    }

    // A work item, waiting while the trainer warms up or this identity's batches await verification.
    QJsonObject work(const QString &base, const cohort::Identity &id, Reply *last = nullptr)
    {
        Reply r;
        for (int attempt = 0; attempt < 600; ++attempt) {
            r = send(base, "POST", "/v1/tasks/mini-rl/work", R"({"sampling":"seeded","problems":"held-out-v1"})", &id);
            if (r.status == 200 || (r.status != 503))
                break;
            if (attempt % 50 == 49)
                qInfo("work: %d %s", r.status, QJsonDocument(r.body).toJson(QJsonDocument::Compact).constData());
            QTest::qWait(100); // the hub said "Retry-After": a client waits, as cohortd does
        }
        if (last)
            *last = r;
        return r.status == 200 ? r.body : QJsonObject{};
    }

    // A submission for `item` whose samples are `make`'s tokens, with the rewards the hub will compute and proofs of
    // the right shape (from random hidden states).
    static QByteArray submission(const QJsonObject &item, const SampleMaker &make)
    {
        return submission(item, [&](int g, int s) { return CheatSample{make(g, s), {}}; });
    }
    static QByteArray submission(const QJsonObject &item, const std::function<CheatSample(int, int)> &make)
    {
        const quint64 seed = item.value(QStringLiteral("seed")).toString().toULongLong();
        const auto problems = cohort::rl::problemsForWork({"sort-digits", "reverse"}, seed, kPrompts);
        QJsonArray groups;
        for (int g = 0; g < kPrompts; ++g) {
            const cohort::rl::Problem &p = problems[size_t(g)];
            QJsonArray samples;
            for (int s = 0; s < kSamples; ++s) {
                const CheatSample cheat = make(g, s);
                const std::vector<int> &tokens = cheat.tokens;
                QJsonArray ids;
                std::string text;
                bool finished = false;
                for (int t : tokens) {
                    ids.append(t);
                    if (t == cohort::rl::ByteTokenizer::kEos)
                        finished = true;
                    else
                        text.push_back(char(t));
                }
                std::vector<float> hidden = cheat.hidden;
                if (hidden.empty()) {
                    hidden.resize(tokens.size() * kDim);
                    for (float &h : hidden)
                        h = float(QRandomGenerator::global()->generateDouble() * 2 - 1);
                }
                const std::string proof =
                    cohort::toploc::serialize(cohort::toploc::buildProofs(hidden.data(), tokens.size(), kDim));
                samples.append(
                    QJsonObject{{QStringLiteral("tokens"), ids},
                                {QStringLiteral("reward"),
                                 cohort::rl::findEnvironment(p.environment)->score(p, text, finished).total},
                                {QStringLiteral("proof"),
                                 QString::fromLatin1(QByteArray(proof.data(), qsizetype(proof.size())).toBase64())}});
            }
            groups.append(QJsonObject{{QStringLiteral("prompt"), QString::fromStdString(p.prompt)},
                                      {QStringLiteral("samples"), samples}});
        }
        const QString id = QStringLiteral("s-") + QString::fromLatin1(cohort::freshNonce());
        return QJsonDocument(QJsonObject{{QStringLiteral("submission_id"), id},
                                         {QStringLiteral("work_id"), item.value(QStringLiteral("work_id"))},
                                         {QStringLiteral("version"), item.value(QStringLiteral("step"))},
                                         {QStringLiteral("groups"), groups}})
            .toJson(QJsonDocument::Compact);
    }

    static std::vector<int> copies(int, int) { return std::vector<int>(kMaxNew, int('7')); }
    static std::vector<int> garbage(int, int)
    {
        std::vector<int> t(size_t(1 + QRandomGenerator::global()->bounded(kMaxNew)));
        for (int &x : t)
            x = int(QRandomGenerator::global()->bounded(32, 127));
        return t;
    }

    // The cheat TOPLOC alone lets through: the claimed version itself (the hub's own copy here; a cheater
    // downloads it) samples with randomness of the cheater's choosing — any sampler, hand-picked draws — and one
    // honest prefill of those tokens makes proofs that verify. Only verifiable sampling tells.
    static std::function<CheatSample(int, int)> honestPrefillOtherSampler(const QString &hubDir,
                                                                          const QJsonObject &item)
    {
        const int version = item.value(QStringLiteral("step")).toInt();
        auto policy = std::make_shared<cohort::rl::Policy>(std::move(*cohort::rl::Policy::load(
            QDir(hubDir).filePath(QStringLiteral("trainer/mini-rl/v%1.safetensors").arg(version)).toStdString())));
        const quint64 seed = item.value(QStringLiteral("seed")).toString().toULongLong();
        const auto problems = cohort::rl::problemsForWork({"sort-digits", "reverse"}, seed, kPrompts);
        std::vector<std::vector<int32_t>> prompts;
        for (const cohort::rl::Problem &p : problems)
            for (int s = 0; s < kSamples; ++s)
                prompts.push_back(cohort::rl::promptTokens(p));
        cohort::rl::SamplingConfig sampling;
        sampling.maxNewTokens = kMaxNew;
        sampling.seed = QRandomGenerator::global()->generate64(); // not the work item's
        auto generated = policy->generate(prompts, sampling);
        std::vector<std::vector<int32_t>> completions;
        for (const cohort::rl::Completion &c : *generated)
            completions.push_back(c.tokens);
        std::vector<std::vector<float>> hidden;
        auto scored = policy->scoreCompletions(prompts, completions, 1.0f, nullptr, &hidden);
        auto rows = std::make_shared<std::vector<CheatSample>>();
        for (size_t r = 0; r < completions.size(); ++r)
            rows->push_back(CheatSample{std::vector<int>(completions[r].begin(), completions[r].end()),
                                        scored ? hidden[r] : std::vector<float>{}});
        return [rows](int g, int s) { return (*rows)[size_t(g * kSamples + s)]; };
    }

    QStringList rowsOf(const QString &hubDir, const QString &nodeId, const QString &what)
    {
        return cohort::test::ledgerRows(
            hubDir, QStringLiteral("SELECT ") + what + QStringLiteral(" FROM submissions WHERE node_id=:n"),
            {{QStringLiteral(":n"), nodeId}});
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_catalogue = m_dir.filePath(QStringLiteral("catalogue.json"));
        QFile f(m_catalogue);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kCatalogue);
    }

    // Copies and garbage beside a real cohortd: refused at verification, no confirmed credit, flagged after three;
    // the honest node is credited and never refused.
    void copiesAndGarbageEarnNothingAndAreFlagged()
    {
        const QString hubDir = m_dir.filePath(QStringLiteral("hub"));
        QString url;
        auto hub = startHub(hubDir, &url);
        QVERIFY(hub);
        const QString nodeDir = m_dir.filePath(QStringLiteral("honest"));
        ChildProcess honest(programPath(QStringLiteral("cohortd")),
                            {QStringLiteral("--hub"), url, QStringLiteral("--data-dir"), nodeDir,
                             QStringLiteral("--json"), QStringLiteral("--task"), QStringLiteral("mini-rl"),
                             QStringLiteral("--heartbeat-ms"), QStringLiteral("500"), QStringLiteral("--settings"),
                             nodeDir + QStringLiteral(".ini")});
        QVERIFY(honest.start());

        struct Cheat {
            QString name;
            std::function<std::function<CheatSample(int, int)>(const QJsonObject &item)> make;
            double pendingCreditEach; // what intake credits before verification (the credit rule); -1: not asserted
        };
        const auto plain = [](SampleMaker m) {
            return [m](const QJsonObject &) {
                return std::function<CheatSample(int, int)>([m](int g, int s) { return CheatSample{m(g, s), {}}; });
            };
        };
        const std::vector<Cheat> cheats{
            {QStringLiteral("copier"), plain(copies), 0.0},
            {QStringLiteral("garbler"), plain(garbage), -1},
            {QStringLiteral("prefiller"),
             [&](const QJsonObject &item) { return honestPrefillOtherSampler(hubDir, item); }, -1}};
        for (const Cheat &cheat : cheats) {
            auto id = identity(cheat.name);
            QVERIFY(id);
            QCOMPARE(send(url, "POST", "/v1/nodes/register", R"({"name":"cheater"})", id.get()).status, 200);
            for (int batch = 0; batch < 3; ++batch) {
                const QJsonObject item = work(url, *id);
                QVERIFY2(!item.isEmpty(), qPrintable(cheat.name));
                const Reply r =
                    send(url, "POST", "/v1/tasks/mini-rl/rollouts", submission(item, cheat.make(item)), id.get());
                QCOMPARE(r.status, 200); // well-formed: it passes intake and costs the hub a verification
                if (cheat.pendingCreditEach >= 0)
                    QCOMPARE(r.body.value(QStringLiteral("pending_credit")).toDouble(), cheat.pendingCreditEach);
                // Wait for the verdict before the next (the node's share of pending batches is 2).
                const QString sid = r.body.value(QStringLiteral("submission_id")).toString();
                QTRY_VERIFY_WITH_TIMEOUT(
                    cohort::test::ledgerRows(hubDir,
                                             QStringLiteral("SELECT status FROM submissions WHERE submission_id=:s"),
                                             {{QStringLiteral(":s"), sid}}) == QStringList{QStringLiteral("refused")},
                    30'000);
            }
            // Every batch refused on sampling evidence; no credit confirmed; flagged; no more work.
            const QStringList reasons = rowsOf(hubDir, id->nodeId(), QStringLiteral("reason"));
            QCOMPARE(reasons.size(), 3);
            for (const QString &reason : reasons)
                QVERIFY2(reason.contains(QStringLiteral("not sampled by version")), qPrintable(reason));
            QCOMPARE(rowsOf(hubDir, id->nodeId(), QStringLiteral("status")), QStringList(3, QStringLiteral("refused")));
            QCOMPARE(
                cohort::test::ledgerRows(
                    hubDir,
                    QStringLiteral(
                        "SELECT COALESCE(SUM(credit), 0) FROM submissions WHERE node_id=:n AND status='confirmed'"),
                    {{QStringLiteral(":n"), id->nodeId()}}),
                QStringList{QStringLiteral("0")});
            Reply refused;
            work(url, *id, &refused);
            QCOMPARE(refused.status, 403);
            QCOMPARE(refused.code(), QStringLiteral("node_flagged"));
            const Reply earnings =
                send(url, "GET", QByteArray("/v1/nodes/") + id->nodeId().toLatin1() + "/earnings", {}, id.get());
            QCOMPARE(earnings.status, 200);
            QCOMPARE(
                earnings.body.value(QStringLiteral("total")).toObject().value(QStringLiteral("confirmed")).toDouble(),
                0.0);
            QCOMPARE(
                earnings.body.value(QStringLiteral("total")).toObject().value(QStringLiteral("pending")).toDouble(),
                0.0);
        }

        // The honest node beside them: confirmed credit, nothing refused, not flagged.
        const auto honestId = cohort::Identity::loadOrCreate(QDir(nodeDir).filePath(QStringLiteral("identity")));
        QVERIFY(honestId);
        QTRY_VERIFY2_WITH_TIMEOUT(
            rowsOf(hubDir, honestId->nodeId(), QStringLiteral("status")).count(QStringLiteral("confirmed")) >= 3,
            qPrintable(
                rowsOf(hubDir, honestId->nodeId(), QStringLiteral("status || ' ' || reason")).join(QLatin1Char('\n')) +
                honest.errors().right(3000)),
            120'000);
        int code = -1;
        QVERIFY(honest.terminateAndWait(15'000, &code));
        QVERIFY(hub->terminateAndWait(15'000, &code));
        const QStringList statuses = rowsOf(hubDir, honestId->nodeId(), QStringLiteral("status"));
        QCOMPARE(statuses.count(QStringLiteral("refused")), 0);
        QCOMPARE(statuses.count(QStringLiteral("rejected")), 0);
        QVERIFY(cohort::test::ledgerRows(hubDir, QStringLiteral("SELECT flagged_at FROM node_flags WHERE node_id=:n"),
                                         {{QStringLiteral(":n"), honestId->nodeId()}})
                    .isEmpty());
        qInfo("honest node: %lld confirmed batches, 0 refused; copier, garbler and prefiller: 3 refused each, flagged, "
              "0 credit",
              qint64(statuses.count(QStringLiteral("confirmed"))));
    }

    // Hoarders: two identities take 8 work items each and return them at once. Each gets 2 batches accepted (its
    // share awaiting verification) and is told to wait for the rest; a third identity is served work meanwhile.
    // The accepted batches' credit stays pending: nothing is confirmed before verification. (Verification is held
    // back on this hub, a testing knob, so the queue is exactly what the submissions made it.)
    void hoardersCannotStarveOthersOrCollectUnverifiedCredit()
    {
        const QString hubDir = m_dir.filePath(QStringLiteral("hub-hoard"));
        QString url;
        auto hub = startHub(hubDir, &url, true);
        QVERIFY(hub);
        for (const QString &name : {QStringLiteral("hoarder-a"), QStringLiteral("hoarder-b")}) {
            auto id = identity(name);
            QVERIFY(id);
            QCOMPARE(send(url, "POST", "/v1/nodes/register", R"({"name":"hoarder"})", id.get()).status, 200);
            std::vector<QJsonObject> items;
            for (int i = 0; i < 8; ++i) {
                items.push_back(work(url, *id));
                QVERIFY(!items.back().isEmpty());
            }
            int accepted = 0, busy = 0;
            for (const QJsonObject &item : items) {
                const Reply r = send(url, "POST", "/v1/tasks/mini-rl/rollouts", submission(item, garbage), id.get());
                accepted += r.status == 200 ? 1 : 0;
                busy += r.status == 503 && r.code() == QLatin1String("busy") ? 1 : 0;
            }
            QCOMPARE(accepted, 2);
            QCOMPARE(busy, 6);
            // Its next work request waits too.
            QCOMPARE(send(url, "POST", "/v1/tasks/mini-rl/work", R"({"sampling":"seeded","problems":"held-out-v1"})",
                          id.get())
                         .code(),
                     QStringLiteral("busy"));
            QCOMPARE(cohort::test::ledgerRows(
                         hubDir,
                         QStringLiteral("SELECT COUNT(*) FROM submissions WHERE node_id=:n AND status='confirmed'"),
                         {{QStringLiteral(":n"), id->nodeId()}}),
                     QStringList{QStringLiteral("0")});
        }
        // A client that does not sample with the work item's seed (cohortd before verifiable sampling) is told to
        // update instead of being handed work that would be refused and flag it.
        auto old = identity(QStringLiteral("old-client"));
        QVERIFY(old);
        QCOMPARE(send(url, "POST", "/v1/nodes/register", R"({"name":"old"})", old.get()).status, 200);
        const Reply upgrade = send(url, "POST", "/v1/tasks/mini-rl/work", "{}", old.get());
        QCOMPARE(upgrade.status, 426);
        QCOMPARE(upgrade.code(), QStringLiteral("upgrade_required"));
        // Nor one that samples with the seed but draws held-out problems (cohortd before the held-out set).
        const Reply drawsHeldOut = send(url, "POST", "/v1/tasks/mini-rl/work", R"({"sampling":"seeded"})", old.get());
        QCOMPARE(drawsHeldOut.status, 426);
        QCOMPARE(drawsHeldOut.code(), QStringLiteral("upgrade_required"));
        QVERIFY(drawsHeldOut.body.value(QStringLiteral("error"))
                    .toObject()
                    .value(QStringLiteral("message"))
                    .toString()
                    .contains(QStringLiteral("held-out")));
        auto other = identity(QStringLiteral("bystander"));
        QVERIFY(other);
        QCOMPARE(send(url, "POST", "/v1/nodes/register", R"({"name":"bystander"})", other.get()).status, 200);
        Reply first;
        const QJsonObject item = work(url, *other, &first);
        QCOMPARE(first.status, 200); // served at once: the hoarders' queue is theirs alone
        QVERIFY(!item.isEmpty());
        QCOMPARE(send(url, "POST", "/v1/tasks/mini-rl/rollouts", submission(item, garbage), other.get()).status, 200);
        int code = -1;
        QVERIFY(hub->terminateAndWait(15'000, &code));
    }
};

QTEST_GUILESS_MAIN(TestRlCheats)
#include "tst_rl_cheats.moc"
