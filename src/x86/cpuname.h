// SPDX-License-Identifier: GPL-2.0-or-later
// The processor's name as its maker wrote it into the CPUID brand string
// (SDM vol. 2A, CPUID leaves 80000002h-80000004h), for the status screen.
#ifndef RAMSIFT_SRC_X86_CPUNAME_H
#define RAMSIFT_SRC_X86_CPUNAME_H

#include <stdbool.h>

#define CPU_NAME_LEN 49	// 48 characters and the NUL

// The brand string into buf, its leading and repeated spaces dropped.
// False, buf empty, when the CPU has none.
bool cpu_name(char buf[CPU_NAME_LEN]);

#endif
