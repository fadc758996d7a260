// SPDX-License-Identifier: GPL-2.0-or-later
// The UEFI runtime services in physical mode: after the loader's
// ExitBootServices and with no SetVirtualAddressMap, on the identity map,
// on the BSP with interrupts off (UEFI 2.10, 8.1 and 2.3.4). Found through
// the system table the loader passed; every call runs on a stack in
// identity-mapped memory the caller gives, with exceptions caught.
#ifndef RAMSIFT_SRC_X86_EFIRT_H
#define RAMSIFT_SRC_X86_EFIRT_H

#include <stddef.h>
#include <stdint.h>

#include "trap.h"

#define EFI_ERROR_BIT (1ull << 63)

// The working memory of a call: the callee's stack, then the arguments.
#define EFIRT_WORK_BYTES (72u * 1024)
#define EFIRT_DATA_MAX 4096

struct efirt {
	uint32_t revision;		// the runtime services table's (0x00020046: 2.70)
	uint64_t get_variable;		// the functions' physical addresses
	uint64_t set_variable;
	uint64_t query_variable_info;	// 0: before UEFI 2.0
};

// Find the runtime services through the system table at systab, all of
// which must lie below mapped_top. NULL when found; else why not.
const char *efirt_find(struct efirt *rt, uint64_t systab, uint64_t mapped_top);

// QueryVariableInfo for attrs: the store's size, its bytes free and the
// largest variable, into out[0..3). Returns the EFI status; an exception
// in the firmware leaves k->faulted set. work: EFIRT_WORK_BYTES of
// identity-mapped memory, 16-byte aligned.
uint64_t efirt_query_variable_info(const struct efirt *rt, uint32_t attrs, uint64_t out[3],
				   uint64_t work, struct trap_catch *k);

// GetVariable(name, guid) into data[0..cap): *size gets the variable's
// size (also when it exceeds cap: EFI_BUFFER_TOO_SMALL). As above.
uint64_t efirt_get_variable(const struct efirt *rt, const char *name, const uint8_t guid[16],
			    void *data, size_t cap, size_t *size, uint64_t work,
			    struct trap_catch *k);

// SetVariable(name, guid, attrs, data[0..size)), name ASCII. As above.
uint64_t efirt_set_variable(const struct efirt *rt, const char *name, const uint8_t guid[16],
			    uint32_t attrs, const void *data, size_t size, uint64_t work,
			    struct trap_catch *k);

// "EFI_OUT_OF_RESOURCES" and the like, or "an unknown status".
const char *efirt_status_name(uint64_t status);

#endif
