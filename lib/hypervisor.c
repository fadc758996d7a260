// SPDX-License-Identifier: GPL-2.0-or-later
// Hypervisor vendor signatures (see hypervisor.h), as each hypervisor
// documents the value it returns in CPUID leaf 0x40000000.
#include "fmt.h"
#include "hypervisor.h"
#include "memstr.h"

static const struct {
	char sig[HYPERVISOR_SIGNATURE_LEN + 1];
	const char *name;
} known[] = {
	{ "KVMKVMKVM\0\0\0", "KVM" },
	{ "TCGTCGTCGTCG", "QEMU TCG" },
	{ "Microsoft Hv", "Hyper-V" },
	{ "VMwareVMware", "VMware" },
	{ "XenVMMXenVMM", "Xen" },
	{ "ACRNACRNACRN", "ACRN" },
	{ "bhyve bhyve ", "bhyve" },
	{ " lrpepyh  vr", "Parallels" },
	{ "VBoxVBoxVBox", "VirtualBox" },
	{ "Jailhouse\0\0\0", "Jailhouse" },
	{ "HAXMHAXMHAXM", "Intel HAXM" },
	{ "___ NVMM ___", "NVMM" },
};

void hypervisor_signature(uint32_t ebx, uint32_t ecx, uint32_t edx,
			  char sig[HYPERVISOR_SIGNATURE_LEN])
{
	const uint32_t regs[3] = { ebx, ecx, edx };

	for (unsigned i = 0; i < HYPERVISOR_SIGNATURE_LEN; i++)
		sig[i] = (char)(regs[i / 4] >> (8 * (i % 4)));
}

const char *hypervisor_name(char buf[HYPERVISOR_NAME_LEN], const char *sig)
{
	size_t len = HYPERVISOR_SIGNATURE_LEN, at = 0;

	while (sig && len && sig[len - 1] == '\0')
		len--;
	if (!sig || len == 0) {
		fmt_snprintf(buf, HYPERVISOR_NAME_LEN, "no vendor signature");
		return buf;
	}
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (mem_cmp(sig, known[i].sig, HYPERVISOR_SIGNATURE_LEN) == 0) {
			fmt_snprintf(buf, HYPERVISOR_NAME_LEN, "%s", known[i].name);
			return buf;
		}
	buf[at++] = '"';
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)sig[i];
		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
			buf[at++] = (char)c;
		else
			at += (size_t)fmt_snprintf(buf + at, HYPERVISOR_NAME_LEN - at, "\\x%02x", c);
	}
	buf[at++] = '"';
	buf[at] = '\0';
	return buf;
}
