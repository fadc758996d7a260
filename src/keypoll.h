// SPDX-License-Identifier: GPL-2.0-or-later
// Keys during a run (lib/run/keys.h says what each does), read from the
// PS/2 keyboard and the serial console by polling, at the points where the
// run can take them: between chunks of a test, during bit-fade's wait, and
// after the result. Testing never waits on them. The bootstrap processor
// polls; the other CPUs see the outcome through job.h.
#ifndef RAMSIFT_SRC_KEYPOLL_H
#define RAMSIFT_SRC_KEYPOLL_H

#include <stdbool.h>
#include <stdint.h>

#include "boot/cmdline.h"
#include "run/keys.h"

// Find the keyboards (PS/2 unless the FADT says there is none, USB through
// usbkeys.h with its DMA block at physical usb_mem); log which keys work,
// and the sources read (serial_ok: cfg's serial console answered).
void keys_init(const struct config *cfg, bool serial_ok, uint64_t usb_mem);

// Poll once. Help, pause and reboot are handled here (a pause returns when
// it ends); returns KEY_STOP or KEY_SKIP for the caller to act on, else
// KEY_NONE.
enum key_action keys_poll(void);

// After the result with onexit=halt (its announcement, KEYS_ANY_KEY_LINE,
// came before the result line): wait for any key, reboot.
#define KEYS_ANY_KEY_LINE "ramsift: press any key to reboot"
_Noreturn void keys_reboot_on_any(void);

#endif
