// SPDX-License-Identifier: GPL-2.0-or-later
// The bare-metal program's top level: a flat list of set-up steps, then the run.
#include "boot/multiboot.h"
#include "boot/cmdline.h"
#include "capacity.h"
#include "console.h"
#include "dram_geometry.h"
#include "const.h"
#include "escape.h"
#include "x86/cpu.h"
#include "fmt.h"
#include "x86/io.h"
#include "x86/layout.h"
#include "log.h"
#include "machcheck.h"
#include "memmap.h"
#include "record_keep.h"
#include "memtest/memtest.h"
#include "panic.h"
#include "pass.h"
#include "fold_report.h"
#include "errors.h"
#include "hammerhost.h"
#include "keypoll.h"
#include "machine.h"
#include "x86/paging.h"
#include "run.h"
#include "run/plan.h"
#include "run/ram.h"
#include "screen.h"
#include "selfcheck.h"
#include "screen/font.h"
#include "smp.h"
#include "status_screen.h"
#include "stop.h"
#include "x86/serial.h"
#include "memstr.h"
#include "usbkeys.h"
#include "x86/timer.h"
#include "x86/trap.h"
#include "version.h"


// Defined by boot/link.ld.S.
extern char image_start_phys[], image_end_phys[];

static struct bootinfo bootinfo;
static struct ram ram;
static struct footprint footprint;

// The tests= names, in the order of the test table; *n gets their count.
static const char *const *test_names(size_t *n)
{
	static const char *names[MAX_TESTS];

	*n = mt_ntests < MAX_TESTS ? mt_ntests : MAX_TESTS;
	for (size_t i = 0; i < *n; i++)
		names[i] = mt_tests[i].name;
	return names;
}

static const struct console serial_console = { "serial", serial_write };
static const struct console vga_console = { "vga", screen_write };
static const struct console fb_console = { "framebuffer", screen_write };

// What the screen is: the loader's direct-RGB framebuffer when the screen
// console draws on it, else NULL; and why it does not, for the log.
static const struct framebuffer *screen_fb;
static const char *screen_fb_why;

// The framebuffer's bytes (pitch times height).
static uint64_t fb_bytes(const struct framebuffer *fb)
{
	return (uint64_t)fb->pitch * fb->height;
}

// Whether the framebuffer lies wholly below limit (no overflow on a loader's
// nonsense address).
static bool fb_below(const struct framebuffer *fb, uint64_t limit)
{
	return fb->addr <= limit && fb_bytes(fb) <= limit - fb->addr;
}

// The boot page tables map the first 4 GiB (BOOT_IDENTITY_BYTES) one to one,
// and the loaders put their information there (its pointers are 32-bit).
static bool read_low_phys(void *ctx, uint64_t addr, void *buf, size_t n)
{
	(void)ctx;
	if (addr >= BOOT_IDENTITY_BYTES || n > BOOT_IDENTITY_BYTES - addr)
		return false;
	mem_copy(buf, (const void *)(uintptr_t)addr, n);
	return true;
}

static void warn_boot(void *ctx, const char *msg)
{
	(void)ctx;
	log_warn("%s", msg);
}

static void warn_cmdline(void *ctx, const char *word, size_t len, const char *why)
{
	char shown[LOG_LINE_MAX / 2];

	(void)ctx;
	bool whole = escape_text(shown, sizeof(shown), word, len) == len;
	log_warn("command line: '%s%s': %s", shown, whole ? "" : "...", why);
}

// The loader: line, whole, with the loader's name and the command line
// escaped: they are outside text (escape.h).
static void log_loader(const struct bootinfo *bi, uint64_t load_phys)
{
	static char cmdline[sizeof(bi->cmdline) * ESCAPE_MAX_PER_BYTE];
	static char line[sizeof(cmdline) + 2 * sizeof(bi->loader) * ESCAPE_MAX_PER_BYTE];
	char loader[sizeof(bi->loader) * ESCAPE_MAX_PER_BYTE];

	escape_text(cmdline, sizeof(cmdline), bi->cmdline, str_len(bi->cmdline));
	escape_text(loader, sizeof(loader), bi->loader, str_len(bi->loader));
	fmt_snprintf(line, sizeof(line), "loader: %s, multiboot%s, image at 0x%llx; command line: '%s'",
		     loader[0] ? loader : "unnamed", bi->protocol == 2 ? "2" : "",
		     (unsigned long long)load_phys, cmdline);
	log_text("", line);
}

