// TLS end to end (issue 21): a real cohort-hub serving HTTPS with certificates of a test CA made on the spot, and
// real cohortd nodes. A node that trusts the CA registers and works with the hub over https; a node that does not,
// or meets an expired certificate or one for another name, is refused with an error that says which; the hub's
// relay serves over TLS too, and a renewed certificate is served without a restart.
#include "NginxRelay.h"
#include "TestCertificates.h"
#include "TestSupport.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QTemporaryDir>
#include <QTest>

#include <tuple>

using namespace cohort::test;

class HubTlsTest : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<TestCertificates> m_certs;
    int m_runs = 0;

    std::optional<StartedHub> tlsHub(const PemPair &pem, const QStringList &extra = {})
    {
        QString why;
        auto hub =
            startHub(m_dir.filePath(QStringLiteral("hub%1").arg(++m_runs)),
                     QStringList{QStringLiteral("--tls-certificate"), pem.certificateFile, QStringLiteral("--tls-key"),
                                 pem.keyFile, QStringLiteral("--registration-work-bits"), QStringLiteral("8")} +
                         extra,
                     &why);
        if (!hub)
            qWarning("cohort-hub did not start: %s", qPrintable(why));
        return hub;
    }

    std::unique_ptr<ChildProcess> node(const QString &hubUrl, const QString &caFile)
    {
        const QString dir = m_dir.filePath(QStringLiteral("node%1").arg(++m_runs));
        QStringList args{QStringLiteral("--hub"),      hubUrl,
                         QStringLiteral("--data-dir"), dir,
                         QStringLiteral("--json"),     QStringLiteral("--heartbeat-ms"),
                         QStringLiteral("300"),        QStringLiteral("--settings"),
                         dir + QStringLiteral(".ini")};
        if (!caFile.isEmpty())
            args << QStringLiteral("--hub-certificate") << caFile;
        auto p = std::make_unique<ChildProcess>(programPath(QStringLiteral("cohortd")), args);
        return p->start() ? std::move(p) : nullptr;
    }

    static QJsonObject lastJsonLine(ChildProcess &p)
    {
        const QStringList lines = p.output().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        return lines.isEmpty() ? QJsonObject() : QJsonDocument::fromJson(lines.last().toUtf8()).object();
    }

    // The serial of the certificate the server presents, read by a TLS client that trusts the test CA.
    QByteArray servedSerial(const QString &url)
    {
        QSslSocket socket;
        QSslConfiguration config = QSslConfiguration::defaultConfiguration();
        config.addCaCertificates(QSslCertificate::fromPath(m_certs->caFile()));
        socket.setSslConfiguration(config);
        socket.connectToHostEncrypted(QStringLiteral("127.0.0.1"), quint16(QUrl(url).port()));
        if (!socket.waitForEncrypted(10'000))
            return {};
        return socket.peerCertificate().serialNumber();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_certs = std::make_unique<TestCertificates>(m_dir.filePath(QStringLiteral("pki")));
        QVERIFY(m_certs->ok());
    }

    // cohortd --hub https://127.0.0.1:… with the test CA pinned: registers (proof of work and all) and heartbeats;
    // the hub's relay answers over TLS with a certificate the CA signed.
    void nodeWorksWithAnHttpsHub()
    {
        const PemPair good =
            m_certs->leaf(QStringLiteral("good"), {QStringLiteral("127.0.0.1"), QStringLiteral("localhost")}, 30, 100);
        QVERIFY(!good.certificateFile.isEmpty());
        auto hub = tlsHub(good);
        QVERIFY(hub);
        QVERIFY2(hub->url.startsWith(QLatin1String("https://")) ||
                     hub->process->output().contains(QLatin1String("https://127.0.0.1")),
                 qPrintable(hub->process->output()));
        auto n = node(hub->url, m_certs->caFile());
        QVERIFY(n);
        QTRY_VERIFY_WITH_TIMEOUT(!lastJsonLine(*n).value(QStringLiteral("node_id")).toString().isEmpty() &&
                                     lastJsonLine(*n).value(QStringLiteral("state")).toString() ==
                                         QLatin1String("idle"),
                                 60'000);
        QCOMPARE(servedSerial(hub->relayUrl), QByteArray("64")); // 100, as OpenSSL prints serials: hex
    }

    // Without the CA, with an expired certificate, or one for another name: no registration, and the node says why.
    void badCertificatesAreRefusedWithAClearError_data()
    {
        QTest::addColumn<QString>("which");
        QTest::addColumn<bool>("pinCa");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown CA") << "good" << false << "not signed by an authority this computer trusts";
        QTest::newRow("expired") << "expired" << true << "has expired";
        QTest::newRow("wrong host") << "wrong-host" << true << "is for another name";
    }
    void badCertificatesAreRefusedWithAClearError()
    {
        QFETCH(QString, which);
        QFETCH(bool, pinCa);
        QFETCH(QString, expected);
        PemPair pem;
        if (which == QLatin1String("good"))
            pem = m_certs->leaf(QStringLiteral("good2"), {QStringLiteral("127.0.0.1")}, 30, 101);
        else if (which == QLatin1String("expired"))
            pem = m_certs->leaf(QStringLiteral("expired"), {QStringLiteral("127.0.0.1")}, -1, 102);
        else
            pem = m_certs->leaf(QStringLiteral("wrong-host"), {QStringLiteral("other.example")}, 30, 103);
        QVERIFY(!pem.certificateFile.isEmpty());
        auto hub = tlsHub(pem);
        QVERIFY(hub);
        auto n = node(hub->url, pinCa ? m_certs->caFile() : QString());
        QVERIFY(n);
        QTRY_VERIFY_WITH_TIMEOUT(lastJsonLine(*n).value(QStringLiteral("last_error")).toString().contains(expected),
                                 60'000);
        QVERIFY(lastJsonLine(*n).value(QStringLiteral("last_error")).toString().startsWith(QLatin1String("TLS: ")) ||
                lastJsonLine(*n).value(QStringLiteral("last_error")).toString().contains(QLatin1String("TLS: ")));
        QVERIFY(!hub->process->output().contains(QLatin1String("node registered")));
    }

    // The alternative to the hub's own TLS: nginx terminates it in front of a plain hub on 127.0.0.1 (README,
    // "Running a public hub"). The node works through it, the hub's signed answers pass through unchanged, and the
    // hub counts the client's address from X-Forwarded-For because nginx is a --trusted-proxy.
    void nodeWorksBehindNginxTerminatingTls()
    {
        QVERIFY2(NginxRelay::binary().size() > 0, "nginx is a test dependency (installer/install-deps-debian.sh)");
        QString why;
        auto hub = startHub(m_dir.filePath(QStringLiteral("hub-behind-nginx")),
                            {QStringLiteral("--trusted-proxy"), QStringLiteral("127.0.0.1"),
                             QStringLiteral("--registration-work-bits"), QStringLiteral("8")},
                            &why);
        QVERIFY2(hub, qPrintable(why));
        const PemPair pem = m_certs->leaf(QStringLiteral("nginx"), {QStringLiteral("127.0.0.1")}, 30, 300);
        NginxRelay nginx;
        const QString problem = nginx.startTlsProxy(hub->url, pem.certificateFile, pem.keyFile);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY(nginx.url().startsWith(QLatin1String("https://")));
        auto n = node(nginx.url(), m_certs->caFile());
        QVERIFY(n);
        QTRY_VERIFY_WITH_TIMEOUT(lastJsonLine(*n).value(QStringLiteral("state")).toString() == QLatin1String("idle") &&
                                     !lastJsonLine(*n).value(QStringLiteral("node_id")).toString().isEmpty(),
                                 60'000);
        QVERIFY(hub->process->errors().contains(QLatin1String("node registered")));
        QVERIFY(nginx.accessLog().contains(QLatin1String("/v1/nodes/register")));
    }

    // Files that are no certificate or key stop the hub at start with a clear message (exit status 1), not a hub
    // that would fail every handshake.
    void unreadableTlsFilesStopTheHubWithAReason()
    {
        const PemPair good = m_certs->leaf(QStringLiteral("for-mismatch"), {QStringLiteral("127.0.0.1")}, 30, 400);
        QFile junk(m_dir.filePath(QStringLiteral("junk.pem")));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write("-----BEGIN NOTHING-----\n");
        junk.close();
        for (const auto &[certificate, key, expected] :
             {std::tuple{junk.fileName(), good.keyFile, QStringLiteral("holds no PEM certificate")},
              std::tuple{good.certificateFile, junk.fileName(), QStringLiteral("holds no PEM private key")},
              std::tuple{m_dir.filePath(QStringLiteral("missing.pem")), good.keyFile,
                         QStringLiteral("cannot read the certificate")}}) {
            ChildProcess hub(programPath(QStringLiteral("cohort-hub")),
                             {QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--data-dir"),
                              m_dir.filePath(QStringLiteral("bad-tls")), QStringLiteral("--tls-certificate"),
                              certificate, QStringLiteral("--tls-key"), key});
            QVERIFY(hub.start());
            QVERIFY(hub.process().waitForFinished(30'000));
            QCOMPARE(hub.process().exitCode(), 1);
            QVERIFY2(hub.errors().contains(expected), qPrintable(hub.errors()));
        }
    }

    // certbot renews in place: the hub serves the new certificate to new connections without a restart.
    void renewedCertificateIsServedWithoutARestart()
    {
        PemPair pem = m_certs->leaf(QStringLiteral("renewing"), {QStringLiteral("127.0.0.1")}, 30, 200);
        auto hub = tlsHub(pem, {QStringLiteral("--tls-check-seconds"), QStringLiteral("1")});
        QVERIFY(hub);
        QCOMPARE(servedSerial(hub->url), QByteArray("c8"));
        const PemPair renewed = m_certs->leaf(QStringLiteral("renewed"), {QStringLiteral("127.0.0.1")}, 60, 201);
        for (const auto &[from, to] :
             {std::pair{renewed.certificateFile, pem.certificateFile}, std::pair{renewed.keyFile, pem.keyFile}}) {
            QFile::remove(to);
            QVERIFY(QFile::copy(from, to));
        }
        QTRY_COMPARE_WITH_TIMEOUT(servedSerial(hub->url), QByteArray("c9"), 20'000);
        // A renewal that does not load keeps the working certificate.
        QFile broken(pem.certificateFile);
        QVERIFY(broken.open(QIODevice::WriteOnly | QIODevice::Truncate));
        broken.write("not a certificate");
        broken.close();
        QVERIFY(hub->process->waitForError(QStringLiteral("keeping the certificate in use"), 20'000));
        QCOMPARE(servedSerial(hub->url), QByteArray("c9"));
    }
};

QTEST_GUILESS_MAIN(HubTlsTest)
#include "tst_hub_tls.moc"
