// SPDX-License-Identifier: GPL-2.0-or-later
// Unit tests for lib/hypervisor.c: every vendor signature it names, from
// the vendors' documentation, each byte of it compared; the registers'
// byte order; an unknown signature shown escaped.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "hypervisor.h"
#include "memstr.h"

// What each vendor documents its hypervisor returns in CPUID leaf
// 0x40000000 (EBX, ECX, EDX as 12 bytes), written out here from their
// documentation rather than from lib/hypervisor.c's table, and the name
// ramsift prints for it.
static const struct {
	const char *sig;	// 12 bytes
	const char *want;
} vendors[] = {
	{ "KVMKVMKVM\0\0\0", "KVM" },		// Linux: KVM_CPUID_SIGNATURE
	{ "TCGTCGTCGTCG", "QEMU TCG" },		// QEMU without KVM (the TCG accelerator)
	{ "Microsoft Hv", "Hyper-V" },		// Hyper-V TLFS: hypervisor discovery
	{ "VMwareVMware", "VMware" },		// VMware: the hypervisor port and CPUID
	{ "XenVMMXenVMM", "Xen" },		// Xen: public/arch-x86/cpuid.h
	{ "ACRNACRNACRN", "ACRN" },		// Linux: the ACRN guest
	{ "bhyve bhyve ", "bhyve" },		// FreeBSD: vmm
	{ " lrpepyh  vr", "Parallels" },	// "prl hyperv  ", each register's bytes reversed
	{ "VBoxVBoxVBox", "VirtualBox" },	// VirtualBox: its minimal paravirtualization
	{ "Jailhouse\0\0\0", "Jailhouse" },	// Linux: the Jailhouse guest
	{ "HAXMHAXMHAXM", "Intel HAXM" },	// Intel HAXM
	{ "___ NVMM ___", "NVMM" },		// NetBSD: nvmm(4)
};

// Signatures that are none of the above, shown as they are.
static const struct {
	const char *sig;	// 12 bytes
	const char *want;
} unknown[] = {
	{ "\0\0\0\0\0\0\0\0\0\0\0\0", "no vendor signature" },
	{ "NewHV\0\0\0\0\0\0\0", "\"NewHV\"" },
	{ "a\"b\\c\x1b\n\xff\0de\0", "\"a\\x22b\\x5cc\\x1b\\x0a\\xff\\x00de\"" },
	{ "KVMKVMKVM   ", "\"KVMKVMKVM   \"" },	// KVM's padded with spaces, not NULs
};

static void test_vendors(void **state)
{
	char buf[HYPERVISOR_NAME_LEN];
	(void)state;

	for (size_t i = 0; i < sizeof(vendors) / sizeof(vendors[0]); i++) {
		const char *got = hypervisor_name(buf, vendors[i].sig);
		if (!str_eq(got, vendors[i].want))
			fail_msg("signature \"%.12s\": '%s', want '%s'", vendors[i].sig, got,
				 vendors[i].want);
	}
}

// A vendor's signature with any one byte changed is no longer that vendor:
// the whole 12 bytes are compared.
static void test_vendors_whole_signature(void **state)
{
	char buf[HYPERVISOR_NAME_LEN], sig[HYPERVISOR_SIGNATURE_LEN];
	(void)state;

	for (size_t i = 0; i < sizeof(vendors) / sizeof(vendors[0]); i++)
		for (size_t at = 0; at < HYPERVISOR_SIGNATURE_LEN; at++) {
			mem_copy(sig, vendors[i].sig, sizeof(sig));
			sig[at] = sig[at] == '#' ? '%' : '#';
			const char *got = hypervisor_name(buf, sig);
			if (got[0] != '"')
				fail_msg("\"%.12s\" with byte %zu changed: '%s', want it quoted",
					 vendors[i].sig, at, got);
		}
}

static void test_unknown(void **state)
{
	char buf[HYPERVISOR_NAME_LEN];
	(void)state;

	for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		const char *got = hypervisor_name(buf, unknown[i].sig);
		if (!str_eq(got, unknown[i].want))
			fail_msg("case %zu: '%s', want '%s'", i, got, unknown[i].want);
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
		cmocka_unit_test(test_vendors),
		cmocka_unit_test(test_vendors_whole_signature),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_longest_fits),
		cmocka_unit_test(test_register_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