// Serial and screen as the command line asks. The screen is VGA text when
// the loader says it is, or says nothing on a BIOS machine (QEMU -kernel,
// iPXE); a direct-RGB framebuffer (GOP under UEFI, VBE under BIOS) gets the
// same text drawn with the built-in font, from now on if the boot page
// tables reach it, else once map_all_memory() has mapped it.
// Returns whether the serial console answered.
static bool consoles_init(const struct config *cfg, const struct bootinfo *bi)
{
	bool serial_ok = cfg->serial && serial_init(cfg->serial_port, cfg->serial_baud);

	if (serial_ok)
		console_register(&serial_console);
	if (!cfg->screen)
		return serial_ok;
	if (bi->fb.kind == FB_EGA_TEXT) {
		if (screen_init_vga(bi->fb.addr, bi->fb.width, bi->fb.height))
			console_register(&vga_console);
	} else if (bi->fb.kind == FB_NONE && !bi->efi) {
		screen_init_vga(VGA_TEXT_PHYS, VGA_TEXT_COLS, VGA_TEXT_ROWS);
		console_register(&vga_console);
	} else if (bi->fb.kind == FB_RGB) {
		if (!fb_below(&bi->fb, PAGING_IDENTITY_LIMIT))
			screen_fb_why = "it lies beyond the 128 TiB that 4-level paging maps";
		else if (screen_init_fb(&bi->fb, &screen_fb_why)) {
			screen_fb = &bi->fb;
			console_register(&fb_console);
			if (fb_below(&bi->fb, BOOT_IDENTITY_BYTES))
				screen_show();
		}
	}
	return serial_ok;
}

static void log_consoles(const struct config *cfg, const struct bootinfo *bi, bool serial_ok)
{
	if (serial_ok)
		log_info("console: serial ttyS%u at %u baud 8N1", cfg->serial_port, cfg->serial_baud);
	else if (cfg->serial)
		log_warn("console: no UART answers at ttyS%u; the log goes to the screen only "
			 "(pick another port with console=ttySN)", cfg->serial_port);
	if (!cfg->screen)
		return;
	if (screen_fb) {
		struct grid *g = screen_grid();
		unsigned w, h, cw, ch;
		screen_pixels(&w, &h, &cw, &ch);
		log_info("console: framebuffer %ux%ux%u at 0x%llx: %ux%u text%s", bi->fb.width,
			 bi->fb.height, bi->fb.bpp, (unsigned long long)bi->fb.addr, g->cols, g->rows,
			 cw > FONT_WIDTH ? ", font scaled 2x" : "");
	} else if (bi->fb.kind == FB_RGB || bi->fb.kind == FB_INDEXED)
		log_info("console: the loader set a %ux%u %u-bit graphics framebuffer at 0x%llx; "
			 "ramsift cannot draw text on it (%s), use the serial console",
			 bi->fb.width, bi->fb.height, bi->fb.bpp, (unsigned long long)bi->fb.addr,
			 bi->fb.kind == FB_INDEXED ? "indexed colour" : screen_fb_why);
	else if (screen_grid())
		log_info("console: VGA text screen");
	else if (bi->efi && bi->fb.kind == FB_NONE)
		log_info("console: the loader passed no framebuffer, and UEFI has no text screen; "
			 "use the serial console");
}

// A framebuffer inside usable RAM (some loaders' maps say so) is no RAM to
// test: it leaves the usable RAM before anything is claimed or tested.
static void exclude_framebuffer(struct ram *ram, const struct bootinfo *bi)
{
	struct range fb = { bi->fb.addr, bi->fb.addr + fb_bytes(&bi->fb) };
	uint64_t before = range_total(ram->usable, ram->nusable);

	if (bi->fb.kind == FB_NONE || fb.end <= fb.start)
		return;
	fb.start &= ~(uint64_t)(PAGE_SIZE - 1);
	fb.end = (fb.end + PAGE_SIZE - 1) & ~(uint64_t)(PAGE_SIZE - 1);
	ram->nusable = range_subtract(ram->usable, ram->nusable, RAM_RANGES_MAX, fb);
	if (range_total(ram->usable, ram->nusable) == before)
		return;
	ram_release_all(ram);
	log_info("memory: the framebuffer 0x%016llx-0x%016llx lies in usable RAM; it is not tested",
		 (unsigned long long)fb.start, (unsigned long long)(fb.end - 1));
}

