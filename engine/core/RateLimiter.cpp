#include "core/RateLimiter.h"

#include <algorithm>
#include <cmath>

namespace cohort {

namespace {
// The smallest grant tryAcquire() makes when the caller wants more: a send() per few bytes would cost more in
// system calls than the cap saves.
constexpr int64_t kMinPiece = 16 * 1024;
} // namespace

RateLimiter::RateLimiter(int64_t bytesPerSecond)
{
    setRate(bytesPerSecond);
}

void RateLimiter::setRate(int64_t bytesPerSecond)
{
    {
        std::lock_guard lock(m_mutex);
        const int64_t next = std::max<int64_t>(bytesPerSecond, 0);
        if (next == m_rate)
            return;
        const auto now = Clock::now();
        refillLocked(now); // what accrued so far accrued at the old rate
        const bool wasUnlimited = m_rate == 0;
        m_rate = next;
        m_refilledAt = now;
        if (m_rate > 0)
            m_tokens = wasUnlimited ? double(burstLocked()) : std::min(m_tokens, double(burstLocked()));
    }
    m_wake.notify_all(); // sleepers planned with the old rate
}

int64_t RateLimiter::rate() const
{
    std::lock_guard lock(m_mutex);
    return m_rate;
}

int64_t RateLimiter::burstBytes() const
{
    std::lock_guard lock(m_mutex);
    return m_rate > 0 ? burstLocked() : 0;
}

int64_t RateLimiter::burstLocked() const
{
    // 50 ms of the rate: small enough that the cap holds over any second, large enough for few wake-ups.
    return std::max<int64_t>(m_rate / 20, 1);
}

int64_t RateLimiter::pieceLocked(int64_t maxBytes) const
{
    return std::min({maxBytes, kMinPiece, burstLocked()});
}

void RateLimiter::refillLocked(Clock::time_point now)
{
    if (m_rate <= 0)
        return;
    const double seconds = std::chrono::duration<double>(now - m_refilledAt).count();
    if (seconds > 0)
        m_tokens = std::min(double(burstLocked()), m_tokens + seconds * double(m_rate));
    m_refilledAt = now;
}

std::chrono::nanoseconds RateLimiter::timeUntilLocked(double tokens) const
{
    if (m_tokens >= tokens)
        return std::chrono::nanoseconds(0);
    // Rounded up, plus a microsecond, so the wake-up finds the tokens there despite floating-point rounding.
    const double ns = std::ceil((tokens - m_tokens) / double(m_rate) * 1e9) + 1000;
    return std::chrono::nanoseconds(int64_t(ns));
}

int64_t RateLimiter::tryAcquire(int64_t maxBytes, std::chrono::nanoseconds *retryIn)
{
    if (maxBytes <= 0)
        return 0;
    std::lock_guard lock(m_mutex);
    if (m_rate <= 0) {
        m_granted += maxBytes;
        return maxBytes;
    }
    refillLocked(Clock::now());
    const int64_t piece = pieceLocked(maxBytes);
    if (m_tokens < double(piece)) {
        if (retryIn)
            *retryIn = timeUntilLocked(double(piece));
        return 0;
    }
    const int64_t granted = std::min(maxBytes, int64_t(m_tokens));
    m_tokens -= double(granted);
    m_granted += granted;
    return granted;
}

void RateLimiter::release(int64_t bytes)
{
    if (bytes <= 0)
        return;
    {
        std::lock_guard lock(m_mutex);
        m_granted -= bytes;
        if (m_rate > 0)
            m_tokens = std::min(double(burstLocked()), m_tokens + double(bytes));
    }
    m_wake.notify_all();
}

RateLimiter::Wait RateLimiter::acquire(int64_t bytes, QDeadlineTimer deadline, const std::atomic<bool> *cancel)
{
    if (bytes <= 0)
        return Wait::Granted;
    std::unique_lock lock(m_mutex);
    int64_t taken = 0;
    const auto giveBack = [&] {
        m_granted -= taken;
        if (m_rate > 0)
            m_tokens = std::min(double(burstLocked()), m_tokens + double(taken));
    };
    for (;;) {
        if (cancel && cancel->load()) {
            giveBack();
            return Wait::Cancelled;
        }
        if (m_rate <= 0) { // unlimited now (perhaps changed while this waited)
            m_granted += bytes - taken;
            return Wait::Granted;
        }
        refillLocked(Clock::now());
        const int64_t take = std::min(bytes - taken, int64_t(m_tokens));
        if (take > 0) {
            m_tokens -= double(take);
            taken += take;
            m_granted += take;
        }
        if (taken == bytes)
            return Wait::Granted;
        if (deadline.hasExpired()) {
            giveBack();
            return Wait::TimedOut;
        }
        // Sleep until the bucket holds the rest (or a full bucket, when the rest is more), the deadline, or the
        // longest sleep that still notices a cancel flag set without interrupt().
        std::chrono::nanoseconds sleep = std::min<std::chrono::nanoseconds>(
            timeUntilLocked(double(std::min(bytes - taken, burstLocked()))), kMaxSleep);
        if (!deadline.isForever())
            sleep = std::min(sleep, std::chrono::nanoseconds(std::max<qint64>(deadline.remainingTimeNSecs(), 0)));
        ++m_waiters;
        m_wake.wait_for(lock, sleep);
        --m_waiters;
    }
}

void RateLimiter::interrupt()
{
    {
        // Taking the lock orders this after a waiter's look at its flag, or before: either it saw the flag set,
        // or it already sleeps and the notify below reaches it.
        std::lock_guard lock(m_mutex);
    }
    m_wake.notify_all();
}

int RateLimiter::waiters() const
{
    std::lock_guard lock(m_mutex);
    return m_waiters;
}

int64_t RateLimiter::grantedBytes() const
{
    std::lock_guard lock(m_mutex);
    return m_granted;
}

} // namespace cohort
