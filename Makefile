# SPDX-License-Identifier: GPL-2.0-or-later
# ramsift: build the bare-metal image, the host builds of lib/, and run the tests.
# Quiet unless V=1. Outputs go under build/: build/image (freestanding), build/host.

.DELETE_ON_ERROR:
.SUFFIXES:
.SECONDEXPANSION:
.DEFAULT_GOAL := all

V ?= 0
Q := $(if $(filter 1,$(V)),,@)
say = $(if $(filter 1,$(V)),,@printf '  %-7s %s\n' '$(1)' '$(2)';)

B := build

# ---- the bare-metal image ---------------------------------------------------
CC       ?= gcc
IMG_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -MMD -MP \
	-ffreestanding -nostdlib -fno-builtin -fno-tree-loop-distribute-patterns \
	-fno-stack-protector -fno-delete-null-pointer-checks -fno-pic -fno-pie -mno-red-zone -mcmodel=kernel \
	-mgeneral-regs-only -fno-omit-frame-pointer -fno-asynchronous-unwind-tables \
	-Wframe-larger-than=4096 -Ilib -Isrc -I$(B)/gen
IMG_ASFLAGS := -g -Wall -Werror -MMD -MP -Ilib -Isrc -D__ASSEMBLY__
# lib/memtest/memaccess.h includes "memrw.h": the image's implementation.
$(B)/image/lib/memtest/%: IMG_CFLAGS += -iquote src/x86
# The linker script is preprocessed like a .S file, so that it takes the
# layout from src/x86/layout.h (the one definition asm and C read too).
IMG_LDS := $(B)/image/link.ld
IMG_LDFLAGS := -nostdlib -static -no-pie -Wl,--no-dynamic-linker -Wl,-z,max-page-size=0x1000 \
	-Wl,-z,noexecstack -Wl,--no-warn-rwx-segments -Wl,--build-id=none -T $(IMG_LDS)

