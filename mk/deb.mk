# SPDX-License-Identifier: GPL-2.0-or-later
# Installing ramsift on a machine: `make install` (any distribution) and
# `make deb` (the Debian package, build/ramsift_VERSION_amd64.deb). The files
# are in dist/: the GRUB menu script dist/grub.d/20_ramsift, the manual
# pages, ramsift-apply's unit (dist/systemd) and settings (dist/default),
# and the package's control files with dist/debian/mkdeb.sh.
# check-deb runs lintian on the package; the scenarios that install it into
# a chroot with Debian's update-grub and boot the menu it writes are
# tests/e2e/deb-*.sh (check-e2e).

# ---- make install [DESTDIR=...] [PREFIX=/usr/local] -------------------------
# The image and the menu script go where GRUB looks for them, whatever the
# PREFIX: /boot/ramsift.elf, /etc/grub.d/20_ramsift; so does
# /etc/default/ramsift. ramsift-apply's unit goes to PREFIX/lib/systemd/system
# (systemd reads /usr/local's too), naming PREFIX/sbin/ramsift-apply; the
# pre-loader to PREFIX/lib/ramsift, where ramsift-apply looks for it.
DESTDIR ?=
PREFIX ?= /usr/local
INSTALL_DEPS := $(B)/ramsift.elf $(B)/ramsift.iso $(B)/ramsift-fold $(B)/ramsift-apply \
	$(B)/ramsift-reserve.efi dist/grub.d/20_ramsift dist/man/ramsift-fold.1 dist/man/ramsift.7 \
	dist/man/ramsift-apply.8 dist/systemd/ramsift-apply.service dist/default/ramsift

# install-to ROOT PREFIX: one shell command that installs the files of
# `make install` under ROOT.
install-to = umask 022 && \
	install -D -m 644 $(B)/ramsift.elf $(1)/boot/ramsift.elf && \
	install -D -m 755 dist/grub.d/20_ramsift $(1)/etc/grub.d/20_ramsift && \
	install -D -m 644 $(B)/ramsift.iso $(1)$(2)/share/ramsift/ramsift.iso && \
	install -D -m 755 $(B)/ramsift-fold $(1)$(2)/bin/ramsift-fold && \
	install -D -m 644 dist/man/ramsift-fold.1 $(1)$(2)/share/man/man1/ramsift-fold.1 && \
	install -D -m 644 dist/man/ramsift.7 $(1)$(2)/share/man/man7/ramsift.7 && \
	install -D -m 755 $(B)/ramsift-apply $(1)$(2)/sbin/ramsift-apply && \
	install -D -m 644 dist/man/ramsift-apply.8 $(1)$(2)/share/man/man8/ramsift-apply.8 && \
	install -D -m 644 $(B)/ramsift-reserve.efi $(1)$(2)/lib/ramsift/ramsift-reserve.efi && \
	install -D -m 644 dist/default/ramsift $(1)/etc/default/ramsift && \
	mkdir -p $(1)$(2)/lib/systemd/system && \
	sed 's|@SBINDIR@|$(2)/sbin|' dist/systemd/ramsift-apply.service \
		>$(1)$(2)/lib/systemd/system/ramsift-apply.service

.PHONY: install deb check-deb netboot
install: $(INSTALL_DEPS)
	$(call say,INSTALL,$(DESTDIR)/boot $(DESTDIR)/etc $(DESTDIR)$(PREFIX))$(call install-to,$(DESTDIR),$(PREFIX))

# ---- make deb ---------------------------------------------------------------
# The package's version is the image's (RAMSIFT_VERSION), in Debian's order:
# a tag's commits after it (0.2-5-g1a2b3c4 is 0.2+git5.g1a2b3c4), a tree
# without a tag before the release its base leads to, ordered by the commit
# count, as a hash does not sort (0.2-g1a2b3c4 at the 122nd commit is
# 0.2~git122.g1a2b3c4); -dirty becomes .dirty.
DEB_COUNT := $(shell git rev-list --count HEAD 2>/dev/null)
DEB_VERSION := $(shell printf '%s\n' '$(RAMSIFT_VERSION)' | sed -E \
	-e 's/^([0-9][0-9.]*)-([0-9]+)-g([0-9a-f]+)/\1+git\2.g\3/' \
	-e 's/^([0-9][0-9.]*)-g([0-9a-f]+)/\1~git$(DEB_COUNT).g\2/' \
	-e 's/-dirty$$/.dirty/')
DEB := $(B)/ramsift_$(DEB_VERSION)_amd64.deb
# The changelog's date and the files' dates: the commit's (reproducible).
DEB_EPOCH := $(shell git log -1 --format=%ct 2>/dev/null)

deb: $(DEB)

# Only one package in build/, so that ./build/ramsift_*.deb names it.
$(DEB): $(INSTALL_DEPS) $(wildcard dist/debian/*)
	$(call say,DEB,$@)rm -rf $(B)/deb $(B)/ramsift_*_amd64.deb && \
	$(call install-to,$(B)/deb/root,/usr) && \
	$(if $(DEB_EPOCH),SOURCE_DATE_EPOCH=$(DEB_EPOCH)) sh dist/debian/mkdeb.sh '$(DEB_VERSION)' \
		'$(or $(GIT_COMMIT),none)' $(B)/deb/root $@

# Every lintian tag but the overridden ones fails, down to the informational.
check-deb: $(DEB)
	$(Q)echo "  LINTIAN $(DEB)"; lintian --allow-root --fail-on error,warning,info --info $(DEB)

CHECK_TARGETS += check-deb

# tests/e2e/deb-*.sh install the package.
check-e2e-deb-install check-e2e-deb-bootpart: $(DEB)
