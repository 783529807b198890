// The proxy setting: how a typed proxy is read, what a stored one that no longer parses falls back to, and what
// the process's connections get once it is applied (settings/NetworkProxy).
#include "settings/NetworkProxy.h"
#include "settings/Settings.h"

#include <QNetworkProxyFactory>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace cohort;

class TestNetworkProxy : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    QString file(const QString &name) { return m_dir.filePath(name); }

private Q_SLOTS:
    void proxyParsing()
    {
        QString host;
        quint16 port = 0;
        QVERIFY(Settings::parseProxy(QStringLiteral("proxy.example.org:3128"), &host, &port));
        QCOMPARE(host, QStringLiteral("proxy.example.org"));
        QCOMPARE(port, quint16(3128));
        QVERIFY(Settings::parseProxy(QStringLiteral("[2001:db8::1]:8080"), &host, &port));
        QCOMPARE(host, QStringLiteral("2001:db8::1"));
        QCOMPARE(port, quint16(8080));
        QString why;
        QVERIFY(!Settings::parseProxy(QStringLiteral("proxy:http"), &host, &port, &why));
        QVERIFY(!why.isEmpty());
        // A stored manual proxy that no longer parses: connect directly, with a warning, rather than not at all.
        const QString path = file(QStringLiteral("badproxy.ini"));
        {
            QSettings edited(path, QSettings::IniFormat);
            edited.setValue(QStringLiteral("meta/version"), Settings::kCurrentVersion);
            edited.setValue(QStringLiteral("network/proxyMode"), QStringLiteral("manual"));
            edited.setValue(QStringLiteral("network/proxy"), QStringLiteral("nohost"));
            edited.setValue(QStringLiteral("energy/pricePerKWh"), QStringLiteral("cheap"));
            edited.setValue(QStringLiteral("energy/currency"), QStringLiteral("EUR"));
            edited.setValue(QStringLiteral("ui/notifications"), QStringLiteral("sometimes"));
            edited.setValue(QStringLiteral("node/name"), QStringLiteral("kept"));
        }
        Settings s(path);
        QCOMPARE(s.values().proxyMode, ProxyMode::None);
        QVERIFY(s.values().proxy.isEmpty());
        QCOMPARE(s.values().pricePerKWh, 0.0);
        QVERIFY(s.values().currency.isEmpty());
        QCOMPARE(s.values().notifications, NotifyLevel::ErrorsAndMilestones);
        QCOMPARE(s.values().nodeName, QStringLiteral("kept"));
    }

    // The proxy setting applied to the process: what connections to a remote hub and to this computer get.
    void proxyAppliesToTheProcess()
    {
        const QUrl remote(QStringLiteral("https://hub.example.org/v1/tasks"));
        const QUrl local(QStringLiteral("http://127.0.0.1:8420/v1/tasks"));
        SettingsValues v;
        v.proxyMode = ProxyMode::Manual;
        v.proxy = QStringLiteral("proxy.example.org:3128");
        applyNetworkProxy(v);
        QCOMPARE(proxyFor(remote).type(), QNetworkProxy::HttpProxy);
        QCOMPARE(proxyFor(remote).hostName(), QStringLiteral("proxy.example.org"));
        QCOMPARE(proxyFor(remote).port(), quint16(3128));
        QCOMPARE(proxyFor(local).type(), QNetworkProxy::NoProxy); // the embedded hub is reached directly
        QCOMPARE(proxyFor(QUrl(QStringLiteral("http://localhost:8420/"))).type(), QNetworkProxy::NoProxy);
        // Listening is never proxied: an HTTP proxy cannot listen, and QTcpServer would fail to start.
        const auto server = QNetworkProxyFactory::proxyForQuery(
            QNetworkProxyQuery(quint16(0), QString(), QNetworkProxyQuery::TcpServer));
        QCOMPARE(server.value(0).type(), QNetworkProxy::NoProxy);
        // A raw socket to a remote host (checkpoint downloads use QTcpSocket) gets the proxy too.
        const auto socket =
            QNetworkProxyFactory::proxyForQuery(QNetworkProxyQuery(QStringLiteral("relay.example.org"), 443));
        QCOMPARE(socket.value(0).type(), QNetworkProxy::HttpProxy);

        v.proxyMode = ProxyMode::None;
        applyNetworkProxy(v);
        QCOMPARE(proxyFor(remote).type(), QNetworkProxy::NoProxy);

        // System: the environment's proxy on Linux (http_proxy / https_proxy), with its exceptions.
        qputenv("https_proxy", "http://envproxy.example.org:8080");
        qputenv("http_proxy", "http://envproxy.example.org:8080");
        v.proxyMode = ProxyMode::System;
        applyNetworkProxy(v);
#if defined(Q_OS_LINUX)
        QCOMPARE(proxyFor(remote).hostName(), QStringLiteral("envproxy.example.org"));
        QCOMPARE(proxyFor(remote).port(), quint16(8080));
#endif
        QCOMPARE(proxyFor(local).type(), QNetworkProxy::NoProxy);
        qunsetenv("https_proxy");
        qunsetenv("http_proxy");
        applyNetworkProxy(SettingsValues{});
    }
};

QTEST_GUILESS_MAIN(TestNetworkProxy)
#include "tst_network_proxy.moc"
