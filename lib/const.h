// SPDX-License-Identifier: GPL-2.0-or-later
// Numbers that assembly, the linker script and C all read. UL(x) and ULL(x)
// give a constant its C suffix in C and leave it bare under __ASSEMBLY__ (the
// .S files and boot/link.ld.S), where the assembler and the linker reject a
// suffix; as Linux's include/uapi/linux/const.h does. Headers included by
// assembly write their constants through these and keep C-only parts inside
// #ifndef __ASSEMBLY__.
#ifndef RAMSIFT_LIB_CONST_H
#define RAMSIFT_LIB_CONST_H

#ifdef __ASSEMBLY__
#define CONST_SUFFIX(x, suffix) x
#else
#define CONST_PASTE(x, suffix) x##suffix
#define CONST_SUFFIX(x, suffix) CONST_PASTE(x, suffix)
#endif

#define UL(x) CONST_SUFFIX(x, UL)
#define ULL(x) CONST_SUFFIX(x, ULL)

// Binary sizes in bytes.
#define KiB (ULL(1) << 10)
#define MiB (ULL(1) << 20)
#define GiB (ULL(1) << 30)

#endif
