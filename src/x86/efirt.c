// SPDX-License-Identifier: GPL-2.0-or-later
// UEFI runtime calls (efirt.h). The tables' layouts are the UEFI
// specification's (2.10, 4.3 and 4.5), for x64.
#include <stdbool.h>

#include "efirt.h"
#include "memstr.h"

#define SYSTAB_SIGNATURE	0x5453595320494249ull	// "IBI SYST"
#define RUNTIME_SIGNATURE	0x56524553544e5552ull	// "RUNTSERV"
#define SYSTAB_RUNTIME		88	// EFI_SYSTEM_TABLE.RuntimeServices
#define HDR_REVISION		8	// and HeaderSize in the next 32 bits
#define RT_GET_VARIABLE		72
#define RT_SET_VARIABLE		88
#define RT_QUERY_VARIABLE_INFO	128
#define UEFI_2_0		0x00020000u

// The working memory: the stack grows down from STACK_TOP; the arguments
// above it.
#define STACK_TOP	(64u * 1024)
#define ARG_NAME	STACK_TOP		// UCS-2, 64 characters at most
#define ARG_GUID	(ARG_NAME + 128)
#define ARG_OUT		(ARG_GUID + 16)	// three 64-bit results
#define ARG_DATA	(ARG_OUT + 24 + 8)
#define NAME_MAX	63
_Static_assert(ARG_DATA + EFIRT_DATA_MAX <= EFIRT_WORK_BYTES, "the arguments fit the work area");

static uint64_t word(uint64_t addr)
{
	return *(const volatile uint64_t *)(uintptr_t)addr;
}

static bool below(uint64_t addr, uint64_t bytes, uint64_t top)
{
	return addr != 0 && addr < top && bytes <= top - addr;
}

const char *efirt_find(struct efirt *rt, uint64_t systab, uint64_t mapped_top)
{
	if (!below(systab, SYSTAB_RUNTIME + 8, mapped_top) || word(systab) != SYSTAB_SIGNATURE)
		return "the loader's EFI system table pointer does not lead to a system table";
	uint64_t t = word(systab + SYSTAB_RUNTIME);
	if (!below(t, RT_QUERY_VARIABLE_INFO + 8, mapped_top) || word(t) != RUNTIME_SIGNATURE)
		return "the EFI system table names no runtime services table";
	uint64_t revision_size = word(t + HDR_REVISION);
	uint32_t revision = (uint32_t)revision_size, size = (uint32_t)(revision_size >> 32);
	rt->revision = revision;
	rt->get_variable = word(t + RT_GET_VARIABLE);
	rt->set_variable = word(t + RT_SET_VARIABLE);
	rt->query_variable_info = revision >= UEFI_2_0 && size >= RT_QUERY_VARIABLE_INFO + 8 ?
				  word(t + RT_QUERY_VARIABLE_INFO) : 0;
	if (!below(rt->get_variable, 1, mapped_top) || !below(rt->set_variable, 1, mapped_top) ||
	    (rt->query_variable_info && !below(rt->query_variable_info, 1, mapped_top)))
		return "the runtime services lie outside the memory ramsift maps";
	return NULL;
}

// SSE on, as the firmware had it during boot (UEFI 2.10, 2.3.4: x64
// calls may use the floating-point and SSE registers): CR0.MP set and EM
// clear, CR4.OSFXSR and OSXMMEXCPT set.
static void enable_sse(void)
{
	uint64_t cr0, cr4;

	__asm__ volatile("mov %%cr0, %0" : "=r"(cr0));
	__asm__ volatile("mov %%cr4, %0" : "=r"(cr4));
	cr0 = (cr0 & ~(1ull << 2)) | (1ull << 1);
	cr4 |= (1ull << 9) | (1ull << 10);
	__asm__ volatile("mov %0, %%cr0" : : "r"(cr0));
	__asm__ volatile("mov %0, %%cr4" : : "r"(cr4));
}

