// SPDX-License-Identifier: GPL-2.0-or-later
// \EFI\ramsift\last-result.txt on the volume the pre-loader was loaded
// from: the record as text for a person, who takes it away on the USB
// stick ramsift ran from. Written once per new record: a boot with the
// same record finds the same text there and leaves it.
#ifndef RAMSIFT_EFI_LAST_RESULT_H
#define RAMSIFT_EFI_LAST_RESULT_H

#include <efi.h>

#include "record/record.h"

// Write r's text (its result line, date, machine, page ranges, and the
// GRUB_BADRAM= and memmap= lines of its fold) unless the file holds it
// already; say what was done. A volume that cannot be written (a CD) is
// said so and not an error. Allocates its memory from the firmware and
// frees it: call it after the pages are reserved.
void last_result_write(EFI_LOADED_IMAGE *me, const struct record *r);

#endif