// Write, read back and restore the last word of the highest free range: proof
// that the page tables reach the top of RAM.
static void probe_top(const struct ram *ram)
{
	if (ram->nfree == 0)
		return;
	volatile uint64_t *w = (volatile uint64_t *)(uintptr_t)(ram->free[ram->nfree - 1].end - 8);
	uint64_t old = *w;
	*w = ~old;
	bool ok = *w == ~old;
	*w = old;
	if (ok)
		log_info("memory: probe ok at 0x%016llx", (unsigned long long)(uintptr_t)w);
	else
		log_warn("memory: probe at 0x%016llx read back a different value; that word is faulty",
			 (unsigned long long)(uintptr_t)w);
}

// Replace the boot page tables (first 4 GiB only) by ones covering all RAM,
// the framebuffer, the devices below 4 GiB and those paging_add_device()
// named (the USB controllers' registers). The new tables, and the working memory after
// them (error table, fold scratch, USB DMA block, smp_bytes for the APs:
// pass.h), come from free RAM below 4 GiB, which the boot tables reach.
static void map_all_memory(struct ram *ram, const struct bootinfo *bi, struct footprint *fp,
			   uint64_t smp_bytes)
{
	uint64_t top = 4 * GiB;
	if (ram->nusable && ram->usable[ram->nusable - 1].end > top)
		top = ram->usable[ram->nusable - 1].end;
	if (bi->efi_runtime_end > top)
		top = bi->efi_runtime_end;	// the firmware's runtime services, called at the end
	uint64_t fb_end = bi->fb.addr + fb_bytes(&bi->fb);
	if (bi->fb.kind != FB_NONE && fb_end > top)
		top = fb_end;
	top = paging_clamp_top(top);
	bool wc = screen_fb && paging_pat_init();
	if (wc)
		paging_set_wc(screen_fb->addr, screen_fb->addr + fb_bytes(screen_fb));

	uint64_t bytes = paging_table_bytes(top);
	uint64_t work_bytes = WORK_SMP + smp_bytes;
	uint64_t tables = ram_alloc(ram, bytes + work_bytes, BOOT_IDENTITY_BYTES, FOOTPRINT_DATA_WHAT);
	if (tables == 0) {
		uint64_t need = fp->image + fp->image_bytes + bytes + work_bytes;
		if (range_total(ram->usable, ram->nusable) < need)
			log_error("too little memory: ramsift needs %llu KiB of free RAM below 4 GiB for "
				  "its page tables and working memory besides its image, and the machine "
				  "has %llu KiB of usable RAM in all; give it at least %llu MiB",
				  (unsigned long long)((bytes + work_bytes) >> 10),
				  (unsigned long long)(range_total(ram->usable, ram->nusable) >> 10),
				  (unsigned long long)((need + (1ull << 20) - 1) >> 20));
		else
			log_error("no free memory below 4 GiB for %llu KiB of page tables and working "
				  "memory; ramsift cannot run on this memory map",
				  (unsigned long long)((bytes + work_bytes) >> 10));
		run_finish(RESULT_ABORTED);
	}
	paging_build(tables, top, fp->image, fp->image_bytes);
	write_cr3(tables);
	if (wc)
		wbinvd();	// the framebuffer was mapped write-back until now
	fp->tables = tables;
	fp->table_bytes = bytes;
	fp->work_bytes = work_bytes;
	fp->top = top;
	log_info("paging: identity map 0-%llu GiB with %s pages; tables at 0x%llx%s",
		 (unsigned long long)(top / GiB), cpu_has_1g_pages() ? "1 GiB" : "2 MiB",
		 (unsigned long long)tables, wc ? "; framebuffer write-combining" : "");
	if (screen_fb)
		screen_show();	// if the boot page tables did not reach it
}

// How the panic path, a stalled CPU and a failed self-check end the run.
static void end_aborted(void)
{
	run_finish(RESULT_ABORTED);
}

