// GET /metrics of a real cohort-hub and a real cohortd on 127.0.0.1 (issue 23): a node works on a small RL task, both
// are scraped over HTTP, and the text is read by the Prometheus project's own parser (Python's prometheus_client,
// Debian's python3-prometheus-client) — a text it refuses fails the test. And the hostile side: no token, a wrong
// token, a hub with no operator token at all, a stranger's Host name — each refused, nothing of the metrics said.
#include "TestSupport.h"
#include "net/RequestSigning.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

using namespace cohort::test;

namespace {

const char kCatalogue[] = R"({"tasks":[{"id":"mini-rl","kind":"rl","title":"Mini sorting","reward_rate":2.0,
  "rl":{"environments":["sort-digits","reverse"],"prompts_per_batch":4,"samples_per_prompt":4,"max_new_tokens":10,
        "batches_per_step":1,"steps_per_version":2,"warmup_steps":40,"warmup_batch":16,"async_level":2,
        "model":{"d_model":32,"n_layers":1,"n_heads":2,"d_ff":64,"max_seq_len":48}}}]})";

const QByteArray kOperatorToken = QByteArray(64, 'c');
const char kContentType[] = "text/plain; version=0.0.4; charset=utf-8";

// The parser Prometheus's own Python client uses; it raises on what it cannot read. Also checked here, beyond what
// it checks itself: each family once (a family whose lines are split shows up twice), a HELP and a TYPE for each.
// Prints the families as JSON.
const char kParser[] = R"PY(
import json, sys
from prometheus_client.parser import text_string_to_metric_families
families = {}
for f in text_string_to_metric_families(sys.stdin.read()):
    if f.name in families:
        sys.exit("family %s twice: its lines are not together" % f.name)
    if f.type not in ("counter", "gauge"):
        sys.exit("family %s has no TYPE line (%s)" % (f.name, f.type))
    if not f.documentation:
        sys.exit("family %s has no HELP line" % f.name)
    families[f.name] = {"type": f.type, "samples": [{"name": s.name, "labels": s.labels, "value": s.value} for s in f.samples]}
json.dump(families, sys.stdout, allow_nan=False)
)PY";
const char kPython[] =
    "/usr/bin/python3"; // Debian's, where python3-prometheus-client is (a pyenv one may be first on PATH)

struct HttpAnswer {
    int status = 0;
    QByteArray contentType;
    QByteArray replySignature; // X-Cohort-Reply-Signature
    QByteArray body;
};

// One plain HTTP/1.1 GET with exactly these headers (Host included: QNetworkAccessManager would set its own).
HttpAnswer get(quint16 port, const QByteArray &path, const QByteArray &host, const QByteArray &authorization = {},
               const QByteArray &nonce = {})
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    if (!socket.waitForConnected(10'000))
        return {};
    QByteArray request = "GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n";
    if (!authorization.isEmpty())
        request += "Authorization: " + authorization + "\r\n";
    if (!nonce.isEmpty())
        request += QByteArray(cohort::signing::kNonceHeader) + ": " + nonce + "\r\n";
    socket.write(request + "\r\n");
    // Read up to the end of the body its Content-Length announces (the server may keep the connection open).
    QByteArray raw;
    HttpAnswer answer;
    qsizetype end = -1, length = -1;
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 20'000) {
        raw += socket.readAll();
        if (end < 0 && (end = raw.indexOf("\r\n\r\n")) >= 0) {
            const QList<QByteArray> head = raw.left(end).split('\n');
            answer.status = head.value(0).split(' ').value(1).toInt();
            for (const QByteArray &line : head) {
                const QByteArray lower = line.toLower();
                if (lower.startsWith("content-type:"))
                    answer.contentType = line.mid(13).trimmed();
                if (lower.startsWith("content-length:"))
                    length = line.mid(15).trimmed().toLongLong();
                if (lower.startsWith("x-cohort-reply-signature:")) // signing::kReplySignatureHeader
                    answer.replySignature = line.mid(line.indexOf(':') + 1).trimmed();
            }
        }
        if (end >= 0 && length >= 0 && raw.size() >= end + 4 + length)
            break;
        if (socket.state() == QAbstractSocket::UnconnectedState)
            break;
        socket.waitForReadyRead(200);
    }
    if (end < 0)
        return {};
    answer.body = raw.mid(end + 4, length >= 0 ? length : -1);
    return answer;
}

QString errorCode(const HttpAnswer &answer)
{
    return QJsonDocument::fromJson(answer.body)
        .object()
        .value(QStringLiteral("error"))
        .toObject()
        .value(QStringLiteral("code"))
        .toString();
}

