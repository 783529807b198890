#include "NginxRelay.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QFileInfo>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>

#ifdef Q_OS_UNIX
#  include <unistd.h>
#endif

namespace cohort::test {

QString NginxRelay::binary()
{
    for (const char *candidate : {"/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"})
        if (QFileInfo(QString::fromLatin1(candidate)).isExecutable())
            return QString::fromLatin1(candidate);
    return {};
}

QString NginxRelay::start(const QString &root)
{
    return startWith(QStringLiteral("    root %1;\n").arg(root));
}

QString NginxRelay::startTlsProxy(const QString &upstream, const QString &certificateFile, const QString &keyFile)
{
    m_tls = true;
    return startWith(
        QStringLiteral("    ssl_certificate %1;\n    ssl_certificate_key %2;\n"
                       "    location / {\n      proxy_pass %3;\n      proxy_http_version 1.1;\n"
                       "      proxy_set_header Connection \"\";\n      proxy_set_header Host $host;\n"
                       "      proxy_set_header X-Forwarded-For $remote_addr;\n      proxy_buffering off;\n    }\n")
            .arg(certificateFile, keyFile, upstream));
}

QString NginxRelay::startWith(const QString &server)
{
    {
        QTcpServer probe; // a free port, released just before nginx binds it
        if (!probe.listen(QHostAddress::LocalHost))
            return QStringLiteral("no free port");
        m_port = probe.serverPort();
    }
    const QString config = m_dir.filePath(QStringLiteral("nginx.conf"));
    QFile f(config);
    if (!f.open(QIODevice::WriteOnly))
        return QStringLiteral("cannot write the nginx config");
    const QString d = m_dir.path();
    QString user;
#ifdef Q_OS_UNIX
    if (::geteuid() == 0)
        user = QStringLiteral("user root;\n"); // workers would drop to "nobody", who cannot read a private temp dir
#endif
    f.write((user +
             QStringLiteral(
                 "daemon off;\nworker_processes 1;\npid %1/nginx.pid;\nerror_log %1/error.log;\n"
                 "events { worker_connections 256; }\n"
                 "http {\n  access_log %1/access.log;\n  client_body_temp_path %1/body;\n  proxy_temp_path %1/proxy;\n"
                 "  fastcgi_temp_path %1/fastcgi;\n  uwsgi_temp_path %1/uwsgi;\n  scgi_temp_path %1/scgi;\n"
                 "  sendfile on;\n  types { application/json json; }\n  default_type application/octet-stream;\n"
                 "  server {\n    listen 127.0.0.1:%2%3;\n%4  }\n}\n")
                 .arg(d)
                 .arg(m_port)
                 .arg(m_tls ? QStringLiteral(" ssl") : QString(), server))
                .toUtf8());
    f.close();
    m_process.start(binary(), {QStringLiteral("-c"), config, QStringLiteral("-p"), d});
    if (!m_process.waitForStarted(5000))
        return QStringLiteral("nginx did not start: ") + m_process.errorString();
    // Ready when it accepts connections.
    QDeadlineTimer deadline(10'000);
    while (!deadline.hasExpired()) {
        QTcpSocket s;
        s.connectToHost(QHostAddress::LocalHost, m_port);
        if (s.waitForConnected(200))
            return {};
        if (m_process.state() == QProcess::NotRunning)
            return QStringLiteral("nginx exited: ") + QString::fromUtf8(m_process.readAllStandardError());
    }
    return QStringLiteral("nginx did not accept connections");
}

QString NginxRelay::accessLog() const
{
    QFile f(m_dir.filePath(QStringLiteral("access.log")));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

NginxRelay::~NginxRelay()
{
    if (m_process.state() != QProcess::NotRunning) {
        m_process.terminate();
        if (!m_process.waitForFinished(5000))
            m_process.kill();
        m_process.waitForFinished(2000);
    }
}

} // namespace cohort::test