static uint64_t call(uint64_t fn, uint64_t work, const uint64_t a[5], struct trap_catch *k)
{
	enable_sse();
	return trap_catch_call(k, fn, work + STACK_TOP, a);
}

uint64_t efirt_query_variable_info(const struct efirt *rt, uint32_t attrs, uint64_t out[3],
				   uint64_t work, struct trap_catch *k)
{
	uint64_t *res = (uint64_t *)(uintptr_t)(work + ARG_OUT);
	const uint64_t a[5] = { attrs, work + ARG_OUT, work + ARG_OUT + 8, work + ARG_OUT + 16, 0 };

	mem_set(res, 0, 24);
	uint64_t status = call(rt->query_variable_info, work, a, k);
	mem_copy(out, res, 24);
	return status;
}

// The name in UCS-2 and the GUID into the work area.
static void name_guid(uint64_t work, const char *name, const uint8_t guid[16])
{
	uint16_t *ucs2 = (uint16_t *)(uintptr_t)(work + ARG_NAME);
	size_t n = 0;

	for (; name[n] && n < NAME_MAX; n++)
		ucs2[n] = (uint8_t)name[n];
	ucs2[n] = 0;
	mem_copy((void *)(uintptr_t)(work + ARG_GUID), guid, 16);
}

uint64_t efirt_get_variable(const struct efirt *rt, const char *name, const uint8_t guid[16],
			    void *data, size_t cap, size_t *size, uint64_t work,
			    struct trap_catch *k)
{
	uint64_t *in_out = (uint64_t *)(uintptr_t)(work + ARG_OUT);

	name_guid(work, name, guid);
	if (cap > EFIRT_DATA_MAX)
		cap = EFIRT_DATA_MAX;
	*in_out = cap;
	const uint64_t a[5] = { work + ARG_NAME, work + ARG_GUID, 0, work + ARG_OUT, work + ARG_DATA };
	uint64_t status = call(rt->get_variable, work, a, k);
	*size = (size_t)*in_out;
	if (status == 0 && *size <= cap)
		mem_copy(data, (const void *)(uintptr_t)(work + ARG_DATA), *size);
	return status;
}

uint64_t efirt_set_variable(const struct efirt *rt, const char *name, const uint8_t guid[16],
			    uint32_t attrs, const void *data, size_t size, uint64_t work,
			    struct trap_catch *k)
{
	name_guid(work, name, guid);
	if (size > EFIRT_DATA_MAX)
		size = EFIRT_DATA_MAX;
	mem_copy((void *)(uintptr_t)(work + ARG_DATA), data, size);
	const uint64_t a[5] = { work + ARG_NAME, work + ARG_GUID, attrs, size, work + ARG_DATA };
	return call(rt->set_variable, work, a, k);
}

static const struct {
	uint64_t code;
	const char *name;
} statuses[] = {
	{ 0, "EFI_SUCCESS" },
	{ EFI_ERROR_BIT | 2, "EFI_INVALID_PARAMETER" },
	{ EFI_ERROR_BIT | 3, "EFI_UNSUPPORTED" },
	{ EFI_ERROR_BIT | 5, "EFI_BUFFER_TOO_SMALL" },
	{ EFI_ERROR_BIT | 7, "EFI_DEVICE_ERROR" },
	{ EFI_ERROR_BIT | 8, "EFI_WRITE_PROTECTED" },
	{ EFI_ERROR_BIT | 9, "EFI_OUT_OF_RESOURCES" },
	{ EFI_ERROR_BIT | 14, "EFI_NOT_FOUND" },
	{ EFI_ERROR_BIT | 26, "EFI_SECURITY_VIOLATION" },
};

const char *efirt_status_name(uint64_t status)
{
	for (size_t i = 0; i < sizeof(statuses) / sizeof(statuses[0]); i++)
		if (statuses[i].code == status)
			return statuses[i].name;
	return "an unknown status";
}
