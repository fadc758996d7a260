# SPDX-License-Identifier: GPL-2.0-or-later
# build/host/ramsift-jsoncheck: the strict JSON reader of tests/json as a
# tool. The end-to-end scenarios run it on every log of a run that ended
# (tests/e2e/lib.sh's e2e_boot): the json: line comes right before the
# result line, parses, and says what the text lines say. tests/fold/fold-smoke.sh
# holds ramsift-fold --format json to it too. The reader's own unit tests
# are tests/unit/test_json.c's.

$(B)/host/ramsift-jsoncheck: tests/json/jsoncheck.c tests/json/jsonparse.c tests/json/jsonparse.h \
		lib/escape.c lib/escape.h
	$(call say,HOSTCC,$@)mkdir -p $(@D) && $(HOST_CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror \
		-iquote lib -o $@ tests/json/jsoncheck.c tests/json/jsonparse.c lib/escape.c

# check-json: the checker accepts a real run's log and rejects copies with
# one thing broken (tests/json/check-smoke.sh), so it is known to be able to
# fail.
.PHONY: check-json
check-json: $(B)/host/ramsift-jsoncheck
	$(Q)sh tests/json/check-smoke.sh $<

HOST_CHECKS += check-json
