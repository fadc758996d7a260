// SPDX-License-Identifier: GPL-2.0-or-later
// PS/2 keyboard through the i8042 controller, polled (no interrupts), so a
// USB keyboard works where the firmware emulates PS/2 for it.
#ifndef RAMSIFT_SRC_X86_KBD_H
#define RAMSIFT_SRC_X86_KBD_H

#include <stdbool.h>

// Look for the controller and learn which scan-code set it delivers.
// Returns false when there is none (its ports read 0xff, as on UEFI PCs
// without PS/2 emulation): kbd_read() then never returns a key.
bool kbd_init(void);

// The next key pressed as a character (ASCII; 27 for Esc), or -1 when none
// is waiting. Releases, modifiers and keys without a character give -1.
int kbd_read(void);

#endif
