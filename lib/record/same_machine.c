// SPDX-License-Identifier: GPL-2.0-or-later
// Whether a record belongs to this machine (record.h): its SMBIOS system
// identity, compared exactly.
#include "record/record.h"
#include "memstr.h"

static bool names_nothing(const struct record *r)
{
	return !r->manufacturer[0] && !r->product[0] && !r->serial[0] && !r->uuid_known;
}

bool record_same_machine(const struct record *r, const struct smbios_info *s)
{
	if (s->status != SMBIOS_FOUND || names_nothing(r))
		return false;
	if (r->uuid_known != s->uuid_known ||
	    (r->uuid_known && mem_cmp(r->uuid, s->uuid, sizeof(r->uuid)) != 0))
		return false;
	return str_eq(r->manufacturer, s->manufacturer) && str_eq(r->product, s->product) &&
	       str_eq(r->serial, s->serial);
}
