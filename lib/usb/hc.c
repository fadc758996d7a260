// SPDX-License-Identifier: GPL-2.0-or-later
// What every controller driver shares: the DMA block's allocator and the
// warning line.
#include <stdarg.h>

#include "fmt.h"
#include "memstr.h"
#include "usb/hc.h"

bool usb_dma_take(struct usb_dma *d, size_t bytes, size_t align, struct usb_buf *out)
{
	uint64_t at = (d->phys + d->used + align - 1) & ~(uint64_t)(align - 1);

	if (bytes <= 4096 && (at & 4095) + bytes > 4096)
		at = (at + 4095) & ~(uint64_t)4095;
	if (at < d->phys || at - d->phys > d->bytes || d->bytes - (at - d->phys) < bytes)
		return false;
	out->virt = d->virt + (at - d->phys);
	out->phys = at;
	mem_set(out->virt, 0, bytes);
	d->used = at - d->phys + bytes;
	return true;
}

void usb_hc_warn(struct usb_hc *hc, const char *fmt, ...)
{
	char line[160];
	int n = fmt_snprintf(line, sizeof line, "usb: %s: ", hc->name);
	va_list ap;

	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof line)
		fmt_vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
	va_end(ap);
	hc->env->warn(hc->env->ctx, line);
}
