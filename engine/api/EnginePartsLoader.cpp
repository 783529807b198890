#include "api/EnginePartsLoader.h"

#include "core/Logging.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLibrary>

namespace cohort {

namespace {
#if defined(Q_OS_WIN)
const QString kModuleFile = QStringLiteral("cohort_engine_parts.dll");
#elif defined(Q_OS_MACOS)
const QString kModuleFile = QStringLiteral("libcohort_engine_parts.dylib");
#else
const QString kModuleFile = QStringLiteral("libcohort_engine_parts.so");
#endif
} // namespace

EnginePartsLoader::EnginePartsLoader(QObject *parent)
    : QObject(parent)
{}

EnginePartsLoader::~EnginePartsLoader()
{
    // Loading a library cannot be interrupted: this waits for it. ~0.7 s is usual, a cold disk or a virus scanner
    // reading LibTorch's few hundred MB can take far longer; the bound (new: the join had none) lets a program that
    // quits meanwhile go after 30 s, and the load, let go, tells no one (ThreadLink::post).
    m_thread.stop(std::chrono::seconds(30));
}

QStringList EnginePartsLoader::candidatePaths()
{
    QStringList paths;
    if (const QString forced = qEnvironmentVariable("COHORT_ENGINE_MODULE"); !forced.isEmpty())
        return {forced}; // that one only (tests, packagers)
    const QDir programDir(QCoreApplication::applicationDirPath());
    paths << programDir.filePath(kModuleFile) << programDir.filePath(QStringLiteral("../lib/cohort/") + kModuleFile);
    return paths;
}

void EnginePartsLoader::load()
{
    if (m_started)
        return;
    m_started = true;
    const QStringList paths = candidatePaths();
    m_thread.run([this, paths](const ThreadLink &link) {
        QElapsedTimer clock;
        clock.start();
        QStringList tried;
        for (const QString &path : paths) {
            if (!QFileInfo::exists(path)) {
                tried << QStringLiteral("%1 (missing)").arg(QDir::toNativeSeparators(path));
                continue;
            }
            // Never unloaded: the engine's code must stay mapped for as long as the program runs.
            QLibrary library(path);
            const auto entry = reinterpret_cast<const EngineParts *(*)()>(library.resolve(kEnginePartsSymbol));
            const EngineParts *parts = entry ? entry() : nullptr;
            if (!parts || !parts->createEngine || !parts->createLocalNetwork) {
                tried << QStringLiteral("%1 (%2)").arg(QDir::toNativeSeparators(path),
                                                       entry ? QStringLiteral("incomplete") : library.errorString());
                continue;
            }
            qCInfo(lcEngine) << "engine module" << path << "loaded in" << clock.elapsed() << "ms";
            link.post([this, parts] { Q_EMIT loaded(parts); }); // `this` alive wherever it runs
            return;
        }
        const QString reason =
            QStringLiteral("the engine module could not be loaded: %1").arg(tried.join(QStringLiteral("; ")));
        link.post([this, reason] { Q_EMIT failed(reason); });
    });
}

} // namespace cohort
