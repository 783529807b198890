#pragma once
// Which task the node works on, a part the Engine owns (engine thread): the task wished for (settings, command line,
// the last run's engine bundle), the task joined once the hub's catalogue lists it and this version can run it, and
// the automatic choice (the first task of the catalogue this computer can run, made once). It only decides and says
// why; the engine starts and stops the work for a task on its signals.
#include "core/EngineEvent.h"
#include "core/TaskInfo.h"

#include <QList>
#include <QObject>
#include <QString>

namespace cohort {

struct EngineSnapshot;

// The engine as the membership sees it. Read at each decision; never cached.
class TaskMembershipHost {
public:
    virtual const QList<TaskInfo> &catalogue() const = 0; // the hub's tasks; empty until they arrive
    virtual const EngineSnapshot &machine() const = 0;    // what the automatic choice weighs (core/TaskFit)

protected:
    ~TaskMembershipHost() = default;
};

class TaskMembership : public QObject {
    Q_OBJECT
public:
    // `wished`: the task to join once the catalogue lists it (empty: none); `chooseAutomatically`: join the first
    // runnable task of the catalogue if nothing is wished for or joined by then.
    TaskMembership(TaskMembershipHost &host, QString wished, bool chooseAutomatically, QObject *parent = nullptr);

    QString wished() const { return m_wished; } // what the next start joins again (the engine bundle keeps it)
    QString joined() const { return m_joined; }
    const TaskInfo *find(const QString &taskId) const; // in the catalogue; nullptr if it lists no such task
    const TaskInfo *joinedTask() const { return find(m_joined); }

    // The last run's task, from the engine bundle: it replaces a wish only when it names one.
    void restoreWish(const QString &taskId);
    // Joins now if the catalogue lists the task and this version can run it, else keeps the wish (and says why
    // once the catalogue is here).
    void join(const QString &taskId);
    void leave();               // and forgets the wish: the next start joins nothing
    void chooseAutomatically(); // now, or when the catalogue arrives; a wish or a joined task wins
    void catalogueArrived();    // the wish or the automatic choice, now that the tasks are known

Q_SIGNALS:
    void eventOccurred(const cohort::EngineEvent &event);
    void taskJoined(const QString &taskId); // after the event that says so: what the work says follows it
    void taskLeft(const QString &taskId);   // before the event that says so: the left task's last figures come first

private:
    void applyAutomaticChoice(); // if one is pending and the catalogue is here

    TaskMembershipHost &m_host;
    QString m_wished;
    QString m_joined;
    bool m_chooseAutomatically;
};

} // namespace cohort
