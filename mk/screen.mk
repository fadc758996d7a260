# SPDX-License-Identifier: GPL-2.0-or-later
# The screen: the built-in 8x16 font (lib/screen/font.h), generated at build
# time by dev/psf2c from a console font of Debian's console-setup-linux
# (tools/deps.sh installs it), and compiled into the image and into the host
# library like a source of lib/.

FONT_PSF ?= /usr/share/consolefonts/FullGreek-VGA16.psf.gz
FONT_SRC := $(B)/gen/font8x16.c
# The same face 8x8: the VGA text screen's 80x50 mode, which the result
# panel switches to so that its QR code fits (src/screen.c).
FONT8_PSF ?= /usr/share/consolefonts/FullGreek-VGA8.psf.gz
FONT8_SRC := $(B)/gen/font8x8.c

$(FONT_PSF) $(FONT8_PSF):
	@echo "$@ is missing: install Debian's console-setup-linux (make deps)" >&2; exit 1

$(B)/host/psf2c: dev/psf2c.c
	$(call say,HOSTCC,$@)mkdir -p $(@D) && $(HOST_CC) -std=gnu11 -O2 -Wall -Wextra -Werror -o $@ $<

$(FONT_SRC): $(FONT_PSF) dev/font-licence.txt $(B)/host/psf2c
	$(call say,GEN,$@)mkdir -p $(@D) && gzip -dc $(FONT_PSF) | \
		$(B)/host/psf2c $(notdir $(FONT_PSF)) dev/font-licence.txt >$@

$(FONT8_SRC): $(FONT8_PSF) dev/font8-licence.txt $(B)/host/psf2c
	$(call say,GEN,$@)mkdir -p $(@D) && gzip -dc $(FONT8_PSF) | \
		$(B)/host/psf2c $(notdir $(FONT8_PSF)) dev/font8-licence.txt 8 >$@

IMG_OBJS += $(B)/image/$(FONT_SRC).o $(B)/image/$(FONT8_SRC).o
$(B)/ramsift.elf: $(B)/image/$(FONT_SRC).o $(B)/image/$(FONT8_SRC).o
HOST_LIB_OBJS += $(B)/host/$(FONT_SRC).o $(B)/host/$(FONT8_SRC).o
$(B)/host/libramsift.a: $(B)/host/$(FONT_SRC).o $(B)/host/$(FONT8_SRC).o

# The screen scenarios' reader (tests/e2e/screen-*.sh): reads the text back
# from a screendump with the same font, or from the VGA text buffer, and
# compares it with the serial log; also writes PNGs. Built like the unit
# tests.
$(B)/host/screencheck: tests/screen/screencheck.c $(HOST_LIBS)
	$(call say,HOSTLD,$@)mkdir -p $(@D) && $(HOST_CC) $(filter-out -Ilib,$(HOST_CFLAGS)) -iquote lib \
		-o $@ $< $(HOST_LINK) $(HOST_LDFLAGS)

# screen-fb-high.sh's stub: hands ramsift a framebuffer in RAM above 4 GiB.
FB_HIGH_DEFS := -DFB_ADDR=0x100400000 -DFB_W=1024 -DFB_H=768
$(B)/test/fb-high-stub.elf: tests/screen/fb-high-stub.S lib/boot/multiboot.h $(B)/ramsift.elf
	$(call say,AS,$@)mkdir -p $(@D) && \
	$(CC) -m32 -c -Ilib -D__ASSEMBLY__ $(FB_HIGH_DEFS) -DRAMSIFT_ENTRY=$$(readelf -h $(B)/ramsift.elf | \
		awk '/Entry point address/ { print $$4 }') -o $@.o $< && \
	ld -m elf_i386 -Ttext=0x1000000 -o $@ $@.o
E2E_DEPS += $(B)/test/fb-high-stub.elf

# The screen scenarios read the screen back with it.
E2E_DEPS += $(B)/host/screencheck

# README's pictures: the status screen and the result panel from QEMU
# screendumps (tests/screen/screenshots.sh), into build/screenshots/.
.PHONY: screenshots
screenshots: $(B)/ramsift.elf $(B)/host/screencheck $(B)/host/ramsift-inject
	$(Q)tests/screen/screenshots.sh
