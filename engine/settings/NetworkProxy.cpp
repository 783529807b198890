#include "settings/NetworkProxy.h"

#include "core/Logging.h"

#include <QHostAddress>
#include <QNetworkProxyFactory>
#include <QUrl>

namespace cohort {

namespace {
class CohortProxyFactory : public QNetworkProxyFactory {
public:
    CohortProxyFactory(ProxyMode mode, QNetworkProxy manual)
        : m_mode(mode),
          m_manual(std::move(manual))
    {}

    QList<QNetworkProxy> queryProxy(const QNetworkProxyQuery &query) override
    {
        // Listening sockets are never proxied (an HTTP proxy cannot listen for us), nor is this computer itself.
        if (query.queryType() == QNetworkProxyQuery::TcpServer || isLocal(query.peerHostName()))
            return {QNetworkProxy(QNetworkProxy::NoProxy)};
        switch (m_mode) {
        case ProxyMode::Manual: return {m_manual};
        case ProxyMode::System:
            return systemProxyForQuery(query); // environment (http_proxy, no_proxy) on Linux, WinINet on Windows
        case ProxyMode::None: break;
        }
        return {QNetworkProxy(QNetworkProxy::NoProxy)};
    }

private:
    static bool isLocal(const QString &host)
    {
        if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
            return true;
        const QHostAddress address(host);
        return !address.isNull() && address.isLoopback();
    }

    ProxyMode m_mode;
    QNetworkProxy m_manual;
};
} // namespace

void applyNetworkProxy(const SettingsValues &values)
{
    QNetworkProxy manual(QNetworkProxy::NoProxy);
    ProxyMode mode = values.proxyMode;
    if (mode == ProxyMode::Manual) {
        QString host;
        quint16 port = 0;
        if (Settings::parseProxy(values.proxy, &host, &port)) {
            manual = QNetworkProxy(QNetworkProxy::HttpProxy, host, port);
        } else {
            qCWarning(lcSettings) << "proxy" << values.proxy << "is not host:port; connecting directly";
            mode = ProxyMode::None;
        }
    }
    // Takes ownership and replaces (deletes) the previous factory.
    QNetworkProxyFactory::setApplicationProxyFactory(new CohortProxyFactory(mode, manual));
    qCInfo(lcSettings) << "network proxy:" << Settings::proxyModeName(mode)
                       << (mode == ProxyMode::Manual ? values.proxy : QString());
}

QNetworkProxy proxyFor(const QUrl &url)
{
    const QList<QNetworkProxy> proxies = QNetworkProxyFactory::proxyForQuery(QNetworkProxyQuery(url));
    return proxies.isEmpty() ? QNetworkProxy(QNetworkProxy::NoProxy) : proxies.first();
}

} // namespace cohort