// A sample's value straight from the text (while waiting; the parser reads the final scrape): the line
// "<series> <value>", or NaN when absent.
double sampleIn(const QByteArray &text, const QByteArray &series)
{
    for (const QByteArray &line : text.split('\n'))
        if (line.startsWith(QByteArray(series + ' ')))
            return line.mid(series.size() + 1).toDouble();
    return qQNaN();
}

struct Parsed {
    bool ok = false;
    QString error;
    QJsonObject families;
};

Parsed parsePrometheus(const QByteArray &text)
{
    QProcess python;
    python.start(QString::fromLatin1(kPython), {QStringLiteral("-c"), QString::fromLatin1(kParser)});
    Parsed parsed;
    if (!python.waitForStarted(10'000)) {
        parsed.error = QStringLiteral("%1 did not start").arg(QString::fromLatin1(kPython));
        return parsed;
    }
    python.write(text);
    python.closeWriteChannel();
    if (!python.waitForFinished(60'000)) {
        parsed.error = QStringLiteral("the parser did not finish");
        return parsed;
    }
    const QByteArray out = python.readAllStandardOutput();
    if (python.exitStatus() != QProcess::NormalExit || python.exitCode() != 0) {
        parsed.error = QString::fromUtf8(python.readAllStandardError()).right(3000);
        return parsed;
    }
    QJsonParseError jsonError;
    parsed.families = QJsonDocument::fromJson(out, &jsonError).object();
    parsed.ok = jsonError.error == QJsonParseError::NoError;
    if (!parsed.ok)
        parsed.error = jsonError.errorString();
    return parsed;
}

// The samples of a parsed family (the parser names a counter family without its _total).
QJsonArray samplesOf(const Parsed &p, const QString &family)
{
    return p.families.value(family).toObject().value(QStringLiteral("samples")).toArray();
}

// The value of the family's sample whose labels include all of `labels` (NaN: none).
double valueOf(const Parsed &p, const QString &family, const QJsonObject &labels = {})
{
    for (const QJsonValue &v : samplesOf(p, family)) {
        const QJsonObject sample = v.toObject(), have = sample.value(QStringLiteral("labels")).toObject();
        bool match = true;
        for (auto it = labels.begin(); it != labels.end(); ++it)
            match = match && have.value(it.key()) == it.value();
        if (match)
            return sample.value(QStringLiteral("value")).toDouble();
    }
    return qQNaN();
}

struct Control {
    quint16 port = 0;
    QByteArray token;
};

Control controlOf(const QString &dataDir)
{
    QFile file(QDir(dataDir).filePath(QStringLiteral("control.json")));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QJsonObject o = QJsonDocument::fromJson(file.readAll()).object();
    return {quint16(QUrl(o.value(QStringLiteral("url")).toString()).port()),
            o.value(QStringLiteral("token")).toString().toLatin1()};
}

} // namespace

class TestMetricsE2e : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    bool m_parser = false;

    QString writeFile(const QString &name, const QByteArray &bytes)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (f.open(QIODevice::WriteOnly))
            f.write(bytes);
        f.close();
        QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        return path;
    }

    std::optional<StartedHub> hub(const QString &name, const QStringList &extra)
    {
        QString why;
        auto started =
            startHub(m_dir.filePath(name),
                     QStringList{QStringLiteral("--catalogue"), writeFile(QStringLiteral("catalogue.json"), kCatalogue),
                                 QStringLiteral("--heartbeat-interval"), QStringLiteral("1"),
                                 QStringLiteral("--registration-work-bits"), QStringLiteral("8")} +
                         extra,
                     &why);
        if (!started)
            qWarning("cohort-hub did not start: %s", qPrintable(why));
        return started;
    }

    std::unique_ptr<ChildProcess> node(const QString &hubUrl, const QString &dir)
    {
        auto p = std::make_unique<ChildProcess>(
            programPath(QStringLiteral("cohortd")),
            QStringList{QStringLiteral("--hub"), hubUrl, QStringLiteral("--data-dir"), dir, QStringLiteral("--json"),
                        QStringLiteral("--task"), QStringLiteral("mini-rl"), QStringLiteral("--heartbeat-ms"),
                        QStringLiteral("500"), QStringLiteral("--settings"), dir + QStringLiteral(".ini")});
        return p->start() ? std::move(p) : nullptr;
    }

    static quint16 portOf(const StartedHub &h) { return quint16(QUrl(h.url).port()); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QProcess probe;
        probe.start(QString::fromLatin1(kPython),
                    {QStringLiteral("-c"), QStringLiteral("import prometheus_client.parser")});
        m_parser = probe.waitForStarted(10'000) && probe.waitForFinished(30'000) && probe.exitCode() == 0;
        if (!m_parser)
            qWarning("%s cannot import prometheus_client: the parse steps are skipped (apt install "
                     "python3-prometheus-client)",
                     kPython);
    }

    // The harness itself: the parser refuses broken text, so a pass below means it read ours.
    void theParserRefusesBrokenText()
    {
        if (!m_parser)
            QSKIP("python3-prometheus-client is not installed");
        QVERIFY(parsePrometheus("# HELP a_b x\n# TYPE a_b gauge\na_b 1\n").ok);
        for (const QByteArray &broken :
             {QByteArray("# HELP a x\n# TYPE a gauge\na{l=\"v} 1\n"),
              QByteArray("# HELP a x\n# TYPE a gauge\na 1.2.3\n"),
              QByteArray("# HELP a x\n# TYPE a gauge\na 1\n# HELP b y\n# TYPE b gauge\nb 1\na 2\n"),
              QByteArray("a 1\n")})
            QVERIFY2(!parsePrometheus(broken).ok, broken.constData());
    }

    // Strangers get nothing: no token, a wrong one, a hub with no operator token, a name that is not the hub's.
    void strangersAreRefused()
    {
        auto open = hub(QStringLiteral("hub-no-token"), {});
        auto guarded = hub(QStringLiteral("hub-token"), {QStringLiteral("--operator-token-file"),
                                                         writeFile(QStringLiteral("operator.token"), kOperatorToken)});
        QVERIFY(open && guarded);
        const QByteArray loopback = "127.0.0.1:" + QByteArray::number(portOf(*guarded));
        const QByteArray bearer = "Bearer " + kOperatorToken;

        QList<HttpAnswer> refused;
        refused << get(portOf(*open), "/metrics", "127.0.0.1:" + QByteArray::number(portOf(*open)), bearer);
        QCOMPARE(refused.last().status, 403); // no operator token configured: no metrics, whatever is sent
        QCOMPARE(errorCode(refused.last()), QStringLiteral("no_operator_token"));
        refused << get(portOf(*guarded), "/metrics", loopback);
        QCOMPARE(refused.last().status, 401);
        QCOMPARE(errorCode(refused.last()), QStringLiteral("unauthorized"));
        refused << get(portOf(*guarded), "/metrics", loopback, "Bearer " + QByteArray(64, 'd'));
        QCOMPARE(refused.last().status, 401);
        refused << get(portOf(*guarded), "/metrics", loopback, "Bearer " + kOperatorToken.left(63));
        QCOMPARE(refused.last().status, 401);
        refused << get(portOf(*guarded), "/metrics", loopback, "Basic " + kOperatorToken.toBase64());
        QCOMPARE(refused.last().status, 401);
        refused << get(portOf(*guarded), "/metrics", "metrics.evil.example", bearer); // a name rebound to 127.0.0.1
        QCOMPARE(refused.last().status, 421);
        for (const HttpAnswer &r : std::as_const(refused)) {
            QCOMPARE(r.contentType, QByteArray("application/json"));
            QVERIFY2(!r.body.contains("cohort_hub_"), r.body.constData());
        }
        // The operator gets the text, and like every answer to a request with a nonce it is signed by the hub's key:
        // the signature covers the text as sent.
        const QByteArray nonce = cohort::freshNonce();
        HttpAnswer a = get(portOf(*guarded), "/metrics", loopback, bearer, nonce);
        QCOMPARE(a.status, 200);
        QCOMPARE(a.contentType, QByteArray(kContentType));
        QVERIFY2(a.body.contains("\ncohort_hub_nodes_registered 0\n"), a.body.constData());
        const QByteArray hubKey = QByteArray::fromBase64(QRegularExpression(QStringLiteral("key (\\S+)\\)"))
                                                             .match(guarded->process->output())
                                                             .captured(1)
                                                             .toLatin1());
        QVERIFY(cohort::verifyReply(200, nonce, a.body, a.replySignature, hubKey));
        QVERIFY(!cohort::verifyReply(200, nonce, a.body + "x", a.replySignature, hubKey));
    }

    // A node works; both sides' text parses and says so.
    void scrapesParseAndTellWhatHappened()
    {
        auto h = hub(QStringLiteral("hub-work"),
                     {QStringLiteral("--train"), QStringLiteral("mini-rl"), QStringLiteral("--operator-token-file"),
                      writeFile(QStringLiteral("operator.token"), kOperatorToken)});
        QVERIFY(h);
        const QString nodeDir = m_dir.filePath(QStringLiteral("node"));
        auto n = node(h->url, nodeDir);
        QVERIFY(n);
        const QByteArray hubHost = "127.0.0.1:" + QByteArray::number(portOf(*h));
        const QByteArray bearer = "Bearer " + kOperatorToken;

        // The node's control API: the token from control.json, as Prometheus sends it from a credentials file.
        QTRY_VERIFY_WITH_TIMEOUT(controlOf(nodeDir).port != 0, 30'000);
        const Control control = controlOf(nodeDir);
        const QByteArray nodeHost = "127.0.0.1:" + QByteArray::number(control.port);
        QCOMPARE(get(control.port, "/metrics", nodeHost).status, 401);
        QCOMPARE(get(control.port, "/metrics", nodeHost, "Bearer " + QByteArray(control.token.size(), 'a')).status,
                 401);
        QCOMPARE(get(control.port, "/metrics", "node.evil.example", "Bearer " + control.token).status, 421);

        // Wait for accepted work, seen through the metrics themselves (the processes' pipes drained meanwhile).
        HttpAnswer nodeScrape;
        const auto worked = [&] {
            (void)n->output();
            (void)n->errors();
            (void)h->process->output();
            (void)h->process->errors();
            nodeScrape = get(control.port, "/metrics", nodeHost, "Bearer " + control.token);
            return sampleIn(nodeScrape.body, "cohort_rollout_batches_accepted_total") >= 1;
        };
        QElapsedTimer waited;
        waited.start();
        bool done = false;
        while (!(done = worked()) && waited.elapsed() < 240'000)
            QTest::qWait(500);
        QVERIFY2(done, qPrintable(QStringLiteral("no accepted batch in the node's metrics:\n%1\nnode log:\n%2")
                                      .arg(QString::fromUtf8(nodeScrape.body), n->errors().right(3000))));
        QCOMPARE(nodeScrape.status, 200);
        QCOMPARE(nodeScrape.contentType, QByteArray(kContentType));

        if (!m_parser)
            QSKIP("python3-prometheus-client is not installed");
        const Parsed node = parsePrometheus(nodeScrape.body);
        QVERIFY2(node.ok, qPrintable(node.error + QStringLiteral("\n") + QString::fromUtf8(nodeScrape.body)));
        QCOMPARE(node.families.value(QStringLiteral("cohort_rollout_batches_accepted"))
                     .toObject()
                     .value(QStringLiteral("type"))
                     .toString(),
                 QStringLiteral("counter"));
        QVERIFY(valueOf(node, QStringLiteral("cohort_rollout_batches_accepted")) >= 1);
        QVERIFY(valueOf(node, QStringLiteral("cohort_rollout_tokens_generated")) >= 1);
        QVERIFY(valueOf(node, QStringLiteral("cohort_rollout_tokens_per_second")) > 0);
        QVERIFY(valueOf(node, QStringLiteral("cohort_process_resident_memory_bytes")) > 1 << 20);
        QCOMPARE(valueOf(node, QStringLiteral("cohort_build_info"),
                         {{QStringLiteral("version"), QStringLiteral(COHORT_VERSION_STRING)}}),
                 1.0);
        // Exactly one state is the current one, and it is a state a working node can be in.
        int current = 0;
        QString state;
        for (const QJsonValue &v : samplesOf(node, QStringLiteral("cohort_node_state")))
            if (v.toObject().value(QStringLiteral("value")).toDouble() == 1) {
                ++current;
                state =
                    v.toObject().value(QStringLiteral("labels")).toObject().value(QStringLiteral("state")).toString();
            }
        QCOMPARE(current, 1);
        QVERIFY2(QStringList({QStringLiteral("working"), QStringLiteral("idle"), QStringLiteral("downloading")})
                     .contains(state),
                 qPrintable(state));
        QVERIFY(samplesOf(node, QStringLiteral("cohort_node_state")).size() >= 10);
        QCOMPARE(samplesOf(node, QStringLiteral("cohort_heartbeat_failures")).size(), 1);

        // The hub: at least this node online, its batches counted, the trainer and its versions.
        HttpAnswer hubScrape;
        const auto hubSawIt = [&] {
            hubScrape = get(portOf(*h), "/metrics", hubHost, bearer);
            return sampleIn(hubScrape.body,
                            "cohort_hub_rollout_submissions_total{task=\"mini-rl\",result=\"accepted\"}") >= 1;
        };
        QTRY_VERIFY_WITH_TIMEOUT(hubSawIt(), 20'000); // the text is at most a couple of seconds old
        QCOMPARE(hubScrape.status, 200);
        QCOMPARE(hubScrape.contentType, QByteArray(kContentType));
        const Parsed hubParsed = parsePrometheus(hubScrape.body);
        QVERIFY2(hubParsed.ok, qPrintable(hubParsed.error + QStringLiteral("\n") + QString::fromUtf8(hubScrape.body)));
        const QJsonObject task{{QStringLiteral("task"), QStringLiteral("mini-rl")}};
        QVERIFY(valueOf(hubParsed, QStringLiteral("cohort_hub_nodes_registered")) >= 1);
        QVERIFY(valueOf(hubParsed, QStringLiteral("cohort_hub_nodes_online")) >= 1);
        QVERIFY(valueOf(hubParsed, QStringLiteral("cohort_hub_rollout_submissions"),
                        {{QStringLiteral("task"), QStringLiteral("mini-rl")},
                         {QStringLiteral("result"), QStringLiteral("accepted")}}) >= 1);
        QVERIFY(valueOf(hubParsed, QStringLiteral("cohort_hub_checkpoint_version"), task) >= 1);
        QVERIFY(valueOf(hubParsed, QStringLiteral("cohort_hub_trainer_step"), task) >= 0);
        QCOMPARE(valueOf(hubParsed, QStringLiteral("cohort_hub_trainer_ready"), task), 1.0);
        QVERIFY(valueOf(hubParsed, QStringLiteral("cohort_hub_verification_queue_batches"), task) >= 0);
        QVERIFY(valueOf(hubParsed, QStringLiteral("cohort_hub_connections_open"),
                        {{QStringLiteral("listener"), QStringLiteral("api")}}) >= 1);
        QCOMPARE(hubParsed.families.value(QStringLiteral("cohort_hub_connections_refused"))
                     .toObject()
                     .value(QStringLiteral("type"))
                     .toString(),
                 QStringLiteral("counter"));
        QCOMPARE(valueOf(hubParsed, QStringLiteral("cohort_hub_build_info"),
                         {{QStringLiteral("version"), QStringLiteral(COHORT_VERSION_STRING)}}),
                 1.0);

        int code = -1;
        QVERIFY(n->terminateAndWait(20'000, &code));
        QCOMPARE(code, 0);
    }

    // --control-token-file: the token Prometheus reads from its credentials file stays the same across restarts of
    // cohortd (the default is a new random one each start); a file that holds no proper token is refused at start.
    void aFixedControlTokenSurvivesARestart()
    {
        const QByteArray token = "0123456789abcdef0123456789abcdef-fixed";
        const QString tokenFile = writeFile(QStringLiteral("control-token"), token + "\n");
        const QString dir = m_dir.filePath(QStringLiteral("fixed-token"));
        for (int start = 0; start < 2; ++start) {
            ChildProcess n(programPath(QStringLiteral("cohortd")),
                           {QStringLiteral("--data-dir"), dir, QStringLiteral("--settings"),
                            dir + QStringLiteral(".ini"), QStringLiteral("--json"),
                            QStringLiteral("--control-token-file"), tokenFile});
            QVERIFY(n.start());
            QTRY_VERIFY_WITH_TIMEOUT(controlOf(dir).port != 0, 30'000);
            const Control control = controlOf(dir);
            QCOMPARE(control.token, token); // control.json names it too, for cohortd --control
            const QByteArray host = "127.0.0.1:" + QByteArray::number(control.port);
            QCOMPARE(get(control.port, "/metrics", host, "Bearer " + token).status, 200);
            QCOMPARE(get(control.port, "/metrics", host, "Bearer " + QByteArray(token).replace('0', '1')).status, 401);
            int code = -1;
            QVERIFY(n.terminateAndWait(20'000, &code));
            QCOMPARE(code, 0);
            QTRY_VERIFY_WITH_TIMEOUT(controlOf(dir).port == 0, 10'000); // control.json removed at exit
        }
        for (const QByteArray &bad :
             {QByteArray("short"), QByteArray("two words that are long enough to pass the length rule"),
              QByteArray()}) {
            ChildProcess refused(programPath(QStringLiteral("cohortd")),
                                 {QStringLiteral("--data-dir"), dir, QStringLiteral("--settings"),
                                  dir + QStringLiteral(".ini"), QStringLiteral("--control-token-file"),
                                  writeFile(QStringLiteral("bad-token"), bad)});
            QVERIFY(refused.start());
            QVERIFY(refused.process().waitForFinished(20'000));
            QCOMPARE(refused.process().exitCode(), 2);
            QVERIFY2(refused.errors().contains(QStringLiteral("--control-token-file")), qPrintable(refused.errors()));
        }
    }
};

QTEST_GUILESS_MAIN(TestMetricsE2e)
#include "tst_metrics_e2e.moc"
