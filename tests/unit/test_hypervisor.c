// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/hypervisor.c: the signatures of the hypervisors named,
// the registers' byte order, and an unknown signature shown escaped.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "hypervisor.h"
#include "memstr.h"

static const struct {
	const char *sig;	// 12 bytes
	const char *want;
} cases[] = {
	{ "KVMKVMKVM\0\0\0", "KVM" },
	{ "TCGTCGTCGTCG", "QEMU TCG" },
	{ "Microsoft Hv", "Hyper-V" },
	{ "VMwareVMware", "VMware" },
	{ "XenVMMXenVMM", "Xen" },
	{ "ACRNACRNACRN", "ACRN" },
	{ "bhyve bhyve ", "bhyve" },
	{ "\0\0\0\0\0\0\0\0\0\0\0\0", "no vendor signature" },
	{ "NewHV\0\0\0\0\0\0\0", "\"NewHV\"" },
	{ "a\"b\\c\x1b\n\xff\0de\0", "\"a\\x22b\\x5cc\\x1b\\x0a\\xff\\x00de\"" },
};

static void test_names(void **state)
{
	char buf[HYPERVISOR_NAME_LEN];
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *got = hypervisor_name(buf, cases[i].sig);
		if (!str_eq(got, cases[i].want))
			fail_msg("case %zu: '%s', want '%s'", i, got, cases[i].want);
	}
	assert_string_equal(hypervisor_name(buf, NULL), "no vendor signature");
}

static void test_longest_fits(void **state)
{
	char buf[HYPERVISOR_NAME_LEN];
	(void)state;

	hypervisor_name(buf, "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c");
	assert_int_equal(str_len(buf), HYPERVISOR_NAME_LEN - 1);
}

static void test_register_order(void **state)
{
	char sig[HYPERVISOR_SIGNATURE_LEN];
	(void)state;

	// What KVM returns: EBX "KVMK", ECX "VMKV", EDX "M\0\0\0".
	hypervisor_signature(0x4b4d564b, 0x564b4d56, 0x0000004d, sig);
	assert_memory_equal(sig, "KVMKVMKVM\0\0\0", HYPERVISOR_SIGNATURE_LEN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_longest_fits),
		cmocka_unit_test(test_register_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
