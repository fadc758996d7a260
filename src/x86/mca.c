// SPDX-License-Identifier: GPL-2.0-or-later
// Machine-check MSRs (see mca.h): SDM vol. 3B, 15.3 (the registers) and
// 15.8 (initialisation, example 15-1).
#include "io.h"
#include "mca.h"

#define MSR_MCG_CAP		0x179
#define MSR_MCG_STATUS		0x17a
#define MSR_MCG_CTL		0x17b
#define MSR_MC_CTL(i)		(0x400u + 4 * (i))
#define MSR_MC_STATUS(i)	(0x401u + 4 * (i))
#define MSR_MC_ADDR(i)		(0x402u + 4 * (i))
#define MSR_MC_MISC(i)		(0x403u + 4 * (i))
#define CPUID1_EDX_MCE		(1u << 7)
#define CPUID1_EDX_MCA		(1u << 14)
#define CR4_MCE			(1ull << 6)

static uint32_t cpuid1_edx(void)
{
	uint32_t r[4];
	cpuid(1, 0, r);
	return r[3];
}

unsigned mca_banks(uint64_t *cap)
{
	uint32_t edx = cpuid1_edx();

	*cap = 0;
	if (!(edx & CPUID1_EDX_MCE) || !(edx & CPUID1_EDX_MCA))
		return 0;
	*cap = rdmsr(MSR_MCG_CAP);
	return (unsigned)(*cap & MCG_CAP_COUNT_MASK);
}

void mca_read(unsigned cpu, unsigned bank, struct mce_record *r)
{
	r->cpu = cpu;
	r->bank = bank;
	r->status = rdmsr(MSR_MC_STATUS(bank));
	r->addr = r->status & MCI_STATUS_ADDRV ? rdmsr(MSR_MC_ADDR(bank)) : 0;
	r->misc = r->status & MCI_STATUS_MISCV ? rdmsr(MSR_MC_MISC(bank)) : 0;
}

void mca_clear(unsigned bank)
{
	wrmsr(MSR_MC_STATUS(bank), 0);
}

// CPUID's vendor, family and model as SDM vol. 2A (CPUID, figure 3-6)
// combines them.
static enum mce_vendor vendor(unsigned *family, unsigned *model)
{
	uint32_t r[4];

	cpuid(0, 0, r);
	enum mce_vendor v = r[1] == 0x756e6547 ? MCE_VENDOR_INTEL :	// "Genu"ineIntel
			    r[1] == 0x68747541 ? MCE_VENDOR_AMD :	// "Auth"enticAMD
			    MCE_VENDOR_OTHER;
	cpuid(1, 0, r);
	*family = (r[0] >> 8) & 0xf;
	*model = (r[0] >> 4) & 0xf;
	if (*family == 0xf)
		*family += (r[0] >> 20) & 0xff;
	if (*family == 0x6 || *family >= 0xf)
		*model |= ((r[0] >> 16) & 0xf) << 4;
	return v;
}

void mca_enable(void)
{
	uint64_t cap, cr4;
	unsigned banks = mca_banks(&cap), family, model;
	enum mce_vendor v = vendor(&family, &model);

	if (!(cpuid1_edx() & CPUID1_EDX_MCE))
		return;
	if (cap & MCG_CAP_CTL_P)
		wrmsr(MSR_MCG_CTL, ~0ull);
	for (unsigned i = 0; i < banks; i++)
		if (!mce_bank_left_to_firmware(v, family, model, i))
			wrmsr(MSR_MC_CTL(i), ~0ull);
	__asm__ volatile("mov %%cr4, %0" : "=r"(cr4));
	cr4 |= CR4_MCE;
	__asm__ volatile("mov %0, %%cr4" : : "r"(cr4) : "memory");
}

uint64_t mca_global_status(void)
{
	return rdmsr(MSR_MCG_STATUS);
}