# lib/ is one folder per library (memtest, badram, boot, run) and the general
# utilities at its root.
LIB_SRCS  := $(sort $(wildcard lib/*.c lib/*/*.c))
IMG_SRCS  := $(sort $(filter-out boot/link.ld.S,$(wildcard boot/*.S src/*.c src/*/*.c src/*/*.S))) $(LIB_SRCS)
IMG_OBJS  := $(patsubst %,$(B)/image/%.o,$(IMG_SRCS))

# The version: `git describe` of the tree being built against its last vN.N
# tag; without one, RAMSIFT_VERSION_BASE and the commit (0.2-g1a2b3c4, with
# -dirty for uncommitted changes); outside a git tree, the base alone.
# version.h is rewritten only when the version changes.
RAMSIFT_VERSION_BASE := 0.2
GIT_TAG_VERSION := $(patsubst v%,%,$(shell git describe --tags --match 'v[0-9]*' --dirty 2>/dev/null))
GIT_COMMIT := $(shell git describe --always --dirty 2>/dev/null)
RAMSIFT_VERSION := $(or $(GIT_TAG_VERSION),$(if $(GIT_COMMIT),$(RAMSIFT_VERSION_BASE)-g$(GIT_COMMIT)),$(RAMSIFT_VERSION_BASE))
$(B)/gen/version.h: FORCE
	@mkdir -p $(@D); echo '#define RAMSIFT_VERSION "$(RAMSIFT_VERSION)"' >$@.tmp; \
	cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
# Order-only: the first build needs it; after that the .d files name who reads it.
$(IMG_OBJS): | $(B)/gen/version.h
.PHONY: FORCE
FORCE:

$(B)/image/%.c.o: %.c
	$(call say,CC,$<)mkdir -p $(@D) && $(CC) $(IMG_CFLAGS) -c $< -o $@
$(B)/image/%.S.o: %.S
	$(call say,AS,$<)mkdir -p $(@D) && $(CC) $(IMG_ASFLAGS) -c $< -o $@

$(IMG_LDS): boot/link.ld.S
	$(call say,CPP,$<)mkdir -p $(@D) && $(CC) -E -P -x assembler-with-cpp $(filter -I% -D%,$(IMG_ASFLAGS)) \
		-MMD -MP -MT $@ -MF $@.d -o $@ $<

$(B)/ramsift.elf: $(IMG_OBJS) $(IMG_LDS) dev/check-image.sh
	$(call say,LD,$@)$(CC) $(IMG_LDFLAGS) -o $@ $(IMG_OBJS) -lgcc
	$(Q)sh dev/check-image.sh $@

# ---- host builds of lib/ ----------------------------------------------------
HOST_CC     ?= gcc
HOST_SAN    := -fsanitize=address,undefined -fno-sanitize-recover=all
HOST_CFLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Werror -MMD -MP $(HOST_SAN) -Ilib
HOST_LDFLAGS := $(HOST_SAN)

# On the host the memory tests run over tests/sim's simulated faulty memory:
# they and the simulator make their own archive, apart from the rest of lib/.
MEMTEST_SRCS := $(filter lib/memtest/%,$(LIB_SRCS))
HOST_LIB_OBJS := $(patsubst %,$(B)/host/%.o,$(filter-out $(MEMTEST_SRCS),$(LIB_SRCS)))
HOST_SIM_OBJS := $(patsubst %,$(B)/host/%.o,$(MEMTEST_SRCS) tests/sim/simmem.c)
$(B)/host/lib/memtest/%: HOST_CFLAGS += -iquote tests/sim
$(B)/host/tests/%: HOST_CFLAGS += -iquote tests/sim
$(B)/host/%.c.o: %.c
	$(call say,HOSTCC,$<)mkdir -p $(@D) && $(HOST_CC) $(HOST_CFLAGS) -c $< -o $@
$(B)/host/libramsift.a: $(HOST_LIB_OBJS)
	$(call say,AR,$@)rm -f $@ && ar rcs $@ $^
$(B)/host/libmemtest-sim.a: $(HOST_SIM_OBJS)
	$(call say,AR,$@)rm -f $@ && ar rcs $@ $^
HOST_LIBS := $(B)/host/libmemtest-sim.a $(B)/host/libramsift.a
# lib/run uses the test table and the tests use lib/'s utilities: link as a group.
HOST_LINK := -Wl,--start-group $(HOST_LIBS) -Wl,--end-group

# Unit tests: every tests/unit/test_<module>.c is one cmocka program.
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS := $(patsubst tests/unit/%.c,$(B)/host/unit/%,$(UNIT_SRCS))
$(B)/host/unit/%: HOST_CFLAGS += -iquote tests/sim
$(B)/host/unit/%: tests/unit/%.c $(HOST_LIBS)
	$(call say,HOSTLD,$@)mkdir -p $(@D) && $(HOST_CC) $(HOST_CFLAGS) -o $@ $< $(HOST_LINK) $(HOST_LDFLAGS) -lcmocka

.PHONY: all image unit check check-unit check-e2e run iso deps clean
all: $(B)/ramsift.elf

# Further host programs, ISO assembly and test groups live in mk/*.mk; each adds
# its check target to HOST_CHECKS (no QEMU: `make check-host`) or to
# CHECK_TARGETS (the boots); `make check` runs them all side by side.
HOST_CHECKS := check-layers check-docs check-unit
CHECK_TARGETS := check-host
include $(sort $(wildcard mk/*.mk))

.PHONY: check-host
check-host: $(HOST_CHECKS)

deps:
	$(Q)sh tools/deps.sh

check-unit: $(UNIT_BINS)
	$(Q)set -e; for t in $(UNIT_BINS); do echo "  UNIT    $$t"; $$t; done

# check-deps first: a missing package then fails in a second, not a test.
# Then every check at once, as many as CHECK_JOBS (the host's cores unless
# -j says otherwise), the longest first; -k runs them all even when one
# fails, -Otarget prints each one's output in one piece when it ends.
CHECK_JOBS ?= $(shell nproc)
# The longest, so that none starts last and runs alone.
CHECK_FIRST := check-rt-linux-roundtrip-grub2.12-linux6.12 check-rt-linux-roundtrip \
	check-consumer check-rt-efi-reserve-grub2.12-linux6.12 check-rt-efi-reserve \
	check-rt-grub-roundtrip-grub2.12 check-rt-grub-roundtrip check-rt-linux-roundtrip-grub2.12 \
	check-rt-linux-roundtrip-linux6.12 check-rt-nvram check-e2e-kernel-5g check-rt-nvram-preloader \
	check-rt-nvram-grub2.12 check-e2e-identity
check: deps
	$(Q)$(MAKE) --no-print-directory check-deps
	$(Q)$(MAKE) --no-print-directory -k -Otarget $(if $(filter -j%,$(MAKEFLAGS)),,-j$(CHECK_JOBS)) \
		$(CHECK_FIRST) $(CHECK_TARGETS)
	@echo "make check: all tests passed"

clean:
	rm -rf $(B)

# build/fresh holds make check-fresh's Debian root and build/trixie-qemu the
# newer QEMU's (dev/trixie-qemu.sh), whose /etc have *.d folders and files;
# the package's tree and the tests' chroots have /etc/grub.d: files only.
-include $(shell find $(B) \( -path $(B)/fresh -o -path '$(B)/trixie*' \) -prune -o -name '*.d' -type f -print 2>/dev/null)
