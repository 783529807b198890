#pragma once
// The tasks a hub offers. The default catalogue ships in resources; operators may pass their own file.
#include "core/TaskInfo.h"

namespace cohort {

class TaskCatalogue {
public:
    static Expected<TaskCatalogue> loadDefault();
    static Expected<TaskCatalogue> loadFile(const QString &path);
    static Expected<TaskCatalogue> fromJson(const QByteArray &json);

    const QList<TaskInfo> &tasks() const { return m_tasks; }
    const TaskInfo *find(const QString &id) const;
    // Where the hub's collectives master for a diloco task listens (known once it listens).
    void setDilocoMasterPort(const QString &id, quint16 port);
    void setDilocoMinRingSize(int size); // every DiLoCo task's (HubConfig::dilocoMinRingSize)
    QJsonObject toJson() const;

private:
    QList<TaskInfo> m_tasks;
};

} // namespace cohort
