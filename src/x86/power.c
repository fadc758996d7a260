// SPDX-License-Identifier: GPL-2.0-or-later
// Power off, reset and QEMU exit. The ACPI registers are set at start-up
// from the FADT; the legacy ways (keyboard controller, port 0xcf9, triple
// fault) need nothing.
#include "io.h"
#include "log.h"
#include "pci_config.h"
#include "power.h"
#include "timer.h"

#define KBC_STATUS	0x64
#define KBC_PULSE_RESET	0xfe
#define RESET_CONTROL	0xcf9

// PM1 control register bits (ACPI 6.5 section 4.8.3.2.1).
#define PM1_SCI_EN		(1u << 0)
#define PM1_SLP_TYP_SHIFT	10
#define PM1_SLP_TYP_MASK	(7u << PM1_SLP_TYP_SHIFT)
#define PM1_SLP_EN		(1u << 13)
#define ACPI_MODE_WAIT_MS	3000	// Linux's acpi_enable() waits 3 s too
#define RESET_WAIT_MS		500
#define DEBUG_EXIT_WAIT_MS	2000

static struct {
	bool set;
	struct power_reg pm1[2];
	uint8_t slp_typ[2];
	uint16_t smi_cmd;
	uint8_t acpi_enable;
} sleep_regs;

static struct {
	bool set;
	struct power_reg reg;
	uint8_t value;
} reset_reg;

static bool kbc_absent;

static inline void outw(uint16_t port, uint16_t v)
{
	__asm__ volatile("outw %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint16_t inw(uint16_t port)
{
	uint16_t v;
	__asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static uint16_t reg_read16(struct power_reg r)
{
	if (r.space == POWER_SPACE_MEMORY)
		return *(volatile uint16_t *)(uintptr_t)r.addr;
	return inw((uint16_t)r.addr);
}

static void reg_write16(struct power_reg r, uint16_t v)
{
	if (r.space == POWER_SPACE_MEMORY)
		*(volatile uint16_t *)(uintptr_t)r.addr = v;
	else
		outw((uint16_t)r.addr, v);
}

static void reg_write8(struct power_reg r, uint8_t v)
{
	if (r.space == POWER_SPACE_MEMORY) {
		*(volatile uint8_t *)(uintptr_t)r.addr = v;
	} else if (r.space == POWER_SPACE_PCI) {
		pci_write8(PCI_BDF(0, r.addr >> 32 & 0x1f, r.addr >> 16 & 7), r.addr & 0xff, v);
	} else {
		outb((uint16_t)r.addr, v);
	}
}

void power_set_sleep(struct power_reg pm1a, struct power_reg pm1b, uint8_t slp_typ_a,
		     uint8_t slp_typ_b, uint16_t smi_cmd, uint8_t acpi_enable)
{
	sleep_regs.pm1[0] = pm1a;
	sleep_regs.pm1[1] = pm1b;
	sleep_regs.slp_typ[0] = slp_typ_a;
	sleep_regs.slp_typ[1] = slp_typ_b;
	sleep_regs.smi_cmd = smi_cmd;
	sleep_regs.acpi_enable = acpi_enable;
	sleep_regs.set = pm1a.addr != 0;
}

void power_set_reset(struct power_reg reg, uint8_t value)
{
	reset_reg.reg = reg;
	reset_reg.value = value;
	reset_reg.set = reg.addr != 0;
}

// Firmware that starts in legacy mode owns the PM registers through SMM
// until the OS asks for ACPI mode (ACPI 6.5 section 4.8.2.1.1); writing
// SLP_EN without it may be ignored.
bool power_acpi_mode(void)
{
	if (reg_read16(sleep_regs.pm1[0]) & PM1_SCI_EN)
		return true;
	if (sleep_regs.smi_cmd == 0 || sleep_regs.acpi_enable == 0)
		return false;
	outb(sleep_regs.smi_cmd, sleep_regs.acpi_enable);
	for (uint64_t start = timer_ms(); timer_ms() - start < ACPI_MODE_WAIT_MS;)
		if (reg_read16(sleep_regs.pm1[0]) & PM1_SCI_EN)
			return true;
	return false;
}

void power_set_no_kbc(void)
{
	kbc_absent = true;
}

bool power_off_known(void)
{
	return sleep_regs.set;
}

void power_off(void)
{
	// As ACPICA does: SLP_TYP first, then SLP_TYP with SLP_EN, PM1a before
	// PM1b, the registers' other bits kept.
	uint16_t v[2] = { 0, 0 };
	for (int i = 0; i < 2; i++)
		if (sleep_regs.pm1[i].addr) {
			v[i] = reg_read16(sleep_regs.pm1[i]) & ~(PM1_SLP_TYP_MASK | PM1_SLP_EN);
			v[i] |= (uint16_t)(sleep_regs.slp_typ[i] << PM1_SLP_TYP_SHIFT);
			reg_write16(sleep_regs.pm1[i], v[i]);
		}
	for (int i = 0; i < 2; i++)
		if (sleep_regs.pm1[i].addr)
			reg_write16(sleep_regs.pm1[i], v[i] | PM1_SLP_EN);
	timer_delay_ms(POWER_OFF_WAIT_MS);
}

bool power_reset_acpi(void)
{
	static const char *const space[] = { "I/O port", "memory", "PCI configuration" };

	if (!reset_reg.set)
		return false;
	log_info("power: reset through the ACPI reset register (%s 0x%llx, value 0x%x)",
		 space[reset_reg.reg.space], (unsigned long long)reset_reg.reg.addr,
		 reset_reg.value);
	reg_write8(reset_reg.reg, reset_reg.value);
	timer_delay_ms(RESET_WAIT_MS);
	return true;
}

void power_reset_legacy(void)
{
	if (!kbc_absent) {
		log_info("power: reset through the keyboard controller");
		for (int i = 0; i < 100000 && (inb(KBC_STATUS) & 0x02); i++)
			cpu_relax();
		outb(KBC_STATUS, KBC_PULSE_RESET);
		timer_delay_ms(RESET_WAIT_MS);
	}
	log_info("power: reset through port 0xcf9");
	outb(RESET_CONTROL, 0x02);
	outb(RESET_CONTROL, 0x06);
	timer_delay_ms(RESET_WAIT_MS);
	// Last resort: an empty IDT turns the next interrupt into a triple fault.
	log_info("power: reset through a triple fault");
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) none = { 0, 0 };
	__asm__ volatile("lidt %0; int3" : : "m"(none));
}

void power_qemu_exit(uint8_t code)
{
	outb(POWER_QEMU_EXIT_PORT, code);
	// QEMU 7.2 exits within the write; QEMU 10 (tests/e2e/smp-x2apic.sh)
	// only asks its main loop to, and the CPU runs on for a moment.
	timer_delay_ms(DEBUG_EXIT_WAIT_MS);
}
