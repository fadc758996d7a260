// SPDX-License-Identifier: GPL-2.0-or-later
// The name of the hypervisor a guest runs under, from its CPUID vendor
// signature (leaf 0x40000000: EBX, ECX, EDX, 12 bytes; the hypervisor bit
// is CPUID.1:ECX bit 31, SDM vol. 2A, CPUID, "Hypervisor" reserved for
// hypervisors' use).
#ifndef RAMSIFT_LIB_HYPERVISOR_H
#define RAMSIFT_LIB_HYPERVISOR_H

#include <stdbool.h>
#include <stdint.h>

#define HYPERVISOR_SIGNATURE_LEN 12
// The longest name: a signature of 12 bytes each escaped as \xNN, quotes, NUL.
#define HYPERVISOR_NAME_LEN (HYPERVISOR_SIGNATURE_LEN * 4 + 3)

// The signature as the three registers EBX, ECX, EDX hold it, in order.
void hypervisor_signature(uint32_t ebx, uint32_t ecx, uint32_t edx,
			  char sig[HYPERVISOR_SIGNATURE_LEN]);

// The hypervisor's name into buf: a known signature's name ("KVM", "QEMU
// TCG", "Hyper-V", ...); an unknown one in double quotes, its trailing NULs
// dropped and every byte that is not printable ASCII, '"' or '\' written as
// \xNN; "no vendor signature" when sig is NULL or all NULs. Returns buf.
const char *hypervisor_name(char buf[HYPERVISOR_NAME_LEN], const char *sig);

#endif
