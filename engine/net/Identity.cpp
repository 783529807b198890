#include "net/Identity.h"

#include "core/JsonReader.h"
#include "core/Logging.h"
#include "core/Sha256.h"
#include "net/Ed25519.h"
#include "platform/FilePermissions.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonDocument>

namespace cohort {

namespace {
constexpr qint64 kMaxKeyFileBytes = 4096;

Status writeKeyFile(const QString &path, const ed25519::KeyPair &kp)
{
    const QJsonObject json{
        {QStringLiteral("format"), QStringLiteral("cohort-ed25519-v1")},
        {QStringLiteral("public_key"), QString::fromLatin1(kp.publicKey.toBase64())},
        {QStringLiteral("secret_key"), QString::fromLatin1(kp.secretKey.toBase64())},
        {QStringLiteral("created"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)},
    };
    return writeOwnerOnlyFile(path, QJsonDocument(json).toJson());
}
} // namespace

Expected<Identity> Identity::loadOrCreate(const QString &directory, const QString &name)
{
    if (!ed25519::initialize())
        return fail(QStringLiteral("libsodium failed to initialise"));
    const QString path = QDir(directory).filePath(name + QStringLiteral(".key"));
    if (QFile::exists(path))
        return load(path);

    if (!QDir().mkpath(directory))
        return fail(QStringLiteral("cannot create the identity folder %1").arg(directory));
    QFile::setPermissions(directory, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    const ed25519::KeyPair kp = ed25519::generate();
    if (Status written = writeKeyFile(path, kp); !written)
        return fail(written.error());
    qCInfo(lcNet) << "created a new identity" << path;
    auto loaded = load(path);
    if (loaded)
        loaded->m_created = true;
    return loaded;
}

Expected<Identity> Identity::load(const QString &filePath)
{
    QFile file(filePath);
    if (!file.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot read the identity file %1: %2").arg(filePath, file.errorString()));
    if (file.size() > kMaxKeyFileBytes)
        return fail(
            QStringLiteral("the identity file %1 is too large to be a key (%2 bytes)").arg(filePath).arg(file.size()));
    const auto damaged = [&filePath](const QString &why) {
        return fail(QStringLiteral("the identity file %1 is damaged (%2). Move it away to create a new identity; "
                                   "earnings credited to the old one stay with the old key.")
                        .arg(filePath, why));
    };
    auto json = parseJsonObject(file.readAll(), kMaxKeyFileBytes);
    if (!json)
        return damaged(json.error());
    JsonReader r(*json);
    const QString format = r.string(QStringLiteral("format"), 64);
    const QByteArray pub = QByteArray::fromBase64(r.string(QStringLiteral("public_key"), 128).toLatin1());
    const QByteArray sec = QByteArray::fromBase64(r.string(QStringLiteral("secret_key"), 256).toLatin1());
    if (!r.ok())
        return damaged(r.error());
    if (format != QLatin1String("cohort-ed25519-v1"))
        return damaged(QStringLiteral("unknown format '%1'").arg(format));
    if (pub.size() != ed25519::kPublicKeyBytes || sec.size() != ed25519::kSecretKeyBytes ||
        ed25519::publicKeyOf(sec) != pub)
        return damaged(QStringLiteral("the key pair is inconsistent"));
    // A key that cannot sign-and-verify is as good as lost: check once at load.
    const QByteArray probe = QByteArrayLiteral("cohort identity self-test");
    if (!ed25519::verify(probe, ed25519::sign(probe, sec), pub))
        return damaged(QStringLiteral("the key pair does not verify"));
    if (!isOwnerOnly(filePath)) {
        qCWarning(lcNet) << "identity file" << filePath << "was readable by others; restricting it";
        (void)restrictToOwner(filePath);
    }
    Identity id;
    id.m_publicKey = pub;
    id.m_secretKey = sec;
    id.m_filePath = filePath;
    return id;
}

QString Identity::fingerprint() const
{
    return ed25519::fingerprint(m_publicKey);
}

QByteArray Identity::sign(const QByteArray &message) const
{
    return ed25519::sign(message, m_secretKey);
}

QString Identity::nodeIdFor(const QByteArray &publicKey)
{
    return QStringLiteral("n-") + QString::fromLatin1(Sha256::hashHex(publicKey).left(20));
}

} // namespace cohort
