// SPDX-License-Identifier: GPL-2.0-or-later
// The screen: one character grid (lib/screen/grid.h) shown on the VGA text
// screen or on a linear framebuffer, and the console that writes the log
// into it. Everything drawn goes into the grid first; screen_flush() draws
// the cells that changed on whichever backend there is. The log is a line
// log on a region of the grid (all of it unless screen_log_rows() says
// otherwise), so a status screen can keep the other rows for itself.
//
// Not locked. The console layer serialises screen_write() (and takes it over
// lock-free on the panic path, which is why nothing here takes a lock or
// waits); whoever else draws (the status screen) must do so under the same
// lock, by writing through console_write(), or from the CPU that holds it.
#ifndef RAMSIFT_SRC_SCREEN_H
#define RAMSIFT_SRC_SCREEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "boot/multiboot.h"
#include "screen/colour.h"
#include "screen/grid.h"

// Use the VGA text screen at physical phys, cols x rows cells, and show it:
// the first flush clears it. False if the size is beyond the grid's.
bool screen_init_vga(uint64_t phys, unsigned cols, unsigned rows);

// Use the direct-RGB framebuffer fb (kind FB_RGB, 15, 16, 24 or 32 bits a
// pixel, the loader's colour fields): an 8x16 font, scaled 2x from 1600
// pixels wide on, as many cells as fit (at most SCREEN_MAX_COLS x
// SCREEN_MAX_ROWS, from the top left corner). Nothing is drawn until
// screen_show(), because the framebuffer may lie beyond what the boot page
// tables map. False, with *why saying in a few words what is wrong, if it
// cannot be drawn on.
bool screen_init_fb(const struct framebuffer *fb, const char **why);

// From now on draw: everything written so far at once, then each change.
// Call once the backend is mapped (at once for VGA text, which
// screen_init_vga() does itself); later calls do nothing.
void screen_show(void);

// The console's write (struct console): n bytes of the log into the log
// region, then a flush. Safe on the panic path.
void screen_write(const char *s, size_t n);

// The grid and its size, for whoever draws more than the log (a status
// screen): write cells with grid_put() and friends, then screen_flush().
// NULL before screen_init_*().
struct grid *screen_grid(void);

// Draw the cells that changed since the last flush (nothing before
// screen_show()).
void screen_flush(void);

// Move the log to rows [top, bottom) of the grid, its cursor to the
// region's top left; the region is not cleared.
void screen_log_rows(unsigned top, unsigned bottom);

// As screen_log_rows(), and the new region shows what the log showed: the
// last of the old region's rows up to the cursor's (as many as fit), and
// the cursor where it was in them. Rows the region had before are cleared.
// (A line log of any height shows the last rows of the same wrapped text,
// so the log reads on as if it had been in the new region all along.)
void screen_log_keep(unsigned top, unsigned bottom);

// On a VGA text screen of 80x25: switch it to 80x50 (8-line characters,
// the built-in 8x8 font), a blank grid of 80x50 with the log on all of it.
// False, changing nothing, on any other screen. Safe on the panic path.
bool screen_vga_rows50(void);

// On a framebuffer: its size in pixels, and a cell's (8x16 times the
// scale); false on VGA text.
bool screen_pixels(unsigned *width, unsigned *height, unsigned *cell_width, unsigned *cell_height);

// On a framebuffer, fill the w x h pixels from (x, y) with c, cut at its
// edges (a QR code's modules, big PASS/FAIL letters); nothing on VGA text or
// before screen_show(). The grid does not know: a flush redraws a changed
// cell over the rectangle, so keep the cells under it unchanged (blank),
// and grid_invalidate() them when the picture goes.
void screen_fill(unsigned x, unsigned y, unsigned w, unsigned h, struct rgb c);

#endif
