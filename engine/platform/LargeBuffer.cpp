#include "platform/LargeBuffer.h"

#if defined(__linux__)
#  include <sys/mman.h>
#endif

namespace cohort::platform {

bool adviseHugePages(void *data, std::size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes < kHugePageBytes)
        return false;
    // EINVAL where the kernel has no THP: the memory simply stays on normal pages.
    return ::madvise(data, bytes, MADV_HUGEPAGE) == 0;
#else
    // Windows large pages need the "Lock pages in memory" privilege, which a contributor's account does not have.
    (void)data;
    (void)bytes;
    return false;
#endif
}

} // namespace cohort::platform
