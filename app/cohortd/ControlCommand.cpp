#include "ControlCommand.h"

#include "node/ControlApi.h"

#include <QJsonDocument>
#include <cstdio>

namespace cohort {

int runControlCommand(const QString &dataDir, const QString &command)
{
    QByteArray method = "POST";
    QString path;
    QJsonObject body;
    if (command == QLatin1String("status")) {
        method = "GET";
        path = QStringLiteral("/v1/status");
    } else if (command == QLatin1String("pause") || command == QLatin1String("resume") ||
               command == QLatin1String("pause-after-step")) {
        path = QStringLiteral("/v1/") + command;
    } else if (command.startsWith(QLatin1String("pause-gpu:")) || command.startsWith(QLatin1String("resume-gpu:"))) {
        const QString gpu = command.section(QLatin1Char(':'), 1);
        if (gpu.isEmpty()) {
            std::fprintf(stderr, "cohortd: --control %s needs a GPU's UUID (status lists them under compute_workers)\n",
                         qPrintable(command));
            return 2;
        }
        path = command.startsWith(QLatin1String("pause")) ? QStringLiteral("/v1/pause") : QStringLiteral("/v1/resume");
        body.insert(QStringLiteral("gpu"), gpu);
    } else if (command.startsWith(QLatin1String("snooze:"))) {
        bool ok = false;
        const int seconds = command.mid(7).toInt(&ok);
        if (!ok || seconds < 0) {
            std::fprintf(stderr, "cohortd: --control snooze:SECONDS needs a number of seconds (0 ends a snooze)\n");
            return 2;
        }
        path = QStringLiteral("/v1/snooze");
        body.insert(QStringLiteral("seconds"), seconds);
    } else {
        std::fprintf(stderr,
                     "cohortd: --control: unknown command '%s' (status, pause, resume, pause-after-step, "
                     "snooze:SECONDS, pause-gpu:UUID, resume-gpu:UUID)\n",
                     qPrintable(command));
        return 2;
    }
    auto endpoint = ControlEndpoint::fromDataDir(dataDir);
    if (!endpoint) {
        std::fprintf(stderr, "cohortd: %s\n", qPrintable(endpoint.error()));
        return 1;
    }
    auto answer = controlRequest(*endpoint, method, path, body);
    if (!answer) {
        std::fprintf(stderr, "cohortd: %s\n", qPrintable(answer.error()));
        return 1;
    }
    std::fprintf(stdout, "%s\n", QJsonDocument(*answer).toJson(QJsonDocument::Compact).constData());
    return 0;
}

} // namespace cohort
