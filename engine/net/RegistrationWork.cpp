#include "net/RegistrationWork.h"

#include "core/Sha256.h"

namespace cohort {

namespace {
bool leadingZeroBits(const QByteArray &digest, int bits)
{
    for (int i = 0; i < bits; ++i)
        if (uchar(digest[i / 8]) & (0x80 >> (i % 8)))
            return false;
    return true;
}
} // namespace

QByteArray registrationWorkMessage(const QByteArray &hubKey, const QByteArray &nodeKey, const QByteArray &stamp)
{
    return QByteArrayLiteral("cohort-register-v1\n") + hubKey.toBase64() + '\n' + nodeKey.toBase64() + '\n' + stamp;
}

bool registrationWorkValid(const QByteArray &hubKey, const QByteArray &nodeKey, const QByteArray &stamp, int bits)
{
    if (bits <= 0)
        return true;
    if (stamp.isEmpty() || stamp.size() > 20 || bits > 256)
        return false;
    for (char c : stamp)
        if (c < '0' || c > '9')
            return false;
    return leadingZeroBits(Sha256::hash(registrationWorkMessage(hubKey, nodeKey, stamp)), bits);
}

QByteArray solveRegistrationWork(const QByteArray &hubKey, const QByteArray &nodeKey, int bits,
                                 const std::atomic<bool> &cancel)
{
    const QByteArray prefix = registrationWorkMessage(hubKey, nodeKey, {});
    Sha256 hasher;
    for (quint64 counter = 0;; ++counter) {
        if ((counter & 4095) == 0 && cancel.load(std::memory_order_relaxed))
            return {};
        const QByteArray stamp = QByteArray::number(counter);
        hasher.addData(prefix);
        hasher.addData(stamp);
        if (leadingZeroBits(hasher.result(), bits))
            return stamp;
    }
}

void RegistrationWorkSolver::solve(const QByteArray &hubKey, const QByteArray &nodeKey, int bits, Done done)
{
    stop();
    m_thread.run(
        [hubKey, nodeKey, bits, done = std::move(done)](const ThreadLink &link) {
            const QByteArray stamp = solveRegistrationWork(hubKey, nodeKey, bits, link.stopFlag());
            if (!stamp.isEmpty())
                link.post([stamp, done] { done(stamp); }); // dropped if the solver is gone or let go of this search
        },
        QThread::LowPriority);
}

void RegistrationWorkSolver::stop()
{
    // The search looks at the flag every 4096 hashes: milliseconds. The bound (new; the wait had none) is a
    // hundred times that, for a machine starved of CPU; a search still running after it is let go, and its stamp,
    // if any, reaches no one.
    m_thread.stop(std::chrono::seconds(1));
}

} // namespace cohort
