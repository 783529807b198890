#include "net/RegistrationWork.h"

#include "core/Sha256.h"

#include <QPointer>

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

QByteArray solveRegistrationWork(const QByteArray &hubKey, const QByteArray &nodeKey, int bits, const std::atomic<bool> &cancel)
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
    m_cancel = false;
    QPointer<RegistrationWorkSolver> self(this);
    m_thread = QThread::create([this, self, hubKey, nodeKey, bits, done = std::move(done)] {
        const QByteArray stamp = solveRegistrationWork(hubKey, nodeKey, bits, m_cancel);
        if (stamp.isEmpty())
            return;
        QMetaObject::invokeMethod(this, [self, stamp, done] {
            if (self)
                done(stamp);
        }, Qt::QueuedConnection);
    });
    m_thread->setObjectName(QStringLiteral("cohort-register-work"));
    m_thread->start(QThread::LowPriority);
}

void RegistrationWorkSolver::stop()
{
    if (!m_thread)
        return;
    m_cancel = true;
    m_thread->wait(); // the search looks at the flag every 4096 hashes: milliseconds
    delete m_thread;
    m_thread = nullptr;
}

} // namespace cohort
