// SHARDCAST manifests, their signature files and the downloader's progress record all come from relays or disk.
#include "core/Sha256.h"
#include "shardcast/DownloadState.h"
#include "shardcast/Manifest.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    if (auto m = cohort::shardcast::Manifest::parse(bytes)) {
        // What parses must be self-consistent and survive a round trip.
        qint64 total = 0;
        for (const auto &s : m->shards)
            total += s.size;
        if (total != m->fileSize)
            __builtin_trap();
        auto again = cohort::shardcast::Manifest::parse(m->toJson());
        if (!again || !(*again == *m))
            __builtin_trap();
    }
    const QByteArray key(32, 'k');
    (void)cohort::shardcast::SignedManifest::verify(bytes, bytes, key);
    (void)cohort::shardcast::DownloadState::parse(bytes, cohort::Sha256::hash("m"), {1 << 20, 1 << 20, 5});
    return 0;
}
