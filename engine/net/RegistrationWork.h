#pragma once
// Registration costs work: a hub may ask each new identity for a proof of work bound to the hub's key and the
// node's key, so identities cannot be made for free (a few seconds of one core at most for an honest node, once
// per hub; hours of CPU for an attacker who wants thousands). The stamp is a decimal counter such that
//   SHA-256("cohort-register-v1\n" base64(hub key) "\n" base64(node key) "\n" stamp)
// starts with `bits` zero bits. Bound to both keys, one solution is worth nothing for another identity or hub.
#include "core/OwnedThread.h"

#include <QByteArray>
#include <atomic>
#include <functional>

namespace cohort {

inline constexpr int kMaxRegistrationWorkBits = 26; // what a node agrees to do (~1 minute of one core here)

QByteArray registrationWorkMessage(const QByteArray &hubKey, const QByteArray &nodeKey, const QByteArray &stamp);
bool registrationWorkValid(const QByteArray &hubKey, const QByteArray &nodeKey, const QByteArray &stamp, int bits);
// Searches for a stamp; empty if cancelled (checked every few thousand hashes).
QByteArray solveRegistrationWork(const QByteArray &hubKey, const QByteArray &nodeKey, int bits,
                                 const std::atomic<bool> &cancel);

// Solves on its own thread ("cohort-register-work") and reports to the owner's thread; the destructor cancels and
// joins it, which takes at most a few milliseconds.
class RegistrationWorkSolver : public QObject {
public:
    using Done = std::function<void(const QByteArray &stamp)>;
    explicit RegistrationWorkSolver(QObject *parent = nullptr)
        : QObject(parent)
    {}
    ~RegistrationWorkSolver() override { stop(); }
    // Calls `done` (in this object's thread) with the stamp; a running search is cancelled first.
    void solve(const QByteArray &hubKey, const QByteArray &nodeKey, int bits, Done done);
    bool running() const { return m_thread.isRunning(); }
    void stop();

private:
    OwnedThread m_thread{QStringLiteral("cohort-register-work"), this};
};

} // namespace cohort
