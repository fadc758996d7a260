// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/mce.c: records sorted into empty, corrected and
// uncorrected; the address a record names (ADDRV, MISC's mode and LSB with
// and without SER_P); the line; the banks left to the firmware.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "mce.h"

// A memory controller's read error, as the e2e tests inject it.
#define MC_READ 0x009full
#define CORRECTED (MCI_STATUS_VAL | MCI_STATUS_EN | MCI_STATUS_MISCV | MCI_STATUS_ADDRV | MC_READ)
#define FATAL (CORRECTED | MCI_STATUS_UC | MCI_STATUS_PCC)

static void test_kind(void **state)
{
	(void)state;
	assert_int_equal(mce_kind(0), MCE_EMPTY);
	assert_int_equal(mce_kind(CORRECTED & ~MCI_STATUS_VAL), MCE_EMPTY);
	assert_int_equal(mce_kind(FATAL & ~MCI_STATUS_VAL), MCE_EMPTY);
	assert_int_equal(mce_kind(CORRECTED), MCE_CORRECTED);
	assert_int_equal(mce_kind(MCI_STATUS_VAL | MCI_STATUS_OVER), MCE_CORRECTED);
	assert_int_equal(mce_kind(FATAL), MCE_UNCORRECTED);
	assert_int_equal(mce_kind(MCI_STATUS_VAL | MCI_STATUS_UC), MCE_UNCORRECTED);
}

static const struct {
	uint64_t status, addr, misc, cap;
	bool named;
	uint64_t phys;
} addrs[] = {
	// ADDRV clear: no address, whatever ADDR holds.
	{ CORRECTED & ~MCI_STATUS_ADDRV, 0x1234, 0x86, MCG_CAP_SER_P, false, 0 },
	// Physical mode, LSB 6: the cache line.
	{ CORRECTED, 0x12345678, (2 << 6) | 6, MCG_CAP_SER_P, true, 0x12345640 },
	// LSB 12: the page.
	{ CORRECTED, 0x12345678, (2 << 6) | 12, MCG_CAP_SER_P, true, 0x12345000 },
	// Linear or memory mode: not a physical address.
	{ CORRECTED, 0x12345678, (1 << 6) | 6, MCG_CAP_SER_P, false, 0 },
	{ CORRECTED, 0x12345678, (3 << 6) | 6, MCG_CAP_SER_P, false, 0 },
	// Without SER_P MISC's meaning is the model's: ADDR as it is.
	{ CORRECTED, 0x12345678, (1 << 6) | 6, 0, true, 0x12345678 },
	// Without MISCV likewise.
	{ CORRECTED & ~MCI_STATUS_MISCV, 0x12345678, 0, MCG_CAP_SER_P, true, 0x12345678 },
	// Bits above 51 are not an address; an LSB past 51 keeps bit 51.
	{ CORRECTED, 0xfff0000012345678ull, 0x86, MCG_CAP_SER_P, true, 0x12345640 },
	{ CORRECTED, 0x000fffffffffffffull, (2 << 6) | 63, MCG_CAP_SER_P, true, 0x0008000000000000ull },
};

static void test_phys_addr(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(addrs) / sizeof(addrs[0]); i++) {
		struct mce_record r = { 1, 2, addrs[i].status, addrs[i].addr, addrs[i].misc };
		uint64_t phys = 0;
		bool named = mce_phys_addr(&r, addrs[i].cap, &phys);
		if (named != addrs[i].named || (named && phys != addrs[i].phys))
			fail_msg("case %zu: named=%d phys=0x%llx, want named=%d phys=0x%llx", i, named,
				 (unsigned long long)phys, addrs[i].named,
				 (unsigned long long)addrs[i].phys);
	}
}

static void test_line(void **state)
{
	struct mce_record r = { 3, 9, CORRECTED, 0x5a5a5c0, 0x86 };
	char buf[160];
	(void)state;

	mce_line(buf, sizeof(buf), &r, "corrected");
	assert_string_equal(buf, "MCE cpu=3 bank=9 status=0x9c0000000000009f "
			    "addr=0x0000000005a5a5c0 misc=0x0000000000000086 corrected");
}

static void test_firmware_banks(void **state)
{
	(void)state;
	assert_true(mce_bank_left_to_firmware(MCE_VENDOR_INTEL, 6, 0x0f, 0));	// Core 2
	assert_true(mce_bank_left_to_firmware(MCE_VENDOR_INTEL, 6, 0x19, 0));
	assert_false(mce_bank_left_to_firmware(MCE_VENDOR_INTEL, 6, 0x1a, 0));	// Nehalem
	assert_false(mce_bank_left_to_firmware(MCE_VENDOR_INTEL, 6, 0x0f, 1));
	assert_false(mce_bank_left_to_firmware(MCE_VENDOR_INTEL, 15, 0x02, 0));	// Pentium 4
	assert_true(mce_bank_left_to_firmware(MCE_VENDOR_AMD, 6, 0x08, 0));	// Athlon
	assert_false(mce_bank_left_to_firmware(MCE_VENDOR_AMD, 0x17, 0x01, 0));
	assert_false(mce_bank_left_to_firmware(MCE_VENDOR_OTHER, 6, 0x01, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kind),
		cmocka_unit_test(test_phys_addr),
		cmocka_unit_test(test_line),
		cmocka_unit_test(test_firmware_banks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
