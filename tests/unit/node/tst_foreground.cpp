// "Pause when I play" with real sources: a child process under a name of the test's choosing found in the process
// list (and gone once killed), full-screen windows on a private Xvfb server (made by hand with raw X11 requests, and
// under the openbox window manager), the processes on the GPUs from the fake NVML (tests/support/fakenvml), and the
// running engine pausing for them with the program's name in its state's sentence, then working again.
#include "api/EngineController.h"
#include "assembly/BuiltinEngineParts.h"
#include "core/Scheduler.h"
#include "node/ForegroundWatch.h"
#include "platform/FullscreenWindow.h"
#include "platform/Nvml.h"
#include "platform/ProcessList.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLibrary>
#include <QProcess>
#include <QSaveFile>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace cohort;

namespace {

const QString kFake = QStringLiteral(COHORT_FAKENVML);
const QString kFakeNoProcesses = QStringLiteral(COHORT_FAKENVML_NOPROCS);
const QString kFakeV1Processes = QStringLiteral(COHORT_FAKENVML_V1PROCS);

// A program running under a name of the test's choosing: /bin/sleep copied into a folder of its own.
class NamedChild {
public:
    bool start(const QString &name)
    {
        const QString sleep = QStandardPaths::findExecutable(QStringLiteral("sleep"));
        if (sleep.isEmpty() || !m_dir.isValid())
            return false;
        m_path = m_dir.filePath(name);
        if (!QFile::copy(sleep, m_path) ||
            !QFile::setPermissions(m_path, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner))
            return false;
        m_process.start(m_path, {QStringLiteral("600")});
        if (!m_process.waitForStarted(10'000))
            return false;
        m_pid = m_process.processId();
        return true;
    }
    qint64 pid() const { return m_pid; } // kept after it ended (QProcess forgets it)
    void kill()
    {
        m_process.kill();
        m_process.waitForFinished(10'000); // reaped: no zombie left under that name
    }
    ~NamedChild() { kill(); }

private:
    QTemporaryDir m_dir;
    QString m_path;
    QProcess m_process;
    qint64 m_pid = 0;
};

// A private X server: Xvfb on a display it picks itself (-displayfd).
class PrivateXServer {
public:
    bool start()
    {
        const QString server = QStandardPaths::findExecutable(QStringLiteral("Xvfb"));
        if (server.isEmpty())
            return false;
        // Its complaints (xkbcomp's, once a window manager asks for the keymap) go nowhere: a pipe nobody reads
        // between two QTest waits would fill and stop the server.
        m_process.setStandardErrorFile(QProcess::nullDevice());
        m_process.start(server, {QStringLiteral("-displayfd"), QStringLiteral("1"), QStringLiteral("-nolisten"),
                                 QStringLiteral("tcp"), QStringLiteral("-screen"), QStringLiteral("0"),
                                 QStringLiteral("320x240x24")});
        if (!m_process.waitForStarted(10'000))
            return false;
        QByteArray number;
        while (!number.contains('\n') && m_process.waitForReadyRead(20'000))
            number += m_process.readAllStandardOutput();
        bool ok = false;
        number.trimmed().toInt(&ok);
        m_display = QLatin1Char(':') + QString::fromLatin1(number.trimmed());
        return ok;
    }
    QString display() const { return m_display; }
    ~PrivateXServer()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.terminate();
            m_process.waitForFinished(5000);
        }
    }

private:
    QProcess m_process;
    QString m_display;
};

// What a program (or a window manager) does to an X server, in raw requests through libxcb loaded at run time like
// the engine's own source: windows, their properties, the root's _NET_ACTIVE_WINDOW, EWMH client messages.
class XClient {
public:
    struct Cookie {
        unsigned int sequence;
    };
    struct ScreenIterator {
        struct Screen {
            uint32_t root, colormap, white, black, inputMasks;
            uint16_t width, height;
        } * data;
        int rem;
        int index;
    };
    struct AtomReply {
        uint8_t responseType, pad0;
        uint16_t sequence;
        uint32_t length;
        uint32_t atom;
    };
    static constexpr uint32_t kAtom = 4, kCardinal = 6, kString = 31, kWindow = 33, kWmClass = 67;

    ~XClient()
    {
        if (m_c)
            m_disconnect(m_c);
    }

    bool open(const QString &display)
    {
        m_lib.setFileNameAndVersion(QStringLiteral("xcb"), 1);
        if (!m_lib.load())
            return false;
        const auto resolve = [this](auto &fn, const char *symbol) {
            fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(m_lib.resolve(symbol));
            return fn != nullptr;
        };
        if (!resolve(m_connect, "xcb_connect") || !resolve(m_disconnect, "xcb_disconnect") ||
            !resolve(m_hasError, "xcb_connection_has_error") || !resolve(m_setup, "xcb_get_setup") ||
            !resolve(m_roots, "xcb_setup_roots_iterator") || !resolve(m_generateId, "xcb_generate_id") ||
            !resolve(m_createWindow, "xcb_create_window") || !resolve(m_mapWindow, "xcb_map_window") ||
            !resolve(m_destroyWindow, "xcb_destroy_window") || !resolve(m_changeProperty, "xcb_change_property") ||
            !resolve(m_deleteProperty, "xcb_delete_property") || !resolve(m_internAtom, "xcb_intern_atom") ||
            !resolve(m_internAtomReply, "xcb_intern_atom_reply") || !resolve(m_sendEvent, "xcb_send_event") ||
            !resolve(m_getProperty, "xcb_get_property") || !resolve(m_getPropertyReply, "xcb_get_property_reply") ||
            !resolve(m_propertyValueLength, "xcb_get_property_value_length"))
            return false;
        const QByteArray name = display.toLatin1();
        m_c = m_connect(name.constData(), nullptr);
        if (!m_c || m_hasError(m_c))
            return false;
        const ScreenIterator it = m_roots(m_setup(m_c));
        m_root = it.data->root;
        m_width = it.data->width;
        m_height = it.data->height;
        return true;
    }

    uint32_t root() const { return m_root; }
    uint16_t width() const { return m_width; }
    uint16_t height() const { return m_height; }

    uint32_t atom(const char *name)
    {
        AtomReply *reply = m_internAtomReply(m_c, m_internAtom(m_c, 0, uint16_t(std::strlen(name)), name), nullptr);
        const uint32_t atom = reply ? reply->atom : 0;
        std::free(reply);
        return atom;
    }

    uint32_t createWindow(int16_t x, int16_t y, uint16_t w, uint16_t h)
    {
        const uint32_t window = m_generateId(m_c);
        m_createWindow(m_c, 0, window, m_root, x, y, w, h, 0, 1 /* InputOutput */, 0, 0, nullptr);
        return window;
    }
    void map(uint32_t window) { m_mapWindow(m_c, window); }
    void destroy(uint32_t window) { m_destroyWindow(m_c, window); }
    void setWords(uint32_t window, uint32_t property, uint32_t type, const QList<uint32_t> &words)
    {
        m_changeProperty(m_c, 0 /* Replace */, window, property, type, 32, uint32_t(words.size()), words.constData());
    }
    void setBytes(uint32_t window, uint32_t property, uint32_t type, const QByteArray &bytes)
    {
        m_changeProperty(m_c, 0, window, property, type, 8, uint32_t(bytes.size()), bytes.constData());
    }
    void deleteProperty(uint32_t window, uint32_t property) { m_deleteProperty(m_c, window, property); }
    // An EWMH request to the window manager about `window` (a ClientMessage to the root).
    void sendClientMessage(uint32_t window, uint32_t type, const QList<uint32_t> &data)
    {
        struct {
            uint8_t responseType = 33; // ClientMessage
            uint8_t format = 32;
            uint16_t sequence = 0;
            uint32_t window;
            uint32_t type;
            uint32_t data[5] = {};
        } event;
        event.window = window;
        event.type = type;
        for (qsizetype i = 0; i < data.size() && i < 5; ++i)
            event.data[i] = data[i];
        static_assert(sizeof event == 32);
        m_sendEvent(m_c, 0, m_root, (1u << 19) | (1u << 20) /* SubstructureNotify | SubstructureRedirect */,
                    reinterpret_cast<const char *>(&event));
    }
    // Whether a property is set (a round trip: everything sent before it has been handled when it answers).
    bool hasProperty(uint32_t window, uint32_t property)
    {
        void *reply = m_getPropertyReply(m_c, m_getProperty(m_c, 0, window, property, 0, 0, 16), nullptr);
        const bool has = reply && m_propertyValueLength(reply) > 0;
        std::free(reply);
        return has;
    }
    void sync() { atom("WM_NAME"); } // any request with a reply

private:
    QLibrary m_lib;
    void *m_c = nullptr;
    uint32_t m_root = 0;
    uint16_t m_width = 0, m_height = 0;
    void *(*m_connect)(const char *, int *) = nullptr;
    void (*m_disconnect)(void *) = nullptr;
    int (*m_hasError)(void *) = nullptr;
    const void *(*m_setup)(void *) = nullptr;
    ScreenIterator (*m_roots)(const void *) = nullptr;
    uint32_t (*m_generateId)(void *) = nullptr;
    Cookie (*m_createWindow)(void *, uint8_t, uint32_t, uint32_t, int16_t, int16_t, uint16_t, uint16_t, uint16_t,
                             uint16_t, uint32_t, uint32_t, const void *) = nullptr;
    Cookie (*m_mapWindow)(void *, uint32_t) = nullptr;
    Cookie (*m_destroyWindow)(void *, uint32_t) = nullptr;
    Cookie (*m_changeProperty)(void *, uint8_t, uint32_t, uint32_t, uint32_t, uint8_t, uint32_t,
                               const void *) = nullptr;
    Cookie (*m_deleteProperty)(void *, uint32_t, uint32_t) = nullptr;
    Cookie (*m_internAtom)(void *, uint8_t, uint16_t, const char *) = nullptr;
    AtomReply *(*m_internAtomReply)(void *, Cookie, void **) = nullptr;
    Cookie (*m_sendEvent)(void *, uint8_t, uint32_t, uint32_t, const char *) = nullptr;
    Cookie (*m_getProperty)(void *, uint8_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t) = nullptr;
    void *(*m_getPropertyReply)(void *, Cookie, void **) = nullptr;
    int (*m_propertyValueLength)(const void *) = nullptr;
};

bool fullScreen(FullscreenWatch &watch, QString *program = nullptr)
{
    const std::optional<FullscreenState> state = watch.read();
    if (program)
        *program = state ? state->program : QString();
    return state && state->fullScreen;
}

QJsonObject fakeGpu(const QString &uuid, const QJsonArray &compute, const QJsonArray &graphics = {})
{
    return QJsonObject{{QStringLiteral("name"), QStringLiteral("Fake GPU")},
                       {QStringLiteral("uuid"), uuid},
                       {QStringLiteral("temperature"), 50},
                       {QStringLiteral("compute_processes"), compute},
                       {QStringLiteral("graphics_processes"), graphics}};
}

QJsonObject process(qint64 pid, double usedBytes = -1)
{
    QJsonObject p{{QStringLiteral("pid"), double(pid)}};
    if (usedBytes >= 0)
        p.insert(QStringLiteral("used_memory"), usedBytes);
    return p;
}

} // namespace

class TestForeground : public QObject {
    Q_OBJECT

    QTemporaryDir m_configDir;
    QString m_config;

    void configureGpus(const QJsonArray &devices)
    {
        QSaveFile f(m_config);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(QJsonObject{{QStringLiteral("devices"), devices}}).toJson());
        QVERIFY(f.commit());
    }

    // An engine that pauses while another program uses the GPU, working again 1 s after it is gone.
    static EngineOptions pausingForGpuUsers(const QString &dataDir)
    {
        EngineOptions o{.dataDir = dataDir, .nodeName = QStringLiteral("foreground-tester")};
        o.scheduler.pauseWhenGpuBusy = true;
        o.scheduler.foregroundHoldSeconds = 1;
        return o;
    }

    static void stop(EngineController &controller)
    {
        QSignalSpy stopped(&controller, &EngineController::stopped);
        controller.stop();
        QVERIFY(stopped.wait(10'000));
    }

private Q_SLOTS:
    void initTestCase()
    {
        registerEngineParts(&builtinEngineParts()); // the engine linked in, as in cohortd
        QVERIFY(m_configDir.isValid());
        m_config = m_configDir.filePath(QStringLiteral("fakenvml.json"));
        qputenv("COHORT_FAKENVML_CONFIG", m_config.toUtf8());
        qputenv("COHORT_NVML_LIBRARY", kFake.toUtf8());
    }

    // A real process under a long name (longer than the kernel's 15-byte comm: found by its argv[0]/executable) and
    // one under a short name (found by comm), then gone once killed.
    void processListFindsARealChildByName()
    {
#ifndef Q_OS_LINUX
        QSKIP("the child is /bin/sleep under another name");
#else
        const QString longName = QStringLiteral("cohort-test-game-%1").arg(QCoreApplication::applicationPid());
        const QString shortName = QStringLiteral("ctg%1").arg(QCoreApplication::applicationPid() % 100000);
        QVERIFY(!findRunningProgram({longName}).has_value());
        NamedChild game, other;
        QVERIFY(game.start(longName));
        QVERIFY(other.start(shortName));
        // Started means exec'd: the name is in /proc from then on.
        std::optional<RunningProgram> found = findRunningProgram({QStringLiteral("not-running-at-all"), longName});
        QVERIFY(found.has_value());
        QCOMPARE(found->pid, game.pid());
        QCOMPARE(found->name, longName);
        QCOMPARE(processName(game.pid()), longName); // the whole name, not comm's first 15 bytes
        found = findRunningProgram({QStringLiteral("/opt/games/bin/") + shortName}); // a path counts by its file name
        QVERIFY(found.has_value());
        QCOMPARE(found->pid, other.pid());
        QCOMPARE(found->name, shortName);
        QVERIFY(!findRunningProgram({longName.left(15)}).has_value()); // a prefix is no match
        QVERIFY(!findRunningProgram({longName}, 0).has_value());       // bounded: at most maxProcesses read
        QVERIFY(!findRunningProgram({QCoreApplication::applicationFilePath()}).has_value()); // never this process

        game.kill();
        QVERIFY(!findRunningProgram({longName}).has_value());
        QVERIFY(processName(game.pid()).isEmpty());
        QVERIFY(findRunningProgram({longName, shortName}).has_value());
        other.kill();
        QVERIFY(!findRunningProgram({longName, shortName}).has_value());
#endif
    }

    // Windows programs under Wine or Proton are "Game.exe" processes: listed as on Windows, in any case, ".exe"
    // optional.
    void windowsNamesUnderWine()
    {
#ifndef Q_OS_LINUX
        QSKIP("the child is /bin/sleep under another name");
#else
        const QString name = QStringLiteral("CohortGame%1.exe").arg(QCoreApplication::applicationPid() % 1000);
        NamedChild game;
        QVERIFY(game.start(name));
        const QString listed = name.chopped(4).toLower();
        const auto found = findRunningProgram({listed});
        QVERIFY2(found.has_value(), qPrintable(listed));
        QCOMPARE(found->name, name);
        QVERIFY(findRunningProgram({name.toUpper()}).has_value());
        QVERIFY(!findRunningProgram({listed + QLatin1Char('x')}).has_value());
#endif
    }

    // Asked every second, the watch reads /proc only once per interval; a new list is scanned for at once.
    void programWatchScansAtMostOncePerInterval()
    {
#ifndef Q_OS_LINUX
        QSKIP("the child is /bin/sleep under another name");
#else
        const QString name = QStringLiteral("cohort-watch-%1").arg(QCoreApplication::applicationPid());
        NamedChild child;
        QVERIFY(child.start(name));
        ProgramWatch slow(60'000);
        slow.setNames({QStringLiteral("  ") + name + QStringLiteral(" "), QString()});
        QCOMPARE(slow.names(), QStringList{name});
        QVERIFY(slow.running().has_value());
        child.kill();
        QVERIFY2(slow.running().has_value(), "a second scan within the interval");
        slow.setNames({name, QStringLiteral("other")}); // a new list: scanned at the next ask
        QVERIFY(!slow.running().has_value());
        ProgramWatch none;
        QVERIFY(!none.running().has_value()); // an empty list reads nothing
#endif
    }

    // Raw X11, no window manager: the test sets what a window manager would (_NET_ACTIVE_WINDOW on the root,
    // _NET_WM_STATE on the window) and what a program would (WM_CLASS, _NET_WM_PID).
    void fullscreenWindowOnXvfb()
    {
#ifdef Q_OS_WIN
        QSKIP("X11");
#else
        PrivateXServer server;
        QVERIFY2(server.start(), "Xvfb is missing or did not start: installer/install-deps-debian.sh installs it");
        XClient x;
        QVERIFY2(x.open(server.display()), "libxcb.so.1 cannot be loaded or the server refused");
        std::unique_ptr<FullscreenWatch> watch = createFullscreenWatch(server.display());
        QVERIFY(watch);
        QCOMPARE(watch->source(), QStringLiteral("x11-ewmh"));
        QVERIFY(!fullScreen(*watch)); // no active window at all

        const uint32_t active = x.atom("_NET_ACTIVE_WINDOW"), wmState = x.atom("_NET_WM_STATE"),
                       fullscreen = x.atom("_NET_WM_STATE_FULLSCREEN"), above = x.atom("_NET_WM_STATE_ABOVE"),
                       wmPid = x.atom("_NET_WM_PID"), windowType = x.atom("_NET_WM_WINDOW_TYPE"),
                       desktopType = x.atom("_NET_WM_WINDOW_TYPE_DESKTOP");
        const uint32_t game = x.createWindow(10, 10, 100, 80);
        x.setBytes(game, XClient::kWmClass, XClient::kString, QByteArrayLiteral("cohort-game\0CohortTestGame\0"));
        x.map(game);
        x.setWords(x.root(), active, XClient::kWindow, {game});
        x.sync();
        QVERIFY(!fullScreen(*watch)); // active, but a small window in a corner

        x.setWords(game, wmState, XClient::kAtom, {above, fullscreen});
        x.sync();
        QString program;
        QVERIFY(fullScreen(*watch, &program));
        QCOMPARE(program, QStringLiteral("CohortTestGame")); // no _NET_WM_PID: the window class
        x.setWords(game, wmPid, XClient::kCardinal, {uint32_t(QCoreApplication::applicationPid())});
        x.sync();
        QVERIFY(fullScreen(*watch, &program));
        QCOMPARE(program, processName(QCoreApplication::applicationPid())); // the process behind the window

        x.setWords(game, wmState, XClient::kAtom, {above});
        x.sync();
        QVERIFY(!fullScreen(*watch)); // left full screen

        // Full screen without telling anyone: as large as the screen. The desktop's own window is that large too.
        const uint32_t cover = x.createWindow(0, 0, x.width(), x.height());
        x.map(cover);
        x.setWords(x.root(), active, XClient::kWindow, {cover});
        x.sync();
        QVERIFY(fullScreen(*watch));
        x.setWords(cover, windowType, XClient::kAtom, {desktopType});
        x.sync();
        QVERIFY(!fullScreen(*watch));

        // The active window vanishes between the window manager's word and the question: an error reply, no crash.
        x.setWords(x.root(), active, XClient::kWindow, {game});
        x.setWords(game, wmState, XClient::kAtom, {fullscreen});
        x.sync();
        QVERIFY(fullScreen(*watch));
        x.destroy(game);
        x.sync();
        QVERIFY(!fullScreen(*watch));
        const std::optional<FullscreenState> state = watch->read();
        QVERIFY(state.has_value()); // still answering
        x.deleteProperty(x.root(), active);
        x.sync();
        QVERIFY(!fullScreen(*watch));
#endif
    }

    // The real thing: openbox manages the window, makes it active, and takes it in and out of full screen when the
    // program asks (an EWMH client message), as a game's switch to full screen does.
    void fullscreenWindowUnderAWindowManager()
    {
#ifdef Q_OS_WIN
        QSKIP("X11");
#else
        const QString openbox = QStandardPaths::findExecutable(QStringLiteral("openbox"));
        if (openbox.isEmpty())
            QSKIP("openbox is missing: installer/install-deps-debian.sh installs it");
        PrivateXServer server;
        QVERIFY2(server.start(), "Xvfb is missing or did not start: installer/install-deps-debian.sh installs it");
        XClient x;
        QVERIFY(x.open(server.display()));
        QProcess wm;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DISPLAY"), server.display());
        wm.setProcessEnvironment(env);
        wm.setStandardOutputFile(QProcess::nullDevice());
        wm.setStandardErrorFile(QProcess::nullDevice());
        wm.start(openbox, {QStringLiteral("--sm-disable")});
        QVERIFY(wm.waitForStarted(10'000));
        auto stopWm = qScopeGuard([&wm] {
            wm.terminate();
            if (!wm.waitForFinished(5000))
                wm.kill();
        });
        const uint32_t supportingWm = x.atom("_NET_SUPPORTING_WM_CHECK");
        QTRY_VERIFY_WITH_TIMEOUT(x.hasProperty(x.root(), supportingWm), 20'000); // openbox owns the screen

        std::unique_ptr<FullscreenWatch> watch = createFullscreenWatch(server.display());
        QVERIFY(watch);
        const uint32_t wmState = x.atom("_NET_WM_STATE"), fullscreen = x.atom("_NET_WM_STATE_FULLSCREEN");
        const uint32_t game = x.createWindow(20, 20, 120, 90);
        x.setBytes(game, XClient::kWmClass, XClient::kString, QByteArrayLiteral("cohort-game\0CohortWmGame\0"));
        x.setWords(game, wmState, XClient::kAtom, {fullscreen}); // asked for before mapping, as EWMH allows
        // Managed once openbox has put its frame around it. A map request that arrives while openbox is still starting
        // can be lost (it owns the screen a little before it handles requests): asked again each second until managed.
        // Then raised the way a pager does it, as openbox does not focus a window that appears while it starts.
        const uint32_t frameExtents = x.atom("_NET_FRAME_EXTENTS");
        QElapsedTimer sinceMap;
        const auto managed = [&] {
            if (x.hasProperty(game, frameExtents))
                return true;
            if (!sinceMap.isValid() || sinceMap.elapsed() > 1000) {
                x.map(game);
                x.sync();
                sinceMap.start();
            }
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(managed(), 30'000);
        x.sendClientMessage(game, x.atom("_NET_ACTIVE_WINDOW"), {2 /* from a pager */, 0, 0});
        x.sync();
        QString program;
        QTRY_VERIFY_WITH_TIMEOUT(fullScreen(*watch, &program), 10'000);
        QCOMPARE(program, QStringLiteral("CohortWmGame"));

        x.sendClientMessage(game, wmState, {0 /* remove */, fullscreen, 0, 1 /* from an application */});
        x.sync();
        QTRY_VERIFY_WITH_TIMEOUT(!fullScreen(*watch), 10'000);
        x.sendClientMessage(game, wmState, {1 /* add */, fullscreen, 0, 1});
        x.sync();
        QTRY_VERIFY_WITH_TIMEOUT(fullScreen(*watch), 10'000);
        x.destroy(game); // the game quits
        x.sync();
        QTRY_VERIFY_WITH_TIMEOUT(!fullScreen(*watch), 10'000);
#endif
    }

    void noDisplayNoSource()
    {
#ifndef Q_OS_WIN
        QVERIFY(!createFullscreenWatch(QStringLiteral("/nonexistent/socket:99"))); // a display that is not there
#endif
    }

    // The processes on the GPUs through the real loader: the complete fake (the _v3 functions, four-field elements),
    // an old driver's (the first version, two-field elements), and one without them.
    void nvmlListsTheProcessesOnTheGpus()
    {
        QJsonArray many;
        for (int i = 0; i < 40; ++i) // more than the first ask has room for
            many.append(process(10'000 + i, 1 << 20));
        configureGpus({fakeGpu(QStringLiteral("GPU-a"), {process(4242, 3.0 * (1LL << 30))}, {process(77)}),
                       fakeGpu(QStringLiteral("GPU-b"), many)});
        for (const QString &library : {kFake, kFakeV1Processes}) {
            auto nvml = Nvml::open(library);
            QVERIFY2(nvml, qPrintable(nvml.error()));
            const Expected<QList<GpuProcess>> processes = (*nvml)->processes();
            QVERIFY2(processes, qPrintable(processes.error()));
            QCOMPARE(processes->size(), 42);
            QCOMPARE(processes->at(0), (GpuProcess{0, 4242, false, 3LL << 30}));
            QCOMPARE(processes->at(1), (GpuProcess{0, 77, true, -1})); // NVML could not tell its memory
            QCOMPARE(processes->at(2), (GpuProcess{1, 10'000, false, 1 << 20}));
            QCOMPARE(processes->at(41).pid, qint64(10'039));
            QVERIFY2((*nvml)->missingFunctions().isEmpty(), qPrintable((*nvml)->missingFunctions().join(u',')));
        }
        auto old = Nvml::open(kFakeNoProcesses);
        QVERIFY2(old, qPrintable(old.error()));
        QCOMPARE((*old)->deviceCount(), 2);
        QVERIFY(!(*old)->processes().ok());
        QVERIFY((*old)->missingFunctions().isEmpty()); // not a reading: the telemetry stays complete
    }

    // Which process on a GPU is "another program": compute work of any size, a graphics context only as large as a
    // game's, never this process, never one whose name cannot be read (another PID namespace).
    void otherGpuUserRules()
    {
        const qint64 self = 100;
        const auto nameOf = [](qint64 pid) { return pid == 404 ? QString() : QStringLiteral("p%1").arg(pid); };
        const auto user = [&](const QList<GpuProcess> &list) {
            return ForegroundWatch::otherGpuUser(list, self, nameOf);
        };
        QVERIFY(!user({}));
        QVERIFY(!user({GpuProcess{0, self, false, 8LL << 30}}));
        QCOMPARE(user({GpuProcess{0, self, false, 1}, GpuProcess{1, 7, false, -1}})->program, QStringLiteral("p7"));
        QVERIFY(!user({GpuProcess{0, 8, true, 200LL << 20}})); // the compositor, a browser
        QVERIFY(!user({GpuProcess{0, 8, true, -1}}));          // unknown size (Windows' WDDM)
        QCOMPARE(user({GpuProcess{0, 8, true, 2LL << 30}})->kind, ForegroundUse::Kind::GpuUser);
        QVERIFY(!user(
            {GpuProcess{0, 404, false, 1LL << 30}})); // cannot be named: maybe this very process, seen from the host
    }

    // With a worker per GPU: another program on a worker's GPU pauses that worker (gpusInUse), not the node, while
    // another worker's GPU is free; on every worker's GPU, or with compute on the CPU, it pauses the node as before;
    // on a GPU no worker uses, nothing.
    void aProgramOnOneWorkersGpuPausesOnlyThatWorker()
    {
#ifndef Q_OS_LINUX
        QSKIP("the child is /bin/sleep under another name");
#else
        const qint64 self = QCoreApplication::applicationPid();
        const auto nameOf = [](qint64 pid) { return QStringLiteral("p%1").arg(pid); };
        QCOMPARE(ForegroundWatch::otherGpuUsers({GpuProcess{0, self, false, 1}, GpuProcess{1, 7, false, -1},
                                                 GpuProcess{1, 8, false, -1}, GpuProcess{2, 9, true, 2LL << 30}},
                                                self, nameOf),
                 (QMap<int, QString>{{1, QStringLiteral("p7")}, {2, QStringLiteral("p9")}}));

        QList<GpuProcess> onGpu;
        ForegroundWatch watch([&]() -> Expected<QList<GpuProcess>> { return onGpu; }, QString(), 0);
        // Names are read from /proc: a real child under a name of its own.
        NamedChild game;
        QVERIFY(game.start(QStringLiteral("cohort-gpu-game-%1").arg(self)));
        const qint64 gamePid = game.pid();
        const auto readAgain = [&watch]() {
            watch.setPolicy(SchedulerPolicy{}); // the GPU source is read at most every 2 s: a policy toggle re-arms it
            SchedulerPolicy on;
            on.pauseWhenGpuBusy = true;
            watch.setPolicy(on);
            return watch.read();
        };
        watch.setWorkerGpus({0, 1});
        onGpu = {GpuProcess{1, gamePid, false, 1LL << 30}};
        QVERIFY(readAgain().isEmpty()); // GPU 0's worker works on: the node is not paused
        QCOMPARE(watch.gpusInUse().keys(), QList<int>{1});
        QVERIFY(!watch.gpusInUse().value(1).isEmpty());

        onGpu = {GpuProcess{0, gamePid, false, 1LL << 30}, GpuProcess{1, gamePid, false, 1LL << 30}};
        const QList<ForegroundUse> both = readAgain();
        QCOMPARE(both.size(), 1); // every worker's GPU: the node pauses
        QCOMPARE(both[0].kind, ForegroundUse::Kind::GpuUser);
        QVERIFY(watch.gpusInUse().isEmpty());

        watch.setWorkerGpus({1});
        onGpu = {GpuProcess{0, gamePid, false, 1LL << 30}};
        QVERIFY(readAgain().isEmpty()); // a GPU Cohort does not compute on
        QVERIFY(watch.gpusInUse().isEmpty());

        watch.setWorkerGpus({}); // computing on the CPU: as on any machine before, any other GPU user pauses
        QCOMPARE(readAgain().size(), 1);
#endif
    }

    // The watch asks only the sources whose rule is on, and says once when a rule cannot work here.
    void foregroundWatchAsksOnlyWhatIsOn()
    {
        int gpuAsks = 0;
        QList<GpuProcess> onGpu;
        ForegroundWatch watch(
            [&]() -> Expected<QList<GpuProcess>> {
                ++gpuAsks;
                return onGpu;
            },
            QStringLiteral("/nonexistent/socket:99"), 0);
        SchedulerPolicy policy;
        watch.setPolicy(policy);
        QVERIFY(watch.read().isEmpty());
        QCOMPARE(gpuAsks, 0);
        QVERIFY(watch.takeEvents().isEmpty());

        policy.pauseWhenGpuBusy = true;
        policy.pauseWhenFullscreen = true;
        watch.setPolicy(policy);
        onGpu = {GpuProcess{0, QCoreApplication::applicationPid(), false, 1LL << 30}};
        QVERIFY(watch.read().isEmpty()); // only this process computes
        QCOMPARE(gpuAsks, 1);
        QVERIFY(watch.read().isEmpty());
        QCOMPARE(gpuAsks, 1); // within kGpuIntervalMs: the last answer stands
        const QList<EngineEvent> events = watch.takeEvents();
        QCOMPARE(events.size(), 1); // the full-screen rule cannot work without a display, said once
        QVERIFY2(events[0].message.contains(QStringLiteral("cannot tell")), qPrintable(events[0].message));
        QVERIFY(watch.read().isEmpty());
        QVERIFY(watch.takeEvents().isEmpty());

        ForegroundWatch failing([]() -> Expected<QList<GpuProcess>> { return fail(QStringLiteral("no NVML here")); });
        SchedulerPolicy gpu;
        gpu.pauseWhenGpuBusy = true;
        failing.setPolicy(gpu);
        QVERIFY(failing.read().isEmpty());
        const QList<EngineEvent> told = failing.takeEvents();
        QCOMPARE(told.size(), 1);
        QVERIFY(told[0].message.contains(QStringLiteral("no NVML here")));
    }

    // The running engine: another program on the GPU (a real process the fake NVML lists) pauses it, its state's
    // sentence names the program, and it works again once the program has left the GPU for the hold time.
    void theEnginePausesForAnotherProgramOnTheGpu()
    {
#ifndef Q_OS_LINUX
        QSKIP("the child is /bin/sleep under another name");
#else
        const QString name = QStringLiteral("cohort-gpu-user-%1").arg(QCoreApplication::applicationPid());
        NamedChild other;
        QVERIFY(other.start(name));
        configureGpus({fakeGpu(QStringLiteral("GPU-a"), {process(QCoreApplication::applicationPid(), 1 << 30)})});
        QTemporaryDir dir;
        EngineController controller(pausingForGpuUsers(dir.path()));
        controller.start();
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().state, NodeState::Idle, 30'000); // only this process on the GPU

        configureGpus({fakeGpu(QStringLiteral("GPU-a"),
                               {process(QCoreApplication::applicationPid(), 1 << 30), process(other.pid(), 2 << 30)})});
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().state, NodeState::Paused, 10'000);
        EngineSnapshot s = controller.snapshot();
        QCOMPARE(s.reason, PauseReason::ForegroundApp);
        QCOMPARE(s.why, QStringLiteral("Another program uses the GPU (%1)").arg(name));
        QCOMPARE(s.toJson()[QStringLiteral("reason")].toString(), QStringLiteral("foreground-app"));
        QCOMPARE(s.toJson()[QStringLiteral("why")].toString(), s.why);

        configureGpus({fakeGpu(QStringLiteral("GPU-a"), {})}); // it is done
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().state, NodeState::Idle, 15'000);
        stop(controller);
#endif
    }

    // Two GPUs standing in for CUDA devices (COHORT_TESTING_GPUS_ON_CPU), a worker each: another program on the second
    // makes that worker wait, the node is not paused; gone for the hold time, it works again. On both GPUs, the node
    // pauses as a one-GPU machine would.
    void anotherProgramOnOneGpuMakesOnlyItsWorkerWait()
    {
#ifndef Q_OS_LINUX
        QSKIP("the child is /bin/sleep under another name");
#else
        const QString name = QStringLiteral("cohort-gpu-game-%1").arg(QCoreApplication::applicationPid());
        NamedChild other;
        QVERIFY(other.start(name));
        const qint64 self = QCoreApplication::applicationPid();
        configureGpus({fakeGpu(QStringLiteral("GPU-a"), {}), fakeGpu(QStringLiteral("GPU-b"), {})});
        qputenv("COHORT_TESTING_GPUS_ON_CPU", "1");
        const auto unset = qScopeGuard([] { qunsetenv("COHORT_TESTING_GPUS_ON_CPU"); });
        QTemporaryDir dir;
        EngineController controller(pausingForGpuUsers(dir.path()));
        controller.start();
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().state, NodeState::Idle, 30'000);
        QCOMPARE(controller.snapshot().computeWorkers.size(), 2);

        configureGpus({fakeGpu(QStringLiteral("GPU-a"), {process(self, 1 << 30)}),
                       fakeGpu(QStringLiteral("GPU-b"), {process(other.pid(), 2 << 30)})});
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().computeWorkers.value(1).inUseBy, name, 10'000);
        EngineSnapshot s = controller.snapshot();
        QCOMPARE(s.computeWorkers[0].inUseBy, QString());
        QCOMPARE(s.state, NodeState::Idle); // not paused: GPU-a's worker goes on
        QVERIFY(!s.pauseReasons.contains(PauseReason::ForegroundApp));
        QCOMPARE(s.toJson()[QStringLiteral("compute_workers")]
                     .toArray()[1]
                     .toObject()[QStringLiteral("in_use_by")]
                     .toString(),
                 name);

        configureGpus({fakeGpu(QStringLiteral("GPU-a"), {process(other.pid(), 2 << 30)}),
                       fakeGpu(QStringLiteral("GPU-b"), {process(other.pid(), 2 << 30)})});
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().state, NodeState::Paused, 10'000);
        QCOMPARE(controller.snapshot().reason, PauseReason::ForegroundApp);

        configureGpus({fakeGpu(QStringLiteral("GPU-a"), {}), fakeGpu(QStringLiteral("GPU-b"), {})}); // the game is over
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().state, NodeState::Idle, 15'000);
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().computeWorkers.value(1).inUseBy, QString(), 15'000);
        stop(controller);
#endif
    }

    // A program on the user's list pauses the engine; taking it off the list (Settings, applied live) lets the
    // engine work again at once.
    void theEnginePausesWhileAListedProgramRuns()
    {
#ifndef Q_OS_LINUX
        QSKIP("the child is /bin/sleep under another name");
#else
        configureGpus({});
        const QString name = QStringLiteral("cohort-listed-%1").arg(QCoreApplication::applicationPid());
        NamedChild game;
        QVERIFY(game.start(name));
        QTemporaryDir dir;
        EngineOptions o;
        o.dataDir = dir.path();
        o.nodeName = QStringLiteral("foreground-tester");
        o.scheduler.pauseForPrograms = {QStringLiteral("steam"), name};
        EngineController controller(o);
        controller.start();
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().state, NodeState::Paused, 30'000);
        QCOMPARE(controller.snapshot().reason, PauseReason::ForegroundApp);
        QCOMPARE(controller.snapshot().why, QStringLiteral("A program on your list is running (%1)").arg(name));

        EngineOptions unlisted = o;
        unlisted.scheduler.pauseForPrograms = {QStringLiteral("steam")};
        controller.reconfigure(unlisted);
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().state, NodeState::Idle, 10'000);
        controller.reconfigure(o);
        QTRY_COMPARE_WITH_TIMEOUT(controller.snapshot().state, NodeState::Paused, 10'000);
        stop(controller);
#endif
    }
};

QTEST_GUILESS_MAIN(TestForeground)
#include "tst_foreground.moc"
