#pragma once
// A token bucket that paces bytes to a rate: the node's upload cap (settings), shared by every thread that sends
// to peers. Thread-safe; the rate may change while senders wait (they re-plan at once). Waiting never spins: a
// blocked sender sleeps on a condition variable until the bucket can hold what it needs, its deadline, or an
// interrupt().
//
// The bucket holds at most burstBytes() (1/20 s of the rate, at least 1 byte) and starts full, so n bytes take at
// least (n - burstBytes()) / rate seconds to get through it: the bound the tests assert.
#include <QDeadlineTimer>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace cohort {

class RateLimiter {
public:
    enum class Wait { Granted, TimedOut, Cancelled };
    // A sleeping acquire() looks at its cancel flag at least this often, even if nobody calls interrupt().
    static constexpr std::chrono::milliseconds kMaxSleep{200};

    explicit RateLimiter(int64_t bytesPerSecond = 0);
    RateLimiter(const RateLimiter &) = delete;
    RateLimiter &operator=(const RateLimiter &) = delete;

    // 0 (or less): unlimited.
    void setRate(int64_t bytesPerSecond);
    int64_t rate() const;
    bool limited() const { return rate() > 0; }
    int64_t burstBytes() const;

    // Non-blocking, for a sender that multiplexes several sockets in one loop (the ring all-reduce): grants up to
    // maxBytes now — all of them when unlimited — or 0 when the bucket holds less than a useful piece
    // (min(maxBytes, 16 KiB, burstBytes())); then *retryIn says how long until it will. Grants are
    // taken from the bucket: give back with release() what the socket did not take.
    int64_t tryAcquire(int64_t maxBytes, std::chrono::nanoseconds *retryIn = nullptr);
    void release(int64_t bytes);

    // Blocking: returns Granted once all `bytes` went through the bucket (taken piece by piece as it fills),
    // TimedOut when `deadline` passes first, Cancelled when *cancel is set (seen at once after interrupt(), else
    // within kMaxSleep). On TimedOut and Cancelled the part already taken is given back.
    Wait acquire(int64_t bytes, QDeadlineTimer deadline, const std::atomic<bool> *cancel = nullptr);
    // Wakes every acquire() so it looks at its cancel flag (call it after setting one).
    void interrupt();

    int waiters() const;          // threads sleeping in acquire() now
    int64_t grantedBytes() const; // granted and not given back, since construction

private:
    using Clock = std::chrono::steady_clock;
    void refillLocked(Clock::time_point now);
    int64_t burstLocked() const;
    int64_t pieceLocked(int64_t maxBytes) const;
    std::chrono::nanoseconds timeUntilLocked(double tokens) const;

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    int64_t m_rate = 0;
    double m_tokens = 0;
    Clock::time_point m_refilledAt;
    int m_waiters = 0;
    int64_t m_granted = 0;
};

} // namespace cohort
