#pragma once
// Giving up every capability, for a process about to run what it does not trust: as root,
// CAP_SYS_PTRACE opens another process's memory and environment through /proc (the reference
// process's secret seeds, though it is not dumpable) and CAP_DAC_OVERRIDE every file.
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

namespace kforge {

// No capability now (capset to nothing) nor after an exec (the bounding set emptied). System calls
// only: safe in a child between fork and exec. False where capset failed (errno says why).
inline bool drop_all_capabilities() {
  for (int cap = 0; cap <= 63; ++cap)
    if (::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL && errno != EPERM) break;
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2] = {};
  return ::syscall(SYS_capset, &header, data) == 0;
}

}  // namespace kforge
