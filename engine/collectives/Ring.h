#pragma once
// Ring all-reduce schedule: how a buffer of `count` values is cut into one chunk per rank, and which chunk a rank
// sends and receives at each of the 2(n-1) steps (n-1 reduce-scatter steps, then n-1 all-gather steps).
// Standard library only.
//
//   chunk i: base = count / n values, the first count % n chunks one more; contiguous, in rank order.
//   reduce-scatter step t (0 <= t < n-1): send chunk (r - t) mod n to rank r+1, receive chunk (r - t - 1) mod n from
//     rank r-1 and add it to the local copy. After the last step rank r holds the full sum of chunk (r + 1) mod n:
//     it *owns* that chunk.
//   all-gather step t (n-1 <= t < 2(n-1), u = t - (n-1)): send chunk (r + 1 - u) mod n, receive chunk (r - u) mod n
//     and replace the local copy.
// The chunk sent at step t is always the chunk received at step t-1, so a block of it can go out as soon as the same
// block came in: the ring is pipelined block by block across steps.
#include <cstddef>
#include <cstdint>

namespace cohort::collectives::ring {

struct Range {
    size_t begin = 0;
    size_t count = 0;
    bool operator==(const Range &) const = default;
};

inline Range chunk(size_t total, int world, int index)
{
    const size_t n = size_t(world), i = size_t(index);
    const size_t base = total / n, extra = total % n;
    return {i * base + (i < extra ? i : extra), base + (i < extra ? 1 : 0)};
}

inline int steps(int world)
{
    return 2 * (world - 1);
}
inline bool isReduceStep(int world, int step)
{
    return step < world - 1;
}

inline int wrap(int v, int world)
{
    return ((v % world) + world) % world;
}

inline int sendChunk(int rank, int world, int step)
{
    return isReduceStep(world, step) ? wrap(rank - step, world) : wrap(rank + 1 - (step - (world - 1)), world);
}

inline int recvChunk(int rank, int world, int step)
{
    return isReduceStep(world, step) ? wrap(rank - step - 1, world) : wrap(rank - (step - (world - 1)), world);
}

// The chunk rank `rank` holds the full reduction of after the reduce-scatter.
inline int ownedChunk(int rank, int world)
{
    return wrap(rank + 1, world);
}

// Blocks of at most `blockElements` values; an empty chunk has none.
inline size_t blockCount(size_t chunkElements, size_t blockElements)
{
    return (chunkElements + blockElements - 1) / blockElements;
}

inline Range block(const Range &chunkRange, size_t blockElements, size_t index)
{
    const size_t begin = index * blockElements;
    const size_t end = begin + blockElements < chunkRange.count ? begin + blockElements : chunkRange.count;
    return {chunkRange.begin + begin, end - begin};
}

} // namespace cohort::collectives::ring
