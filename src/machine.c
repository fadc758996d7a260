// SPDX-License-Identifier: GPL-2.0-or-later
// The machine's identity and power registers (see machine.h): lib/boot
// parses, this file logs and hands the registers to the power driver.
#include "log.h"
#include "machine.h"
#include "memstr.h"
#include "x86/cpu.h"
#include "x86/power.h"

// The longest machine: or dimm: line: every string at SMBIOS_STRING_MAX,
// each byte escaped (two characters), and the keys.
#define LINE_LEN (8 * (2 * SMBIOS_STRING_MAX + 24))

static struct machine m;
static bool ready;
static struct smbios_info smbios;
static uint64_t top;	// the identity map's end

// Tables are read where the page tables map them: all RAM and the first
// 4 GiB.
static bool read_mapped(void *ctx, uint64_t addr, void *buf, size_t n)
{
	(void)ctx;
	if (addr >= top || n > top - addr)
		return false;
	mem_copy(buf, (const void *)(uintptr_t)addr, n);
	return true;
}

// A register of the FADT as the power driver takes it; addr 0 when it
// cannot be used (a port past 16 bits, memory the page tables do not map).
static struct power_reg reg(const struct acpi_gas *g, const char *what)
{
	static const enum power_space spaces[] = {
		[ACPI_SPACE_MEMORY] = POWER_SPACE_MEMORY,
		[ACPI_SPACE_IO] = POWER_SPACE_IO,
		[ACPI_SPACE_PCI] = POWER_SPACE_PCI,
	};
	struct power_reg r = { POWER_SPACE_IO, 0 };

	if (g->address == 0 || g->space > ACPI_SPACE_PCI)
		return r;
	if ((g->space == ACPI_SPACE_IO && g->address > 0xffff) ||
	    (g->space == ACPI_SPACE_MEMORY && (g->address >= top || top - g->address < 2))) {
		log_warn("power: the %s at 0x%llx cannot be reached; not used", what,
			 (unsigned long long)g->address);
		return r;
	}
	r.space = spaces[g->space];
	r.addr = g->address;
	return r;
}

// Returns what the FADT says of an i8042.
static enum acpi_i8042 power_init(bootinfo_warn_fn warn, const struct acpi_result *acpi)
{
	static struct acpi_power p;
	char line[320];

	acpi_find_power(read_mapped, warn, NULL, acpi, &p);
	log_info("power: %s", acpi_describe_power(line, sizeof(line), &p));
	if (p.s5) {
		struct power_reg a = reg(&p.pm1a_cnt, "PM1a control block");
		struct power_reg b = reg(&p.pm1b_cnt, "PM1b control block");
		if (a.addr && (b.addr || p.pm1b_cnt.address == 0))
			power_set_sleep(a, b, p.slp_typ_a, p.slp_typ_b,
					p.smi_cmd <= 0xffff ? (uint16_t)p.smi_cmd : 0, p.acpi_enable);
	}
	if (p.reset)
		power_set_reset(reg(&p.reset_reg, "ACPI reset register"), p.reset_value);
	if (p.i8042 == ACPI_8042_ABSENT)
		power_set_no_kbc();
	return p.i8042;
}

static void identity_init(const struct bootinfo *bi, bootinfo_warn_fn warn)
{
	static char line[LINE_LEN];

	if (smbios_find(bi, read_mapped, warn, NULL, &smbios) != SMBIOS_FOUND) {
		log_info("machine: unknown (%s)", smbios_status_text(smbios.status));
		return;
	}
	smbios_describe_system(line, sizeof(line), &smbios);
	log_text("machine: ", line);
	for (size_t i = 0; i < smbios.ndimms; i++) {
		smbios_describe_dimm(line, sizeof(line), &smbios.dimm[i]);
		log_text("dimm: ", line);
	}
	if (smbios.dimms_beyond)
		log_info("dimm: %zu more memory devices, not listed (ramsift keeps %u)",
			 smbios.dimms_beyond, SMBIOS_DIMMS_MAX);
}

// After the machine: line the identity printed (which tools read as the
// first machine: line).
static const char *hypervisor_init(void)
{
	static char name[HYPERVISOR_NAME_LEN];
	char sig[HYPERVISOR_SIGNATURE_LEN];

	if (!cpu_hypervisor(sig))
		return NULL;
	log_info("machine: running under a hypervisor (%s): the memory tested is virtual; "
		 "errors reflect the host", hypervisor_name(name, sig));
	return name;
}

void machine_init(const struct bootinfo *bi, bootinfo_warn_fn warn, const struct acpi_result *acpi,
		  uint64_t mapped_top, uint64_t seed)
{
	top = mapped_top;
	identity_init(bi, warn);
	const char *hypervisor = hypervisor_init();
	enum acpi_i8042 i8042 = power_init(warn, acpi);
	m = (struct machine){ bi, seed, acpi->status == ACPI_CPUS_FOUND ? (unsigned)acpi->nenabled : 0,
			      &smbios, hypervisor, i8042 };
	ready = true;
}

const struct machine *machine_get(void)
{
	return ready ? &m : NULL;
}
