#pragma once
// Loads the engine-parts module (the engine with LibTorch: libcohort_engine_parts.so / cohort_engine_parts.dll) on a
// thread of its own, so the desktop app's window is up and responsive while LibTorch's libraries load and register
// their operators (~0.7 s on a 2-core machine). Where it looks: $COHORT_ENGINE_MODULE alone when set, else next to
// the program (the build tree), then <prefix>/lib/cohort (the installed layout).
#include "api/EngineParts.h"
#include "core/OwnedThread.h"

#include <QObject>
#include <QStringList>

namespace cohort {

class EnginePartsLoader : public QObject {
    Q_OBJECT
public:
    explicit EnginePartsLoader(QObject *parent = nullptr);
    ~EnginePartsLoader() override; // waits for a load in progress (bounded)

    static QStringList candidatePaths();
    // Asynchronous: loaded(parts) or failed(reason) follows, in this object's thread. Once only.
    void load();

Q_SIGNALS:
    void loaded(const cohort::EngineParts *parts);
    void failed(const QString &reason);

private:
    OwnedThread m_thread{QStringLiteral("cohort-load-engine"), this};
    bool m_started = false;
};

} // namespace cohort
