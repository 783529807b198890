// Renders the window's pages, the settings dialog and the state icons to PNG files, with sample data.
// Usage: QT_QPA_PLATFORM=offscreen cohort_gui_screenshots [output-folder]   (default: /tmp)
#include "SampleSnapshots.h"
#include "platform/Autostart.h"
#include "settings/Settings.h"
#include "ui/DashboardPage.h"
#include "ui/DoctorDialog.h"
#include "ui/EarningsPage.h"
#include "ui/EnergyCost.h"
#include "ui/InlineErrorLabel.h"
#include "ui/MainWindow.h"
#include "ui/SettingsDialog.h"
#include "ui/StateIcons.h"
#include "ui/TasksPage.h"
#include "ui/WelcomeDialog.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEventLoop>
#include <QFile>
#include <QLineEdit>
#include <QPainter>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>

using namespace cohort;

namespace {

bool save(QWidget &widget, const QString &path)
{
    widget.show();
    QCoreApplication::processEvents();
    const bool ok = widget.grab().save(path);
    std::printf("%s %s\n", ok ? "wrote" : "FAILED", qPrintable(path));
    return ok;
}

// Every state icon at tray and dashboard sizes, on a light panel (colour, then the dark monochrome variant) and on a
// dark panel (colour, then the light monochrome variant).
bool saveIconSheet(const QString &path)
{
    const QList<NodeState> states{NodeState::Starting,    NodeState::Idle,    NodeState::Working,
                                  NodeState::Downloading, NodeState::Syncing, NodeState::Throttled,
                                  NodeState::Paused,      NodeState::Offline, NodeState::Error};
    const QList<int> sizes{16, 24, 48};
    const int cell = 64;
    const int bandHeight = cell * int(sizes.size()) * 2; // colour rows + monochrome rows
    QImage sheet(cell * int(states.size()), bandHeight * 2, QImage::Format_ARGB32);
    QPainter painter(&sheet);
    painter.fillRect(0, 0, sheet.width(), bandHeight, QColor(0xf4, 0xf4, 0xf5));
    painter.fillRect(0, bandHeight, sheet.width(), bandHeight, QColor(0x27, 0x27, 0x2a));
    for (int background = 0; background < 2; ++background) {
        const TrayIconStyle styles[] = {TrayIconStyle::Colour,
                                        background == 0 ? TrayIconStyle::Dark : TrayIconStyle::Light};
        for (int v = 0; v < 2; ++v) {
            for (int s = 0; s < sizes.size(); ++s) {
                for (int i = 0; i < states.size(); ++i) {
                    const int size = sizes.at(s);
                    const int x = i * cell + (cell - size) / 2;
                    const int y = background * bandHeight + (v * int(sizes.size()) + s) * cell + (cell - size) / 2;
                    painter.drawPixmap(x, y, stateIcon(states.at(i), styles[v]).pixmap(size, size));
                }
            }
        }
    }
    painter.end();
    const bool ok = sheet.save(path);
    std::printf("%s %s\n", ok ? "wrote" : "FAILED", qPrintable(path));
    return ok;
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    const QString out = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("/tmp");
    bool ok = true;

    MainWindow window;
    EngineSnapshot snapshot = samples::snapshot(NodeState::Idle, QStringLiteral("Connected; no task joined"));
    window.showSnapshot(snapshot);
    const QList<EventCategory> categories{EventCategory::Lifecycle, EventCategory::Hub, EventCategory::Task};
    for (int i = 0; i < 40; ++i) {
        const auto severity = i % 13 == 7  ? EngineEvent::Severity::Error
                              : i % 5 == 3 ? EngineEvent::Severity::Warning
                                           : EngineEvent::Severity::Info;
        window.appendEvent(
            samples::event(severity, categories.at(i % 3), QStringLiteral("Sample event number %1").arg(i)));
    }
    ok &= save(window, out + QStringLiteral("/cohort-dashboard.png"));
    window.showPage(MainWindow::TasksPageIndex);
    window.tasksPage()->joinSelected();
    ok &= save(window, out + QStringLiteral("/cohort-tasks.png"));
    window.showPage(MainWindow::EarningsPageIndex);
    ok &= save(window, out + QStringLiteral("/cohort-earnings-empty.png"));
    window.earningsPage()->setReport(samples::earnings(), false);
    ok &= save(window, out + QStringLiteral("/cohort-earnings.png"));
    window.earningsPage()->setReport(samples::earnings(), true);
    ok &= save(window, out + QStringLiteral("/cohort-earnings-cached.png"));
    auto *range = window.earningsPage()->findChild<QComboBox *>(QStringLiteral("earningsRange"));
    range->setCurrentIndex(0);
    ok &= save(window, out + QStringLiteral("/cohort-earnings-day.png"));
    range->setCurrentIndex(2);
    ok &= save(window, out + QStringLiteral("/cohort-earnings-month.png"));
    range->setCurrentIndex(1);
    window.showPage(MainWindow::ActivityPageIndex);
    ok &= save(window, out + QStringLiteral("/cohort-activity.png"));
    window.showPage(MainWindow::DashboardPageIndex);
    window.showSnapshot(samples::userPaused());
    ok &= save(window, out + QStringLiteral("/cohort-dashboard-paused.png"));
    // Ten minutes of two GPUs: the dashboard's GPU cards and their 5-minute charts.
    EngineSnapshot working =
        samples::snapshot(NodeState::Working, QStringLiteral("arith-rl: generating rollouts with policy v37"));
    working.joinedTaskId = QStringLiteral("arith-rl");
    working.checkpointVersion = 37;
    working.rollouts.batchesAccepted = 412;
    working.rollouts.tokensGenerated = 3'164'000;
    working.rollouts.tokensPerSecond = 2150;
    working.rollouts.lastMeanReward = 0.46;
    working.rollouts.policyVersion = 37;
    working.rollouts.hubStep = 37;
    for (int second = 0; second < 600; ++second)
        window.showSnapshot(samples::withGpus(working, second));
    ok &= save(window, out + QStringLiteral("/cohort-dashboard-working.png"));
    ok &= save(*window.dashboardPage()->findChild<QWidget *>(QStringLiteral("gpuSection")),
               out + QStringLiteral("/cohort-dashboard-gpus.png"));
    // The joined task's held-out curve on the Tasks page (the hub's scores of 37 versions).
    working.progress.taskId = QStringLiteral("arith-rl");
    working.progress.problems = 128;
    working.progress.better = QStringLiteral("A higher share of 128 problems no contributor ever trained on answered "
                                             "correctly with the model's most likely answer (greedy correctness); "
                                             "format is counted apart.");
    for (int version = 1; version <= 37; version += 3) {
        const double t = double(version) / 37;
        working.progress.heldOut.append(HeldOutPoint{version, 0.16 + 0.3 * t, 0.98, 0.2 * 0.98 + 0.8 * (0.16 + 0.3 * t),
                                                     0.12 + 0.25 * t, 0.29 + 0.2 * t});
    }
    working.contribution = TaskContribution{QStringLiteral("arith-rl"), 412, 0.083, 4, 31};
    window.showSnapshot(working);
    window.showPage(MainWindow::TasksPageIndex);
    ok &= save(window, out + QStringLiteral("/cohort-tasks-progress.png"));
    window.showPage(MainWindow::DashboardPageIndex);
    // Training a DiLoCo task with two other nodes: the Training row in place of the rollouts.
    EngineSnapshot diloco = samples::snapshot(
        NodeState::Working,
        QStringLiteral("DiLoCo \"Sorting model (DiLoCo)\": outer step 128, inner 7/20, 3 peers, loss 0.41"));
    diloco.joinedTaskId = QStringLiteral("sort-diloco");
    diloco.diloco.active = true;
    diloco.diloco.phase = QStringLiteral("training");
    diloco.diloco.outerStep = 127;
    diloco.diloco.innerStep = 7;
    diloco.diloco.innerSteps = 20;
    diloco.diloco.peers = 3;
    diloco.diloco.loss = 0.41;
    diloco.diloco.outerLoss = 0.43;
    diloco.diloco.outerStepsThisRun = 96;
    diloco.diloco.lastReduceBytes = 281'000;
    window.showSnapshot(diloco);
    ok &= save(window, out + QStringLiteral("/cohort-dashboard-diloco.png"));

    QTemporaryDir dir;
    qputenv("COHORT_AUTOSTART_DIR", dir.filePath(QStringLiteral("autostart")).toLocal8Bit());
    Settings settings(dir.filePath(QStringLiteral("cohort.ini")));
    const auto autostart = createAutostart(QStringLiteral("/usr/bin/cohort"));
    SettingsDialog dialog(&settings, autostart.get());
    // Each page with sample data: GPUs from the sample snapshot, a node id, a tariff; the Network page shows an
    // inline error (a proxy without a port), as a user would see it after Apply.
    dialog.showSnapshot(samples::withGpus(samples::snapshot(NodeState::Working, QStringLiteral("working")), 0));
    dialog.setNodeId(QStringLiteral("n-3f9a2c41d0b7e85a6c12"));
    dialog.findChild<QCheckBox *>(QStringLiteral("useAllGpusCheck"))->setChecked(false);
    dialog.findChild<QLineEdit *>(QStringLiteral("payoutAddressEdit"))
        ->setText(QStringLiteral("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"));
    dialog.findChild<QDoubleSpinBox *>(QStringLiteral("pricePerKWhSpin"))->setValue(0.32);
    dialog.findChild<QLineEdit *>(QStringLiteral("currencyEdit"))->setText(QStringLiteral("EUR"));
    dialog.findChild<QDoubleSpinBox *>(QStringLiteral("creditValueSpin"))->setValue(0.05);
    auto *proxyMode = dialog.findChild<QComboBox *>(QStringLiteral("proxyModeCombo"));
    proxyMode->setCurrentIndex(proxyMode->findData(int(ProxyMode::Manual)));
    dialog.findChild<QLineEdit *>(QStringLiteral("proxyEdit"))->setText(QStringLiteral("proxy.example.org"));
    dialog.apply(); // refused: shows the proxy's message
    const QStringList pages{QStringLiteral("general"), QStringLiteral("compute"), QStringLiteral("network"),
                            QStringLiteral("storage"), QStringLiteral("account")};
    for (int page = 0; page < pages.size(); ++page) {
        dialog.showPage(page);
        ok &= save(dialog, out + QStringLiteral("/cohort-settings-%1.png").arg(pages.at(page)));
    }
    // The earnings page with energy and a tariff: net of electricity.
    EnergyUse energy;
    energy.hasReadings = true;
    energy.todayWh = 2400;
    energy.weekWh = 16800;
    window.earningsPage()->setReport(samples::earnings(), false);
    window.earningsPage()->setEnergy(energy);
    window.earningsPage()->setTariff(0.32, QStringLiteral("EUR"), 0.05);
    window.showPage(MainWindow::EarningsPageIndex);
    ok &= save(window, out + QStringLiteral("/cohort-earnings-energy.png"));

    // The first-run welcome, on a fresh settings file.
    Settings fresh(dir.filePath(QStringLiteral("fresh.ini")));
    WelcomeDialog welcome(&fresh, autostart.get());
    ok &= save(welcome, out + QStringLiteral("/cohort-welcome.png"));

    // Help › Check this computer, over a stand-in for cohortd that prints a report with each kind of finding.
    const QString fakeDoctor = dir.filePath(QStringLiteral("cohortd-doctor.sh"));
    {
        QFile script(fakeDoctor);
        ok &= script.open(QIODevice::WriteOnly);
        script.write(
            "#!/bin/sh\ncat <<'EOF'\n"
            R"J({"failed":true,"findings":[)J"
            R"J({"id":"hub","title":"Hub reachable, its key pinned","outcome":"warning","detail":"https://hub.example answers with the key 3f1c 9a2e 77b0 c4d1; nothing is pinned yet, so the first registration will trust it","fix":"Ask the hub's operator for its key and set it (Settings › Network › Hub key, cohortd --hub-key)."},)J"
            R"J({"id":"clock","title":"Clock","outcome":"ok","detail":"this computer's clock is 84 ms behind the hub's (measured over a 41 ms round trip)"},)J"
            R"J({"id":"inbound","title":"Reachable by peers (DiLoCo)","outcome":"failed","detail":"the hub could not connect to port 41523 of 203.0.113.7 within 8 s: DiLoCo peers could not reach this computer either","fix":"Allow incoming TCP connections to Cohort in the firewall, and forward ports on a home router, or choose a rollout task."},)J"
            R"J({"id":"data-folder","title":"Data folder writable","outcome":"ok","detail":"/home/ana/.local/share/Cohort is writable"},)J"
            R"J({"id":"disk","title":"Free disk for the task","outcome":"ok","detail":"61.2 GB free in /home/ana/.local/share/Cohort; task tiny-lm-diloco needs 500 MB"},)J"
            R"J({"id":"memory","title":"Memory for the task","outcome":"ok","detail":"task tiny-lm-diloco needs 4.0 GB; this computer has 31.3 GB"},)J"
            R"J({"id":"blas","title":"Fast matrix library (BLAS)","outcome":"ok","detail":"OpenBLAS (/usr/lib/x86_64-linux-gnu/openblas-openmp/libblas.so.3): a 512 × 512 matrix product runs at 48.7 GFLOP/s"},)J"
            R"J({"id":"gpu","title":"GPU driver and LibTorch","outcome":"warning","detail":"1 GPU via NVML (libnvidia-ml.so.1): NVIDIA GeForce RTX 4070, but LibTorch 1.13.1 is CPU-only: the GPU is not used for compute","fix":"Install a CUDA build of LibTorch that matches the driver, or keep computing on the CPU."},)J"
            R"J({"id":"tray","title":"Tray icon host","outcome":"ok","detail":"the desktop shows tray icons (org.kde.StatusNotifierWatcher on the session bus)"}]})J"
            "\nEOF\n");
        script.close();
        script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
    DoctorDialog doctor(fakeDoctor, {});
    QEventLoop doctorDone;
    QObject::connect(&doctor, &DoctorDialog::reportShown, &doctorDone, &QEventLoop::quit);
    doctor.show();
    doctor.run();
    QTimer::singleShot(10'000, &doctorDone, &QEventLoop::quit);
    doctorDone.exec();
    ok &= doctor.findingCount() == 9;
    ok &= save(doctor, out + QStringLiteral("/cohort-doctor.png"));

    ok &= saveIconSheet(out + QStringLiteral("/cohort-icons.png"));
    return ok ? 0 : 1;
}
