// Update notices (core/ClientRelease): version comparison, the strict reading of a hub's "client" object (hostile
// input included), the hub's verdict on a node's version and what a snapshot says about it.
#include "core/ClientRelease.h"
#include "core/EngineSnapshot.h"

#include <QJsonArray>
#include <QTest>

using namespace cohort;

class TestClientRelease : public QObject {
    Q_OBJECT

    static QJsonObject client(const QString &latest, const QString &minimum = {}, const QString &url = {})
    {
        return ClientRelease{latest, minimum, url}.toJson();
    }

private Q_SLOTS:
    void versionsAreDottedNumbers_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::newRow("three") << "0.2.0" << true;
        QTest::newRow("one") << "7" << true;
        QTest::newRow("four") << "1.2.3.4" << true;
        QTest::newRow("six digits") << "123456.0" << true;
        QTest::newRow("five parts") << "1.2.3.4.5" << false;
        QTest::newRow("seven digits") << "1234567.0" << false;
        QTest::newRow("empty") << "" << false;
        QTest::newRow("empty part") << "1..2" << false;
        QTest::newRow("trailing dot") << "1.2." << false;
        QTest::newRow("leading dot") << ".1" << false;
        QTest::newRow("suffix") << "0.2.0-beta" << false;
        QTest::newRow("v prefix") << "v0.2.0" << false;
        QTest::newRow("sign") << "+1.0" << false;
        QTest::newRow("minus") << "-1.0" << false;
        QTest::newRow("blank") << " 0.2.0" << false;
        QTest::newRow("newline") << "0.2.0\n" << false;
        QTest::newRow("arabic-indic digits") << QString::fromUtf8("\u0661.\u0662") << false;
        QTest::newRow("fullwidth digits") << QString::fromUtf8("\uff11.\uff10") << false;
        QTest::newRow("too long") << QString(33, QLatin1Char('1')) << false;
    }
    void versionsAreDottedNumbers()
    {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        QCOMPARE(isVersion(text), valid);
    }

    void versionsCompareNumberByNumber_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<int>("order");
        QTest::newRow("equal") << "0.2.0"
                               << "0.2.0" << 0;
        QTest::newRow("missing part is zero") << "0.2"
                                              << "0.2.0" << 0;
        QTest::newRow("numeric, not text") << "0.10.0"
                                           << "0.9.2" << 1;
        QTest::newRow("major wins") << "1.0"
                                    << "0.99.99" << 1;
        QTest::newRow("patch") << "0.1.0"
                               << "0.1.1" << -1;
        QTest::newRow("longer newer") << "0.1.0.1"
                                      << "0.1" << 1;
        QTest::newRow("leading zeros") << "0.010"
                                       << "0.10" << 0;
        QTest::newRow("big") << "99.0.0"
                             << "0.1.0" << 1;
    }
    void versionsCompareNumberByNumber()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(int, order);
        const std::optional<int> forward = compareVersions(a, b), backward = compareVersions(b, a);
        QVERIFY(forward && backward);
        QCOMPARE(*forward, order);
        QCOMPARE(*backward, -order); // antisymmetric
    }

    void notAVersionHasNoOrder()
    {
        QVERIFY(!compareVersions(QStringLiteral("0.2.0-rc1"), QStringLiteral("0.1.0")));
        QVERIFY(!compareVersions(QStringLiteral("0.1.0"), QStringLiteral("")));
    }

    void downloadLinksAreHttpOnly_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<bool>("allowed");
        QTest::newRow("https") << "https://cohort.example/download" << true;
        QTest::newRow("http with port and query") << "http://127.0.0.1:8080/get?v=0.3.0#linux" << true;
        QTest::newRow("upper-case scheme") << "HTTPS://cohort.example/" << true;
        QTest::newRow("javascript") << "javascript:alert(1)" << false;
        QTest::newRow("javascript with slashes") << "javascript://cohort.example/%0Aalert(1)" << false;
        QTest::newRow("file") << "file:///etc/passwd" << false;
        QTest::newRow("data") << "data:text/html,<script>alert(1)</script>" << false;
        QTest::newRow("ftp") << "ftp://cohort.example/cohort.tar.gz" << false;
        QTest::newRow("no host") << "https:///path" << false;
        QTest::newRow("no slashes") << "https:cohort.example" << false;
        QTest::newRow("relative") << "/download" << false;
        QTest::newRow("user info") << "https://cohort.example@evil.example/" << false;
        QTest::newRow("blank") << "https://cohort.example/a b" << false;
        QTest::newRow("newline") << "https://cohort.example/\nx" << false;
        QTest::newRow("quote breaks out of href") << "https://cohort.example/\"onmouseover=\"x" << false;
        QTest::newRow("angle brackets") << "https://cohort.example/<script>" << false;
        QTest::newRow("backslash") << "https://cohort.example\\@evil.example/" << false;
        QTest::newRow("non-ASCII host") << QString::fromUtf8("https://c\u043ehort.example/") << false;
        QTest::newRow("empty") << "" << false;
        QTest::newRow("too long") << QStringLiteral("https://cohort.example/") + QString(600, QLatin1Char('a'))
                                  << false;
    }
    void downloadLinksAreHttpOnly()
    {
        QFETCH(QString, url);
        QFETCH(bool, allowed);
        const QString problem = downloadUrlProblem(url);
        QVERIFY2(problem.isEmpty() == allowed, qPrintable(url + QStringLiteral(" -> ") + problem));
    }

    void aHubsClientObjectIsReadStrictly()
    {
        // Absent or null: nothing advertised (an older hub, or an operator who set nothing).
        QVERIFY(parseClientRelease(QJsonValue()).value().isEmpty());
        QVERIFY(parseClientRelease(QJsonValue(QJsonValue::Null)).value().isEmpty());
        auto good = parseClientRelease(
            client(QStringLiteral("0.3.0"), QStringLiteral("0.2.0"), QStringLiteral("https://cohort.example/")));
        QVERIFY2(good, qPrintable(good.error()));
        QCOMPARE(good->latest, QStringLiteral("0.3.0"));
        QCOMPARE(good->minimum, QStringLiteral("0.2.0"));
        QCOMPARE(good->downloadUrl, QStringLiteral("https://cohort.example/"));
        // A newer hub may say more: unknown fields are ignored.
        QJsonObject more = client(QStringLiteral("0.3.0"));
        more.insert(QStringLiteral("channel"), QStringLiteral("beta"));
        QVERIFY(parseClientRelease(more));
    }

    void hostileClientObjectsAreRefusedWhole_data()
    {
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("reason");
        const QString huge(10 * 1024 * 1024, QLatin1Char('9'));
        QTest::newRow("not an object") << QJsonValue(QStringLiteral("0.3.0")) << "not an object";
        QTest::newRow("array") << QJsonValue(QJsonArray{1, 2}) << "not an object";
        QTest::newRow("number version") << QJsonValue(QJsonObject{{QStringLiteral("latest"), 3}})
                                        << "latest is not text";
        QTest::newRow("10 MB version") << QJsonValue(QJsonObject{{QStringLiteral("latest"), huge}}) << "longer than 32";
        QTest::newRow("10 MB url") << QJsonValue(client(QStringLiteral("1.0"), {},
                                                        QStringLiteral("https://a.example/") + huge))
                                   << "longer than 512";
        QTest::newRow("javascript link") << QJsonValue(client(QStringLiteral("1.0"), {},
                                                              QStringLiteral("javascript:alert(1)")))
                                         << "download_url";
        QTest::newRow("file link") << QJsonValue(client(QStringLiteral("1.0"), {}, QStringLiteral("file:///home")))
                                   << "download_url";
        QTest::newRow("markup version") << QJsonValue(client(QStringLiteral("<b>1</b>"))) << "latest";
        QTest::newRow("minimum above latest")
            << QJsonValue(client(QStringLiteral("0.2.0"), QStringLiteral("0.3.0"))) << "newer than";
        QTest::newRow("link without version")
            << QJsonValue(client({}, {}, QStringLiteral("https://a.example/"))) << "without a version";
    }
    void hostileClientObjectsAreRefusedWhole()
    {
        QFETCH(QJsonValue, value);
        QFETCH(QString, reason);
        const auto parsed = parseClientRelease(value);
        QVERIFY(!parsed);
        QVERIFY2(parsed.error().contains(reason), qPrintable(parsed.error()));
        QVERIFY(parsed.error().size() < 300); // nothing of a huge value is repeated
    }

    void theHubRefusesVersionsBelowItsMinimum()
    {
        const ClientRelease none;
        QVERIFY(clientVersionRefusal(none, QString()).isEmpty()); // no minimum: every client, as before
        QVERIFY(clientVersionRefusal(none, QStringLiteral("0.0.1")).isEmpty());
        const ClientRelease release{QStringLiteral("0.3.0"), QStringLiteral("0.2.0"),
                                    QStringLiteral("https://cohort.example/")};
        QVERIFY(clientVersionRefusal(release, QStringLiteral("0.2.0")).isEmpty());
        QVERIFY(clientVersionRefusal(release, QStringLiteral("0.10")).isEmpty());
        const QString old = clientVersionRefusal(release, QStringLiteral("0.1.9"));
        QVERIFY(old.contains(QStringLiteral("0.2.0 or newer")) && old.contains(QStringLiteral("0.1.9")));
        QVERIFY(old.contains(QStringLiteral("https://cohort.example/")));
        QVERIFY(clientVersionRefusal(release, QString()).contains(QStringLiteral("does not say its version")));
        QVERIFY(clientVersionRefusal(release, QStringLiteral("9.9.9-dev")).contains(QStringLiteral("not a version")));
    }

    void theRunningVersionIsAssessed()
    {
        const ClientRelease newer{QStringLiteral("99.0.0"), {}, QStringLiteral("https://cohort.example/get")};
        const UpdateNotice update = assessUpdate(newer, QStringLiteral("0.1.0"));
        QVERIFY(update.available);
        QVERIFY(!update.belowMinimum);
        QCOMPARE(updateAvailableMessage(update),
                 QStringLiteral("Cohort 99.0.0 is available: https://cohort.example/get"));

        QVERIFY(!assessUpdate(ClientRelease{QStringLiteral("0.1.0"), {}, {}}, QStringLiteral("0.1.0"))
                     .available); // the same one
        QVERIFY(!assessUpdate(ClientRelease{QStringLiteral("0.0.9"), {}, {}}, QStringLiteral("0.1.0"))
                     .available); // an older one
        QVERIFY(assessUpdate(ClientRelease{}, QStringLiteral("0.1.0")).isEmpty());

        const ClientRelease required{QStringLiteral("99.0.0"), QStringLiteral("99.0.0"),
                                     QStringLiteral("https://cohort.example/get")};
        const UpdateNotice blocked = assessUpdate(required, QStringLiteral("0.1.0"));
        QVERIFY(blocked.belowMinimum);
        QCOMPARE(belowMinimumMessage(blocked),
                 QStringLiteral(
                     "This hub needs Cohort 99.0.0 or newer; you have 0.1.0. Download: https://cohort.example/get"));
        QVERIFY(!assessUpdate(ClientRelease{{}, QStringLiteral("0.1"), {}}, QStringLiteral("0.1.0")).belowMinimum);
        QVERIFY(belowMinimumMessage(assessUpdate(ClientRelease{{}, QStringLiteral("1.0"), {}}, QStringLiteral("0.1.0")))
                    .endsWith(QStringLiteral("Update Cohort to work with it again.")));
    }

    void theSnapshotCarriesTheNotice()
    {
        EngineSnapshot s;
        QVERIFY(s.toJson().value(QStringLiteral("update")).isNull()); // nothing advertised
        s.update = assessUpdate(
            ClientRelease{QStringLiteral("99.0.0"), QStringLiteral("0.1.0"), QStringLiteral("https://cohort.example/")},
            QStringLiteral("0.1.0"));
        const QJsonObject update = s.toJson().value(QStringLiteral("update")).toObject();
        QCOMPARE(update.value(QStringLiteral("latest")).toString(), QStringLiteral("99.0.0"));
        QCOMPARE(update.value(QStringLiteral("minimum")).toString(), QStringLiteral("0.1.0"));
        QCOMPARE(update.value(QStringLiteral("running")).toString(), QStringLiteral("0.1.0"));
        QCOMPARE(update.value(QStringLiteral("download_url")).toString(), QStringLiteral("https://cohort.example/"));
        QCOMPARE(update.value(QStringLiteral("available")).toBool(), true);
        QCOMPARE(update.value(QStringLiteral("below_minimum")).toBool(), false);
    }
};

QTEST_GUILESS_MAIN(TestClientRelease)
#include "tst_client_release.moc"
