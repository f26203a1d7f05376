# Top-level build: every component has its own Makefile; this one calls them in order.
#   make            build everything
#   make check      install missing packages, build, run every test, print one summary line
#   make check-asan the sanitizer runs (libtm under ASan+UBSan, ...)
#   make demo       the main job: transactional Quake server + replay bots, with statistics
#   make bench      libtm vs GCC libitm vs mutex benchmark (results/libtm-bench.csv + plot)
#   make results    every benchmark (long)
#   make install PREFIX=/usr/local   install libtm privately (PREFIX/lib/libtm, found through
#                                    pkg-config), libtm.h, libtm-stats, man pages; DESTDIR=
#   make install-system              also replace GCC's libitm for every -fgnu-tm program (warns)
#   make uninstall, make uninstall-system   remove them again (same PREFIX, DESTDIR)
include config.mk

# Order matters: libtm first (the others link against it). scripts/ builds nothing; its
# check-run tests the scripts' command lines.
COMPONENTS := $(foreach c,libtm quakeworld-server clients httpd-memcache scripts,$(if $(wildcard $(c)/Makefile),$(c)))
PREFIX ?= /usr/local

.PHONY: all check check-run check-asan deps demo bench results install install-system uninstall \
        uninstall-system clean $(COMPONENTS)

all: $(COMPONENTS)

$(COMPONENTS):
	$(MAKE) -C $@

deps:
	@bash scripts/deps.sh

check: deps
	$(MAKE) all
	@rm -rf $(BUILD)/test-results $(BUILD)/test-logs
	@for c in $(COMPONENTS); do $(MAKE) -s -C $$c check-run || exit 1; done
	@$(TEST_SUMMARY)

demo: deps
	$(MAKE) all
	@scripts/demo

# AddressSanitizer/UBSan runs of what GCC can build with them (it refuses them on -fgnu-tm
# code): each component's check-asan-run.
check-asan: deps
	$(MAKE) all
	@rm -rf $(BUILD)/test-results $(BUILD)/test-logs
	@for c in $(COMPONENTS); do \
	  if $(MAKE) -s -C $$c -n check-asan-run >/dev/null 2>&1; then \
	    $(MAKE) -s -C $$c check-asan-run || exit 1; fi; done
	@$(TEST_SUMMARY)

bench: deps
	$(MAKE) all
	@scripts/libtm-bench

results: deps
	$(MAKE) all
	@scripts/all-results

# libtm only; the Apache module installs with make -C httpd-memcache install.
install install-system uninstall uninstall-system:
	$(MAKE) -C libtm $@ PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)

clean:
	@for c in $(COMPONENTS); do $(MAKE) -C $$c clean; done
	rm -rf $(BUILD)
