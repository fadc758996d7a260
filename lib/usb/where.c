// SPDX-License-Identifier: GPL-2.0-or-later
// Where a device is, as text: the keys: line's names and every warning
// about a device say it the same way.
#include <stdarg.h>

#include "fmt.h"
#include "usb/core.h"

size_t usb_place_text(const struct usb_host *h, unsigned hc, const struct usb_dev_where *w,
		      char *buf, size_t size)
{
	uint8_t chain[USB_MAX_DEPTH + 1];
	unsigned n = 0;
	int len;

	// The hub ports from the device up: its own, then each hub's above it.
	for (const struct usb_dev_where *at = w; at->parent != USB_NO_DEVICE && n < sizeof chain;
	     at = &h->devs[at->parent].where)
		chain[n++] = at->hub_port;
	len = fmt_snprintf(buf, size, "%s port %u", h->hcs[hc].name, w->root_port);
	for (unsigned i = n; i-- > 0 && len >= 0 && (size_t)len < size;)
		len += fmt_snprintf(buf + len, size - (size_t)len, "%shub port %u%s",
				    i == n - 1 ? " (" : "", chain[i], i == 0 ? ")" : ", ");
	return len < 0 ? 0 : (size_t)len < size ? (size_t)len : size ? size - 1 : 0;
}

size_t usb_where_text(const struct usb_host *h, unsigned dev, char *buf, size_t size)
{
	return usb_place_text(h, h->devs[dev].hc, &h->devs[dev].where, buf, size);
}

void usb_dev_warn(struct usb_host *h, unsigned dev, const char *fmt, ...)
{
	char line[200] = "usb: ";
	size_t n = 5 + usb_where_text(h, dev, line + 5, sizeof line - 5);
	va_list ap;

	if (n + 2 < sizeof line) {
		line[n++] = ':';
		line[n++] = ' ';
		va_start(ap, fmt);
		fmt_vsnprintf(line + n, sizeof line - n, fmt, ap);
		va_end(ap);
	}
	h->env->warn(h->env->ctx, line);
}

size_t usb_describe(const struct usb_host *h, char *buf, size_t size)
{
	size_t len = 0;

	if (size == 0)
		return 0;
	buf[0] = '\0';
	for (unsigned dev = 0; dev < USB_MAX_DEVICES; dev++) {
		const struct usb_device *d = &h->devs[dev];
		int n;

		if (!d->used || d->is_hub || d->state != DEV_RUNNING)
			continue;
		n = fmt_snprintf(buf + len, size - len, "%sUSB keyboard at ", len ? ", " : "");
		if (n < 0 || (size_t)n >= size - len)
			return size - 1;
		len += (size_t)n;
		len += usb_where_text(h, dev, buf + len, size - len);
		if (len + 1 >= size)
			return size - 1;
	}
	return len;
}
