// SPDX-License-Identifier: GPL-2.0-or-later
// What becomes of RamsiftResult (see keep_plan.h).
#include "run/keep_plan.h"

// What a UEFI boot with nvram=on would do.
static enum keep_plan uefi_plan(const struct keep_facts *f, enum result r,
				const struct run_status *s)
{
	if (f->errors)
		return f->folded ? KEEP_WRITE : KEEP_SAY_NO_FOLD;
	if (r == RESULT_PASS && s->passes_done >= 1 && s->tested_bytes == s->usable_bytes)
		return f->old == KEEP_OLD_FAIL && f->old_reserved ? KEEP_RECHECK : KEEP_WRITE;
	return KEEP_SAY_UNCHANGED;
}

// A BIOS boot says there is nowhere to keep a result only when there is
// one to keep: a run that ends in an exception keeps its last lines.
enum keep_plan keep_plan(const struct keep_facts *f, enum result r, const struct run_status *s)
{
	if (!f->set_up)
		return KEEP_SILENT;
	if (!f->efi)
		return uefi_plan(f, r, s) == KEEP_WRITE ? KEEP_SAY_BIOS : KEEP_SILENT;
	if (!f->nvram)
		return KEEP_SAY_OFF;
	enum keep_plan p = uefi_plan(f, r, s);
	return (p == KEEP_WRITE || p == KEEP_RECHECK) && f->get_faulted ? KEEP_SAY_GET_FAULTED : p;
}
