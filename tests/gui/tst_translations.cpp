// The languages offered in Settings: the compiled translations are embedded and complete, and the texts the engine
// builds for people (the state's reason, task-fit verdicts, event categories, the compute plan's note, the settings'
// messages) follow the app's translator, in English without one (as in cohortd).
#include "SampleSnapshots.h"
#include "core/ComputePlan.h"
#include "core/NodeState.h"
#include "core/TaskFit.h"
#include "settings/Settings.h"

#include <QFile>
#include <QTranslator>
#include <QtTest>

using namespace cohort;

class TestTranslations : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // i18n scaffolding: the compiled translations are embedded and load.
    void translationsAreEmbedded()
    {
        for (const char *language : {"de", "fr"}) {
            QTranslator translator;
            QVERIFY2(translator.load(QStringLiteral(":/i18n/cohort_") + QLatin1String(language)), language);
            QCOMPARE(translator.language().left(2), QString::fromLatin1(language));
        }
    }

    // The languages offered in Settings are really there: strings from every part of the window come out translated,
    // and a .ts file has no entry left unfinished (checked on the source files, which the build compiles).
    void translationsAreComplete()
    {
        const std::pair<const char *, const char *> samples[] = {
            {"cohort::TrayIcon", "Open Cohort"},     {"cohort::TrayIcon", "Pause after this batch"},
            {"cohort::MainWindow", "Dashboard"},     {"cohort::SettingsDialog", "Cohort Settings"},
            {"cohort::EarningsPage", "Last 7 days"}, {"cohort::TasksPage", "Kind"},
            {"cohort::DashboardPage", "This node"},  {"cohort::ActivityModel", "Warning"}};
        for (const char *language : {"de", "fr"}) {
            QTranslator translator;
            QVERIFY(translator.load(QStringLiteral(":/i18n/cohort_") + QLatin1String(language)));
            for (const auto &[context, source] : samples) {
                const QString translated = translator.translate(context, source);
                QVERIFY2(!translated.isEmpty() && translated != QLatin1String(source),
                         qPrintable(QStringLiteral("%1: %2 / %3")
                                        .arg(QLatin1String(language), QLatin1String(context), QLatin1String(source))));
            }
            QFile ts(QStringLiteral(COHORT_SOURCE_DIR "/ui/translations/cohort_%1.ts").arg(QLatin1String(language)));
            QVERIFY(ts.open(QIODevice::ReadOnly));
            const QByteArray xml = ts.readAll();
            QVERIFY2(!xml.contains("type=\"unfinished\""), language);
        }
    }

    // The engine builds the state's reason and the task-fit verdicts itself; with the app's translator installed
    // they come out in the user's language (and in English without one, as in cohortd).
    void engineTextsFollowTheTranslator()
    {
        StateInputs paused;
        paused.hubLink = HubLink::Online;
        paused.pauseReasons = {PauseReason::OnBattery};
        StateInputs offline;
        offline.hubLink = HubLink::Lost;
        offline.retryInSeconds = 30;
        TaskInfo task;
        task.id = QStringLiteral("t");
        task.kind = QStringLiteral("quantum");
        const EngineSnapshot snapshot = samples::snapshot(NodeState::Idle, QString());
        QCOMPARE(resolveState(paused).why, QStringLiteral("The computer is on battery power"));
        QCOMPARE(resolveState(offline).why, QStringLiteral("Cannot reach the hub; retrying in 30 s"));
        QCOMPARE(assessTask(task, snapshot).summary(),
                 QStringLiteral("Cannot run: this version of Cohort cannot run quantum tasks yet"));
        QTranslator german;
        QVERIFY(german.load(QStringLiteral(":/i18n/cohort_de")));
        QVERIFY(QCoreApplication::installTranslator(&german));
        QCOMPARE(resolveState(paused).why, QStringLiteral("Der Computer läuft im Akkubetrieb"));
        QCOMPARE(resolveState(offline).why, QStringLiteral("Hub nicht erreichbar; neuer Versuch in 30 s"));
        // The state's title too (issue 25: "Idle" stayed English in the German window).
        QCOMPARE(nodeStateTitle(NodeState::Idle), QStringLiteral("Untätig"));
        QCOMPARE(nodeStateTitle(NodeState::Working), QStringLiteral("Arbeitet"));
        // The Activity log's categories are typed and translated: shown as words, filtered by their wire names.
        QCOMPARE(EngineEvent::categoryTitle(EventCategory::Schedule), QStringLiteral("Zeitplan"));
        QCOMPARE(EngineEvent::categoryTitle(EventCategory::Earnings), QStringLiteral("Erträge"));
        // A text the engine builds in a file no hand-kept list named (lupdate now reads the engine targets' sources).
        const ComputePlan cpuOnly = planCompute({QStringLiteral("GPU-a")}, {}, {QStringLiteral("GPU-b")}, 90);
        QCOMPARE(
            cpuOnly.note,
            QStringLiteral("Keine der in den Einstellungen gewählten GPUs ist vorhanden (GPU-b): Cohort rechnet auf "
                           "der CPU"));
        QCOMPARE(assessTask(task, snapshot).summary(),
                 QStringLiteral("Nicht ausführbar: diese Cohort-Version kann quantum-Aufgaben noch nicht ausführen"));
        // The settings' validation messages too (issue 25: the German dialog showed them in English).
        SettingsValues wrong = Settings::defaults();
        wrong.hubUrl = QStringLiteral("gopher://x");
        const auto messageOf = [&] {
            const QList<SettingsError> errors = Settings::validate(wrong);
            return errors.isEmpty() ? QString() : errors.first().message;
        };
        QCOMPARE(messageOf(),
                 QStringLiteral("Geben Sie eine http://- oder https://-Adresse ein, oder lassen Sie das Feld "
                                "leer für das lokale Netzwerk."));
        // Rules whose messages come from the parsers they share with the engine (the proxy's, a schedule window's).
        SettingsValues badProxy = Settings::defaults();
        badProxy.proxyMode = ProxyMode::Manual;
        badProxy.proxy = QStringLiteral("proxy.example.org");
        QCOMPARE(Settings::validate(badProxy).value(0).message,
                 QStringLiteral("Geben Sie den Proxy als host:port ein, z. B. proxy.example.org:3128."));
        SettingsValues badWindow = Settings::defaults();
        badWindow.schedule = {QStringLiteral("mon-fri 22:00-25:00")};
        QCOMPARE(Settings::validate(badWindow).value(0).message,
                 QStringLiteral("Zeitplan „mon-fri 22:00-25:00“: Uhrzeiten müssen zwischen 00:00 und 24:00 liegen"));
        QCoreApplication::removeTranslator(&german);
        QCOMPARE(resolveState(paused).why, QStringLiteral("The computer is on battery power"));
        QCOMPARE(nodeStateTitle(NodeState::Idle), QStringLiteral("Idle"));
        QCOMPARE(EngineEvent::categoryTitle(EventCategory::Schedule), QStringLiteral("Schedule"));
        QCOMPARE(messageOf(),
                 QStringLiteral("Enter an http:// or https:// address, or leave it empty for the local network."));
    }
};

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
