// SPDX-License-Identifier: GPL-2.0-or-later
// Machine-check bank records (see mce.h).
#include "fmt.h"
#include "mce.h"

enum mce_kind mce_kind(uint64_t status)
{
	if (!(status & MCI_STATUS_VAL))
		return MCE_EMPTY;
	return status & MCI_STATUS_UC ? MCE_UNCORRECTED : MCE_CORRECTED;
}

bool mce_phys_addr(const struct mce_record *r, uint64_t mcg_cap, uint64_t *phys)
{
	unsigned lsb = 0;

	if (!(r->status & MCI_STATUS_ADDRV))
		return false;
	if ((mcg_cap & MCG_CAP_SER_P) && (r->status & MCI_STATUS_MISCV)) {
		if (MCI_MISC_MODE(r->misc) != MCI_MISC_MODE_PHYS)
			return false;
		lsb = MCI_MISC_LSB(r->misc);
	}
	if (lsb > 51)
		lsb = 51;
	*phys = r->addr & MCE_PHYS_MASK & ~((1ull << lsb) - 1);
	return true;
}

int mce_line(char *buf, size_t len, const struct mce_record *r, const char *when)
{
	return fmt_snprintf(buf, len, "MCE cpu=%u bank=%u status=0x%016llx addr=0x%016llx "
			    "misc=0x%016llx %s", r->cpu, r->bank, (unsigned long long)r->status,
			    (unsigned long long)r->addr, (unsigned long long)r->misc, when);
}

bool mce_bank_left_to_firmware(enum mce_vendor vendor, unsigned family, unsigned model,
			       unsigned bank)
{
	if (bank != 0 || family != 6)
		return false;
	return (vendor == MCE_VENDOR_INTEL && model < 0x1a) || vendor == MCE_VENDOR_AMD;
}
