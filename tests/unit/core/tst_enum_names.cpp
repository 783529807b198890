// The wire names of the engine's enums come from their Q_ENUM keys (core/EnumNames.h). They travel in heartbeats,
// the control API, /metrics and cohortd's console, so each one is pinned here to its golden text: renaming an
// enumerator must fail this test, not silently change what a hub or a script reads. Reading a name back is strict.
#include "core/DoctorReport.h"
#include "core/DownloadProgress.h"
#include "core/EngineEvent.h"
#include "core/EnumNames.h"
#include "core/NodeState.h"
#include "core/Scheduler.h"

#include <QMetaEnum>
#include <QTest>

using namespace cohort;

class TestEnumNames : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void nodeStatesArePinned()
    {
        const QStringList expected{
            QStringLiteral("starting"),  QStringLiteral("connecting"),  QStringLiteral("idle"),
            QStringLiteral("working"),   QStringLiteral("downloading"), QStringLiteral("syncing"),
            QStringLiteral("throttled"), QStringLiteral("paused"),      QStringLiteral("offline"),
            QStringLiteral("error"),     QStringLiteral("stopping")};
        for (int i = 0; i < expected.size(); ++i) {
            QCOMPARE(nodeStateName(NodeState(i)), expected[i]);
            bool ok = false;
            QCOMPARE(nodeStateFromName(expected[i], &ok), NodeState(i));
            QVERIFY(ok);
        }
        QCOMPARE(nodeStateName(NodeState(99)), QStringLiteral("unknown")); // a cast from a bad integer
    }

    void pauseReasonsArePinned()
    {
        const QList<QPair<PauseReason, QString>> expected{
            {PauseReason::None, QStringLiteral("none")},
            {PauseReason::User, QStringLiteral("user")},
            {PauseReason::Snoozed, QStringLiteral("snoozed")},
            {PauseReason::NotIdle, QStringLiteral("not-idle")},
            {PauseReason::OutsideSchedule, QStringLiteral("outside-schedule")},
            {PauseReason::OnBattery, QStringLiteral("on-battery")},
            {PauseReason::TooHot, QStringLiteral("too-hot")},
            {PauseReason::PowerCap, QStringLiteral("power-cap")},
            {PauseReason::DiskFull, QStringLiteral("disk-full")},
            {PauseReason::ForegroundApp, QStringLiteral("foreground-app")},
        };
        for (const auto &[reason, name] : expected) {
            QCOMPARE(pauseReasonName(reason), name);
            QCOMPARE(enumFromName<PauseReason>(name), std::optional(reason));
        }
    }

    void otherWireEnumsArePinned()
    {
        QCOMPARE(enumName(HubLink::NotStarted), QStringLiteral("not-started"));
        QCOMPARE(enumName(HubLink::Lost), QStringLiteral("lost"));
        QCOMPARE(runModeName(RunMode::Run), QStringLiteral("run"));
        QCOMPARE(runModeName(RunMode::Throttle), QStringLiteral("throttle"));
        QCOMPARE(runModeName(RunMode::Pause), QStringLiteral("pause"));
        QCOMPARE(doctorOutcomeName(DoctorOutcome::Ok), QStringLiteral("ok"));
        QCOMPARE(doctorOutcomeName(DoctorOutcome::Warning), QStringLiteral("warning"));
        QCOMPARE(doctorOutcomeName(DoctorOutcome::Failed), QStringLiteral("failed"));
        QCOMPARE(doctorOutcomeName(DoctorOutcome::Skipped), QStringLiteral("skipped"));
        QCOMPARE(EngineEvent::severityName(EngineEvent::Severity::Info), QStringLiteral("info"));
        QCOMPARE(EngineEvent::severityName(EngineEvent::Severity::Warning), QStringLiteral("warning"));
        QCOMPARE(EngineEvent::severityName(EngineEvent::Severity::Error), QStringLiteral("error"));
        // The event categories as the control API, cohortd's lines and the Activity log's saved filter write them.
        const QStringList categories{
            QStringLiteral("lifecycle"),  QStringLiteral("hub"),      QStringLiteral("task"),
            QStringLiteral("checkpoint"), QStringLiteral("rollouts"), QStringLiteral("compute"),
            QStringLiteral("gpu"),        QStringLiteral("schedule"), QStringLiteral("diloco"),
            QStringLiteral("earnings"),   QStringLiteral("settings"), QStringLiteral("update"),
            QStringLiteral("control")};
        QCOMPARE(QMetaEnum::fromType<EventCategory>().keyCount(), categories.size()); // a new one gets its name here
        for (int i = 0; i < categories.size(); ++i)
            QCOMPARE(EngineEvent::categoryName(EventCategory(i)), categories[i]);
        QCOMPARE(
            EngineEvent::info(EventCategory::Diloco, QStringLiteral("x")).toJson().value(QStringLiteral("category")),
            QStringLiteral("diloco"));
        using Phase = DownloadProgress::Phase;
        const QStringList phases{QStringLiteral("none"),   QStringLiteral("preparing"),  QStringLiteral("downloading"),
                                 QStringLiteral("paused"), QStringLiteral("assembling"), QStringLiteral("done"),
                                 QStringLiteral("failed")};
        for (int i = 0; i < phases.size(); ++i)
            QCOMPARE(DownloadProgress::phaseName(Phase(i)), phases[i]);
    }

    // A name read back (a doctor report from another process, a state in a control-API answer) must be exactly one
    // that enumName() writes: other casing, the C++ key itself, flag syntax and strangers are refused.
    void readingBackIsStrict_data()
    {
        QTest::addColumn<QString>("name");
        for (const char *bad :
             {"", "-", "--", "Idle", "IDLE", "idle ", " idle", "on_battery", "onBattery", "OnBattery", "on--battery",
              "on-battery-", "-on-battery", "idle|paused", "Idle|Paused", "0", "10", "unknown", "ïdle"})
            QTest::newRow(bad[0] ? bad : "(empty)") << QString::fromUtf8(bad);
    }
    void readingBackIsStrict()
    {
        QFETCH(QString, name);
        QCOMPARE(enumFromName<NodeState>(name), std::nullopt);
        QCOMPARE(enumFromName<PauseReason>(name), std::nullopt);
        DoctorOutcome untouched = DoctorOutcome::Skipped;
        QVERIFY(!doctorOutcomeFromName(name, &untouched));
        QCOMPARE(untouched, DoctorOutcome::Skipped);
        bool ok = true;
        nodeStateFromName(name, &ok);
        QVERIFY(!ok);
    }

    // The titles people read are translatable (they stayed English in the German dialog before).
    void stateTitlesAreTexts()
    {
        QCOMPARE(nodeStateTitle(NodeState::Idle), QStringLiteral("Idle"));
        QCOMPARE(nodeStateTitle(NodeState::Downloading), QStringLiteral("Downloading"));
    }
};

QTEST_GUILESS_MAIN(TestEnumNames)
#include "tst_enum_names.moc"