// Entered from boot/entry.S in long mode, on the BSP's stack, interrupts off,
// with the loader's magic, the physical address of its boot information and
// the physical address the image was loaded at.
void kmain(uint32_t magic, uint64_t info, uint64_t load_phys);
void kmain(uint32_t magic, uint64_t info, uint64_t load_phys)
{
	static struct config cfg;
	char size[FMT_SIZE_LEN];

	panic_set_end(end_aborted);	// before anything can panic
	cpu_init_bsp();		// GDT, TSS and this_cpu(): before any fault can be reported
	trap_init();		// from here on any CPU exception ends the run as ABORTED
	log_info("ramsift " RAMSIFT_VERSION ": memory tester");	// first, before any warning
	selfcheck_init();	// the CRCs of ramsift's code, checked after each test and move
	bool have_info = bootinfo_parse(&bootinfo, magic, info, read_low_phys, warn_boot, NULL);
	config_defaults(&cfg);
	size_t nnames;
	const char *const *names = test_names(&nnames);
	cmdline_parse(bootinfo.cmdline, &cfg, names, nnames, warn_cmdline, NULL);
	run_begin(&cfg, 0);	// an early ABORTED ends as onexit= says
	report_boot(&bootinfo);	// and its json: line names the loader
	bool serial_ok = consoles_init(&cfg, &bootinfo);	// replays what was logged so far

	log_loader(&bootinfo, load_phys);
	log_consoles(&cfg, &bootinfo, serial_ok);
	if (bootinfo.efi)
		log_info("firmware: UEFI (the loader passed the EFI system table)");
	if (!timer_init())
		log_warn("timer: the PIT did not answer; assuming a 1 GHz TSC, times will be wrong");
	log_info("timer: TSC at %llu MHz", (unsigned long long)(timer_tsc_hz() / 1000000));
	machcheck_cpu_start();	// MCE ... at boot lines; machine checks on

	if (!have_info || !memmap_init(&ram, &bootinfo)) {
		log_error("the loader gave no usable memory map; nothing can be tested. "
			  "Boot ramsift with GRUB (multiboot or multiboot2) or QEMU -kernel");
		run_finish(RESULT_ABORTED);
	}
	exclude_framebuffer(&ram, &bootinfo);
	footprint.image = load_phys;
	footprint.image_bytes = (uint64_t)(image_end_phys - image_start_phys);
	ram_claim(&ram, footprint_image(&footprint), FOOTPRINT_IMAGE_WHAT);
	// The CPUs the firmware lists, and which will test: their memory is
	// part of the working memory the next step takes.
	uint64_t smp_bytes = smp_find(&cfg, &bootinfo, read_low_phys, warn_boot, &ram);
	usbkeys_find(&cfg);	// usb: lines; their registers join the page tables
	map_all_memory(&ram, &bootinfo, &footprint, smp_bytes);
	memmap_print(&ram);
	log_info("ramsift occupies %s; it moves itself at the end of each pass to test that too",
		 fmt_size(size, footprint_bytes(&footprint)));
	probe_top(&ram);
	smp_start(footprint_work(&footprint) + WORK_SMP);	// logs the cpus: line

	struct run_ctx run = { .cfg = &cfg, .ram = &ram, .fp = &footprint,
			       .seed = plan_seed(&cfg, rdtsc()) };
	machine_init(&bootinfo, warn_boot, smp_acpi(), footprint.top, run.seed);	// machine:, dimm:, power:
	run.status = run_begin(&cfg, range_total(ram.usable, ram.nusable));
	errors_init(cfg.error_lines, (uint64_t *)(uintptr_t)(footprint_work(&footprint) + WORK_ERRORS));
	report_init((void *)(uintptr_t)(footprint_work(&footprint) + WORK_REPORT));
	log_info("run: passes=%u seed=0x%llx errors=%u bitfade=%u%s", cfg.passes,
		 (unsigned long long)run.seed, cfg.error_lines, cfg.bitfade_s,
		 cfg.seed_set ? "" : " (add seed= with this value to repeat the random patterns)");
	nvram_init(&run, &bootinfo);	// the run's date; the record at its end
	// From here on a key can stop, skip or pause.
	keys_init(&cfg, serial_ok, footprint_work(&footprint) + WORK_USB);
	status_screen_start(&run, &bootinfo);	// the screen's status rows
	// The fold's scratch is free until the first fold.
	dram_learn_geometry(&cfg, &ram, machine_get()->hypervisor, run.seed,
		   (void *)(uintptr_t)(footprint_work(&footprint) + WORK_REPORT), WORK_REPORT_BYTES);
	run_passes(&run);
	machcheck_poll(true);
	report_summary(run.status, &footprint);
	report_badram(&cfg, &ram, "");
	dram_report_diagnosis();
	hammerhost_summary();
	if (bootinfo.efi)
		report_uefi_advice();
	run_finish(errors_found() ? RESULT_FAIL : stop_requested() ? RESULT_STOPPED : RESULT_PASS);
}
