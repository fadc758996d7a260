// SPDX-License-Identifier: GPL-2.0-or-later
// The local APIC (see apic.h). Register offsets are the xAPIC's memory
// offsets; in x2APIC mode the same register is MSR 0x800 + offset / 16, and
// the ICR is one 64-bit MSR with the destination in its high half (SDM vol.
// 3A, 11.12.1 and 11.12.9). The registers' memory is uncacheable through the
// MTRRs the firmware sets for the APIC range, which the single write-back
// mapping of paging.c leaves in charge (SDM vol. 3A, 11.4.1 asks for UC).
#include "apic.h"
#include "io.h"
#include "timer.h"

#define MSR_APIC_BASE		0x1b
#define APIC_BASE_EXTD		(1ull << 10)	// x2APIC mode
#define APIC_BASE_EN		(1ull << 11)	// globally enabled
#define APIC_BASE_ADDR		0x000ffffffffff000ull
#define MSR_X2APIC		0x800
#define CPUID_1_EDX_APIC	(1u << 9)

#define APIC_ID			0x020
#define APIC_TPR		0x080
#define APIC_EOI		0x0b0
#define APIC_SVR		0x0f0
#define APIC_ESR		0x280
#define APIC_ICR_LO		0x300
#define APIC_ICR_HI		0x310
#define APIC_LVT_TIMER		0x320
#define APIC_TIMER_INIT		0x380
#define APIC_TIMER_DIV		0x3e0

#define SVR_ENABLE		(1u << 8)	// APIC software enable (11.9)
#define LVT_TIMER_PERIODIC	(1u << 17)	// timer mode (11.5.4)
#define TIMER_DIV_16		0x3		// divide configuration register (11.5.4)

// ICR low word (SDM vol. 3A, 11.6.1): delivery mode in bits 8-10,
// delivery status 12 (xAPIC only), level 14, trigger 15 (0: edge), no
// shorthand, physical destination.
#define ICR_FIXED		(0u << 8)
#define ICR_INIT		(5u << 8)
#define ICR_STARTUP		(6u << 8)
#define ICR_BUSY		(1u << 12)
#define ICR_ASSERT		(1u << 14)
#define ICR_WAIT_US		100000

static enum apic_mode mode;
static volatile uint32_t *regs;	// the xAPIC's registers (physical = virtual)

static uint32_t xapic_read(uint32_t reg)
{
	return regs[reg / 4];
}

static void xapic_write(uint32_t reg, uint32_t v)
{
	regs[reg / 4] = v;
}

// A register other than the ICR, in either mode.
static void reg_write(uint32_t reg, uint32_t v)
{
	if (mode == APIC_X2APIC)
		wrmsr(MSR_X2APIC + reg / 16, v);
	else
		xapic_write(reg, v);
}

enum apic_mode apic_init(uint64_t map_top)
{
	uint32_t r[4];

	cpuid(1, 0, r);
	uint64_t base = rdmsr(MSR_APIC_BASE);
	if (!(r[3] & CPUID_1_EDX_APIC) || !(base & APIC_BASE_EN))
		mode = APIC_NONE;
	else if (base & APIC_BASE_EXTD)
		mode = APIC_X2APIC;
	else if ((base & APIC_BASE_ADDR) + 0x1000 > map_top)
		mode = APIC_NONE;
	else
		mode = APIC_XAPIC;
	regs = (volatile uint32_t *)(uintptr_t)(base & APIC_BASE_ADDR);
	return mode;
}

enum apic_mode apic_mode(void)
{
	return mode;
}

enum apic_mode apic_cpu_mode(void)
{
	uint64_t base = rdmsr(MSR_APIC_BASE);

	if (!(base & APIC_BASE_EN))
		return APIC_NONE;
	return base & APIC_BASE_EXTD ? APIC_X2APIC : APIC_XAPIC;
}

const char *apic_mode_name(enum apic_mode m)
{
	return m == APIC_X2APIC ? "x2APIC" : m == APIC_XAPIC ? "xAPIC" : "off";
}

uint32_t apic_id(void)
{
	if (mode == APIC_X2APIC)
		return (uint32_t)rdmsr(MSR_X2APIC + APIC_ID / 16);
	return xapic_read(APIC_ID) >> 24;
}

// Wait until the xAPIC has sent the last IPI (delivery status idle).
static bool xapic_idle(void)
{
	for (uint32_t us = 0; us < ICR_WAIT_US; us += 10) {
		if (!(xapic_read(APIC_ICR_LO) & ICR_BUSY))
			return true;
		timer_delay_us(10);
	}
	return false;
}

static bool send(uint32_t id, uint32_t low)
{
	// What was stored before (the start-up code, its data) must be
	// visible before the IPI leaves; an x2APIC WRMSR does not order
	// itself after earlier stores (SDM vol. 3A, 11.12.3).
	mfence();
	if (mode == APIC_X2APIC) {
		wrmsr(MSR_X2APIC + APIC_ESR / 16, 0);
		wrmsr(MSR_X2APIC + APIC_ICR_LO / 16, (uint64_t)id << 32 | low);
		return true;
	}
	if (!xapic_idle())
		return false;
	xapic_write(APIC_ESR, 0);	// clears the error status (back-to-back writes, 11.5.3)
	xapic_write(APIC_ESR, 0);
	xapic_write(APIC_ICR_HI, id << 24);
	xapic_write(APIC_ICR_LO, low);	// this write sends it
	return xapic_idle();
}

bool apic_send_init(uint32_t id)
{
	return send(id, ICR_INIT | ICR_ASSERT);
}

bool apic_send_startup(uint32_t id, uint32_t page)
{
	return send(id, ICR_STARTUP | ICR_ASSERT | (page & 0xff));
}

bool apic_send_fixed(uint32_t id, uint8_t vector)
{
	return send(id, ICR_FIXED | ICR_ASSERT | vector);
}

bool apic_wake_setup(uint8_t vector, uint8_t spurious, uint32_t tick_count)
{
	if (apic_cpu_mode() != mode)
		return false;
	reg_write(APIC_TPR, 0);
	reg_write(APIC_SVR, SVR_ENABLE | spurious);
	reg_write(APIC_TIMER_DIV, TIMER_DIV_16);
	reg_write(APIC_LVT_TIMER, LVT_TIMER_PERIODIC | vector);
	reg_write(APIC_TIMER_INIT, tick_count);
	return true;
}

void apic_eoi(void)
{
	reg_write(APIC_EOI, 0);
}
