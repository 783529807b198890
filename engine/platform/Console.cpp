#include "platform/Console.h"

#include <cstdio>
#ifdef _WIN32
#  include <io.h>
#else
#  include <unistd.h>
#endif

namespace cohort {

bool stdoutIsTerminal()
{
#ifdef _WIN32
    return _isatty(_fileno(stdout)) != 0;
#else
    return isatty(fileno(stdout)) != 0;
#endif
}

} // namespace cohort
