# SPDX-License-Identifier: GPL-2.0-or-later
# Instrument 7 of bench/ (bench/README.md): does a machine with bad RAM run
# as well as a healthy one once ramsift's line is applied? `make
# bench-consumer` boots Debian's kernel through GRUB in three VMs of the
# same size (healthy with as much usable RAM as the protected one, faulty
# without the line, faulty with ramsift's line from a run in the same
# experiment), stresses them with Debian's stressapptest and measures them
# (bench/consumer-guest.c, mbw); the report goes to build/bench/consumer.md.
# CONSUMER_ARGS passes options to bench/consumer.sh. check-consumer, in
# make check, is its check-sized version: one short stress in the faulty
# VMs, which must show corruption without the line and none with it.
#
# The initramfs: tests/linux/init.c as /init, which runs /payload (the
# static bench/consumer-guest.c), and Debian's stressapptest and mbw with
# their libraries (tests/linux/fetch-tools.sh, cached in build/linux/tools).

CONSUMER_TOOLS := stressapptest mbw
CONSUMER_CPIO := $(B)/linux/consumer.cpio

# After the kernel's fetch: both may run apt-get update, one at a time.
$(B)/linux/tools/root: tests/linux/fetch-tools.sh | $(B)/linux/vmlinuz
	$(call say,FETCH,$(CONSUMER_TOOLS))sh $< $(@D) $(CONSUMER_TOOLS)
$(B)/bench/consumer-guest: bench/consumer-guest.c
	$(call say,HOSTCC,$@)mkdir -p $(@D) && $(HOST_CC) $(RT_CFLAGS) -static -o $@ $<
$(CONSUMER_CPIO): $(B)/linux/init $(B)/bench/consumer-guest $(B)/linux/tools/root
	$(call say,CPIO,$@)rm -rf $@.root && cp -a $(B)/linux/tools/root $@.root && \
	cp $(B)/linux/init $@.root/init && cp $(B)/bench/consumer-guest $@.root/payload && \
	(cd $@.root && find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) >$@ && rm -rf $@.root

# Named one by one: mk/roundtrip.mk, which has RT_DEPS, is read after this file.
CONSUMER_DEPS := $(B)/ramsift.elf $(B)/host/ramsift-inject $(B)/host/ramsift-faultgen \
	$(B)/host/ramsift-check $(B)/host/ramsift-jsoncheck $(B)/linux/vmlinuz $(CONSUMER_CPIO)

.PHONY: bench-consumer check-consumer
bench-consumer: $(CONSUMER_DEPS)
	$(Q)bench/consumer.sh $(CONSUMER_ARGS)

check-consumer: $(CONSUMER_DEPS)
	$(Q)nice bench/consumer.sh --check

CHECK_TARGETS += check-consumer

# The report's verdicts on made-up results: each must be able to fail.
.PHONY: check-consumer-report
check-consumer-report:
	$(Q)sh bench/check-consumer-report.sh
HOST_CHECKS += check-consumer-report

# tests/linux/init.c restarts a stalled console (tests/linux/console-stall.sh).
$(B)/linux/console-stall: tests/linux/console-stall.c
	$(call say,HOSTCC,$@)mkdir -p $(@D) && $(HOST_CC) $(RT_CFLAGS) -static -o $@ $<
$(B)/linux/console-stall.cpio: $(B)/linux/init $(B)/linux/console-stall
	$(call say,CPIO,$@)rm -rf $@.root && mkdir -p $@.root && cp $(B)/linux/init $@.root/init && \
	cp $(B)/linux/console-stall $@.root/payload && \
	(cd $@.root && find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) >$@ && rm -rf $@.root
.PHONY: check-console-stall
check-console-stall: $(B)/linux/vmlinuz $(B)/linux/console-stall.cpio $(B)/host/ramsift-jsoncheck
	$(Q)nice tests/linux/console-stall.sh
CHECK_TARGETS += check-console-stall
