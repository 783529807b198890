#include "node/Outbox.h"

#include "core/JsonReader.h"
#include "core/Logging.h"
#include "platform/FileSync.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSaveFile>
#include <QUuid>
#include <algorithm>

namespace cohort {

namespace {
const QRegularExpression &idPattern()
{
    static const QRegularExpression re(QStringLiteral("^s-[0-9a-f]{32}$"));
    return re;
}
} // namespace

QString Outbox::newSubmissionId()
{
    return QStringLiteral("s-") + QUuid::createUuid().toString(QUuid::Id128);
}

Status Outbox::put(const OutboxEntry &entry)
{
    if (!idPattern().match(entry.submissionId).hasMatch())
        return fail(QStringLiteral("outbox: '%1' is not a submission id").arg(entry.submissionId));
    if (!QDir().mkpath(m_dir))
        return fail(QStringLiteral("outbox: cannot create %1").arg(m_dir));
    QSaveFile file(QDir(m_dir).filePath(entry.submissionId + QStringLiteral(".json")));
    if (!file.open(QIODevice::WriteOnly))
        return fail(QStringLiteral("outbox: cannot write %1: %2").arg(file.fileName(), file.errorString()));
    // The task travels inside the file so the outbox needs no index.
    const QByteArray header = "{\"outbox_task\":\"" + entry.taskId.toUtf8() + "\",\"submission\":";
    file.write(header);
    file.write(entry.body);
    file.write("}\n");
    if (!syncToDisk(file)) // data on disk before the rename makes it visible
        qCWarning(lcEngine) << "outbox: could not flush" << file.fileName() << "to disk";
    if (!file.commit())
        return fail(QStringLiteral("outbox: cannot save %1: %2").arg(file.fileName(), file.errorString()));
    return {};
}

QList<OutboxEntry> Outbox::entries(const QString &taskId) const
{
    QList<QPair<QDateTime, OutboxEntry>> found;
    QDir dir(m_dir);
    for (const QFileInfo &info : dir.entryInfoList({QStringLiteral("s-*.json")}, QDir::Files)) {
        const QString id = info.completeBaseName();
        QFile file(info.filePath());
        QString problem;
        OutboxEntry entry;
        if (!idPattern().match(id).hasMatch()) {
            problem = QStringLiteral("bad file name");
        } else if (info.size() > (64 << 20)) {
            problem = QStringLiteral("too large");
        } else if (!file.open(QIODevice::ReadOnly)) {
            problem = file.errorString();
        } else {
            auto json = parseJsonObject(file.readAll(), 64 << 20);
            const QJsonObject submission = json ? json->value(QStringLiteral("submission")).toObject() : QJsonObject();
            if (!json)
                problem = json.error();
            else if (submission.value(QStringLiteral("submission_id")).toString() != id)
                problem = QStringLiteral("the content does not match the file name");
            else {
                entry.submissionId = id;
                entry.taskId = json->value(QStringLiteral("outbox_task")).toString();
                entry.body = QJsonDocument(submission).toJson(QJsonDocument::Compact);
            }
        }
        if (!problem.isEmpty()) {
            file.close();
            qCWarning(lcEngine) << "outbox: moving damaged batch" << info.fileName() << "aside:" << problem;
            dir.mkpath(QStringLiteral("damaged"));
            QFile::rename(info.filePath(), dir.filePath(QStringLiteral("damaged/") + info.fileName()));
            continue;
        }
        if (taskId.isEmpty() || entry.taskId == taskId)
            found.append({info.lastModified(), entry});
    }
    std::stable_sort(found.begin(), found.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    QList<OutboxEntry> out;
    for (const auto &[when, entry] : found)
        out.append(entry);
    return out;
}

Status Outbox::remove(const QString &submissionId)
{
    if (!idPattern().match(submissionId).hasMatch())
        return fail(QStringLiteral("outbox: '%1' is not a submission id").arg(submissionId));
    const QString path = QDir(m_dir).filePath(submissionId + QStringLiteral(".json"));
    if (QFile::exists(path) && !QFile::remove(path))
        return fail(QStringLiteral("outbox: cannot delete %1").arg(path));
    return {};
}

int Outbox::count() const
{
    return int(QDir(m_dir).entryList({QStringLiteral("s-*.json")}, QDir::Files).size());
}

} // namespace cohort
