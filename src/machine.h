// SPDX-License-Identifier: GPL-2.0-or-later
// The machine the run reports on: its identity (SMBIOS, the machine: and
// dimm: lines), its ways to power off and reset (the ACPI FADT, the power:
// line, handed to src/x86/power as plain registers), and what the JSON
// line says about the boot (loader, firmware, seed, CPUs).
#ifndef RAMSIFT_SRC_MACHINE_H
#define RAMSIFT_SRC_MACHINE_H

#include <stdint.h>

#include "boot/acpi.h"
#include "boot/multiboot.h"
#include "boot/smbios.h"

struct machine {
	const struct bootinfo *bi;	// the loader's information
	uint64_t seed;			// the run's seed
	unsigned cpus;			// enabled CPUs the MADT lists; 0: unknown
	const struct smbios_info *smbios;	// status says whether it was found
	const char *hypervisor;		// its name (lib/hypervisor.h), NULL: none
	enum acpi_i8042 i8042;		// whether the FADT says an i8042 may be there
};

// Read the identity, the hypervisor if any and the power registers and
// log them. Entered once by
// kmain() on the BSP, after the page tables map [0, mapped_top) and the
// MADT was read (acpi: its result, which names the FADT); bi and what the
// result points to must live as long as the run. warn gets the tables'
// problems. seed: the run's.
void machine_init(const struct bootinfo *bi, bootinfo_warn_fn warn, const struct acpi_result *acpi,
		  uint64_t mapped_top, uint64_t seed);

// What machine_init found; NULL before it ran (an exception came first).
const struct machine *machine_get(void);

#endif
