#include "node/HubPins.h"

#include "core/JsonReader.h"
#include "core/Logging.h"
#include "net/Ed25519.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>

namespace cohort {

namespace {
QJsonObject readPins(const QString &path, QString *error)
{
    QFile f(path);
    if (!f.exists())
        return {};
    if (!f.open(QIODevice::ReadOnly)) {
        *error = f.errorString();
        return {};
    }
    auto json = parseJsonObject(f.readAll(), 1 << 20);
    if (!json) {
        *error = json.error();
        return {};
    }
    return *json;
}
} // namespace

HubPins::HubPins(QString filePath)
    : m_path(std::move(filePath))
{}

QByteArray HubPins::pinned(const QString &hubId) const
{
    QString error;
    return QByteArray::fromBase64(readPins(m_path, &error).value(hubId).toString().toLatin1());
}

Status HubPins::pinOrCheck(const QString &hubId, const QByteArray &publicKey)
{
    return write(hubId, publicKey, false);
}

Status HubPins::pin(const QString &hubId, const QByteArray &publicKey)
{
    return write(hubId, publicKey, true);
}

Status HubPins::write(const QString &hubId, const QByteArray &publicKey, bool replace)
{
    if (publicKey.size() != ed25519::kPublicKeyBytes)
        return fail(QStringLiteral("the hub sent no valid key"));
    QString error;
    QJsonObject pins = readPins(m_path, &error);
    if (!error.isEmpty())
        return fail(QStringLiteral("the list of known hubs %1 is damaged (%2); move it away to trust hubs afresh")
                        .arg(m_path, error));
    const QByteArray known = QByteArray::fromBase64(pins.value(hubId).toString().toLatin1());
    if (known == publicKey)
        return {};
    if (!known.isEmpty() && !replace) {
        return fail(
            QStringLiteral("the hub %1 presented a different key (%2) than when this node first registered (%3). "
                           "If its operator really replaced the key, remove the entry from %4.")
                .arg(hubId, ed25519::fingerprint(publicKey), ed25519::fingerprint(known), m_path));
    }
    pins.insert(hubId, QString::fromLatin1(publicKey.toBase64()));
    QDir().mkpath(QFileInfo(m_path).absolutePath());
    QSaveFile file(m_path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(QStringLiteral("cannot write %1: %2").arg(m_path, file.errorString()));
    file.write(QJsonDocument(pins).toJson());
    if (!file.commit())
        return fail(QStringLiteral("cannot write %1: %2").arg(m_path, file.errorString()));
    qCInfo(lcNet) << "pinned the key of hub" << hubId << ed25519::fingerprint(publicKey);
    return {};
}

} // namespace cohort
