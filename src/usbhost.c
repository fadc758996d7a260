// SPDX-License-Identifier: GPL-2.0-or-later
// The USB stack's environment in the image (see usbhost.h).
#include "log.h"
#include "usbhost.h"
#include "x86/pci_config.h"
#include "x86/timer.h"

static uint64_t now_us(void *ctx)
{
	(void)ctx;
	return timer_us();
}

static uint32_t mmio_read32(void *ctx, uint64_t addr)
{
	(void)ctx;
	return *(volatile uint32_t *)(uintptr_t)addr;
}

static void mmio_write32(void *ctx, uint64_t addr, uint32_t value)
{
	(void)ctx;
	*(volatile uint32_t *)(uintptr_t)addr = value;
}

static uint32_t config_read32(void *ctx, uint32_t bdf, uint16_t offset)
{
	(void)ctx;
	return pci_read32(bdf, offset);
}

static void config_write32(void *ctx, uint32_t bdf, uint16_t offset, uint32_t value)
{
	(void)ctx;
	pci_write32(bdf, offset, value);
}

static void warn(void *ctx, const char *line)
{
	(void)ctx;
	log_warn("%s", line);
}

static const struct usb_env env = {
	NULL, now_us, mmio_read32, mmio_write32, config_read32, config_write32, warn,
};

const struct usb_env *usbhost_env(void)
{
	return &env;
}
