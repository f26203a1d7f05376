# Tests of qwsv (included from ../Makefile). Ports 27500-27599 on 127.0.0.1. Tests that run
# transactions carry --tm (scripts/test-case: also run with LIBTM_HTM=0).
QWCLIENT := $(TESTDIR)/qwclient
TEST_ENV := QWSV=$(QWSV) QWCLIENT=$(QWCLIENT) QW_SHARED=$(SHARED) QW_BIN=$(BIN) \
            QW_TMPDIR=$(BUILD)/tmp/qwsv-tests QW_CORPUS=$(CURDIR)/tests/corpus

$(QWCLIENT): tests/qwclient.c $(LIBS) | $(TESTDIR)
	$(CC) $(ALLCFLAGS) $< -o $@ $(LIBS) $(LDLIBS)

UNITS    := $(TESTDIR)/test_units
FUZZER   := $(TESTDIR)/fuzz_parse
CLANG    := $(shell command -v clang-14 2>/dev/null)
FUZZ_SRCS := tests/fuzz_parse.c sv_parse.c sv_tokenize.c $(addprefix $(PROTO)/,qw_msg.c \
             qw_usercmd.c qw_crc.c qw_netchan.c qw_info.c)

# qwsv for ThreadSanitizer: every source of the server, the world and the protocol, without
# -fgnu-tm (TSan does not see inside transactions; the lock-based modes are what it checks).
TSAN_QWSV := $(TESTDIR)/qwsv-tsan
TSAN_SRCS := $(wildcard *.c game/*.c $(PROTO)/*.c $(WORLD)/*.c)
$(TSAN_QWSV): $(TSAN_SRCS) $(wildcard *.h game/*.h $(PROTO)/*.h $(WORLD)/*.h) | $(TESTDIR)
	$(CC) $(CSTD) $(WARN) -O1 -g -fsanitize=thread -DSV_WITHOUT_TM -pthread $(INCLUDES) \
	    $(TSAN_SRCS) -o $@ -lm -lnettle

GAMETEST := $(TESTDIR)/test_game
$(GAMETEST): tests/test_game.c $(SVLIB) $(LIBS) | $(TESTDIR)
	$(CC) $(ALLCFLAGS) $< -o $@ $(SVLIB) $(LIBS) -lcmocka $(LDLIBS)

MOVERTEST := $(TESTDIR)/test_movers
$(MOVERTEST): tests/test_movers.c $(SVLIB) $(LIBS) | $(TESTDIR)
	$(CC) $(ALLCFLAGS) $< -o $@ $(SVLIB) $(LIBS) -lcmocka $(LDLIBS)

EVENTTEST := $(TESTDIR)/test_events
$(EVENTTEST): tests/test_events.c $(SVLIB) $(LIBS) | $(TESTDIR)
	$(CC) $(ALLCFLAGS) $< -o $@ $(SVLIB) $(LIBS) -lcmocka $(LDLIBS)

TELETEST := $(TESTDIR)/test_teleport
$(TELETEST): tests/test_teleport.c $(SVLIB) $(LIBS) | $(TESTDIR)
	$(CC) $(ALLCFLAGS) $< -o $@ $(SVLIB) $(LIBS) -lcmocka $(LDLIBS)

ADMINTEST := $(TESTDIR)/test_admin
$(ADMINTEST): tests/test_admin.c $(SVLIB) $(LIBS) | $(TESTDIR)
	$(CC) $(ALLCFLAGS) $< -o $@ $(SVLIB) $(LIBS) -lcmocka $(LDLIBS)

SCHEDUNITS := $(TESTDIR)/test_sched_units
$(SCHEDUNITS): tests/test_sched_units.c $(SVLIB) $(LIBS) | $(TESTDIR)
	$(CC) $(ALLCFLAGS) $< -o $@ $(SVLIB) $(LIBS) -lcmocka $(LDLIBS)

JOBTEST := $(TESTDIR)/test_jobs
$(JOBTEST): tests/test_jobs.c $(SVLIB) $(LIBS) | $(TESTDIR)
	$(CC) $(ALLCFLAGS) $< -o $@ $(SVLIB) $(LIBS) -lcmocka $(LDLIBS)

$(UNITS): tests/test_units.c $(SVLIB) $(LIBS) | $(TESTDIR)
	$(CC) $(ALLCFLAGS) $< -o $@ $(SVLIB) $(LIBS) -lcmocka $(LDLIBS)

# The fuzzer is built only where clang-14 exists (its test then says it was skipped).
$(FUZZER): $(FUZZ_SRCS) $(wildcard *.h) | $(TESTDIR)
ifneq ($(CLANG),)
	$(CLANG) -g -O1 -fsanitize=fuzzer,address -Wno-unknown-attributes $(INCLUDES) $(FUZZ_SRCS) -o $@
else
	@echo "clang-14 not found: the fuzzer is not built"
endif

check-run: $(QWSV) $(QWCLIENT) $(UNITS) $(ADMINTEST) $(GAMETEST) $(TELETEST) $(EVENTTEST) $(MOVERTEST) $(FUZZER) $(TSAN_QWSV) $(SCHEDUNITS) $(JOBTEST)
	@$(TEST_CASE) qwsv-units --timeout 30 --tm -- $(UNITS) $(CURDIR)/tests/corpus $(SHARED)/quake/protocol/chktbl.bin
	@$(TEST_CASE) qwsv-game --timeout 30 --tm -- env $(TEST_ENV) tests/test-game.sh $(GAMETEST)
	@$(TEST_CASE) qwsv-teleport --timeout 30 --tm -- env $(TEST_ENV) tests/test-teleport.sh $(TELETEST)
	@$(TEST_CASE) qwsv-movers --timeout 30 --tm -- env $(TEST_ENV) tests/test-movers.sh $(MOVERTEST)
	@$(TEST_CASE) qwsv-events --timeout 30 --tm -- env $(TEST_ENV) tests/test-events.sh $(EVENTTEST)
	@$(TEST_CASE) qwsv-sched-units --timeout 30 -- $(SCHEDUNITS)
	@$(TEST_CASE) qwsv-jobs --timeout 30 -- env $(TEST_ENV) tests/test-jobs.sh $(JOBTEST)
	@$(TEST_CASE) qwsv-help --timeout 20 -- env $(TEST_ENV) tests/test-help.sh
	@$(TEST_CASE) qwsv-admin-units --timeout 30 -- $(ADMINTEST)
	@$(TEST_CASE) qwsv-cmdline --timeout 60 -- env $(TEST_ENV) tests/test-cmdline.sh
	@$(TEST_CASE) qwsv-hints --timeout 60 -- env $(TEST_ENV) tests/test-hints.sh
	@$(TEST_CASE) qwsv-console --timeout 90 -- env $(TEST_ENV) tests/test-console.sh
	@$(TEST_CASE) qwsv-rcon --timeout 60 -- env $(TEST_ENV) tests/test-rcon.sh
	@$(TEST_CASE) qwsv-ezquake-admin --timeout 90 --tm -- env $(TEST_ENV) tests/test-ezquake-admin.sh
	@$(TEST_CASE) quake-scripts --timeout 20 -- env $(TEST_ENV) tests/test-scripts.sh
	@$(TEST_CASE) qwsv-quakestat --timeout 60 -- env $(TEST_ENV) tests/test-quakestat.sh
	@$(TEST_CASE) qwsv-signon --timeout 60 -- env $(TEST_ENV) tests/test-signon.sh
	@$(TEST_CASE) qwsv-parallel-lock --timeout 90 -- env $(TEST_ENV) tests/test-parallel.sh lock 27522
	@$(TEST_CASE) qwsv-parallel-stm --timeout 90 --tm -- env $(TEST_ENV) tests/test-parallel.sh stm 27523
	@$(TEST_CASE) qwsv-parallel-stmlock --timeout 90 --tm -- env $(TEST_ENV) tests/test-parallel.sh stmlock 27526
	@$(TEST_CASE) qwsv-parallel-region --timeout 90 -- env $(TEST_ENV) tests/test-parallel.sh region 27530
	@$(TEST_CASE) qwsv-parallel-lpt --timeout 90 -- env $(TEST_ENV) tests/test-parallel.sh none 27534 lpt
	@$(TEST_CASE) qwsv-parallel-lpt-stm --timeout 90 --tm -- env $(TEST_ENV) tests/test-parallel.sh stm 27535 lpt
	@$(TEST_CASE) qwsv-tsan-region --timeout 180 -- env $(TEST_ENV) tests/test-tsan.sh $(TSAN_QWSV) region 27531
	@$(TEST_CASE) qwsv-tsan-lock --timeout 180 -- env $(TEST_ENV) tests/test-tsan.sh $(TSAN_QWSV) lock 27532
	@$(TEST_CASE) qwsv-tsan-lpt --timeout 180 -- env $(TEST_ENV) tests/test-tsan.sh $(TSAN_QWSV) none 27536 lpt
	@$(TEST_CASE) qwsv-spectator --timeout 90 --tm -- env $(TEST_ENV) tests/test-spectator.sh stm
	@$(TEST_CASE) qwsv-full --timeout 60 -- env $(TEST_ENV) tests/test-full.sh
	@$(TEST_CASE) qwsv-bigslots --timeout 60 -- env $(TEST_ENV) tests/test-bigslots.sh
	@$(TEST_CASE) qwsv-malformed --timeout 60 -- env $(TEST_ENV) tests/test-malformed.sh
	@$(TEST_CASE) qwsv-timeout --timeout 60 -- env $(TEST_ENV) tests/test-timeout.sh
	@$(TEST_CASE) qwsv-waitall --timeout 60 -- env $(TEST_ENV) tests/test-waitall.sh
	@$(TEST_CASE) qwsv-mvdsv-peer --timeout 60 -- env $(TEST_ENV) tests/test-mvdsv-peer.sh
	@$(TEST_CASE) qwsv-fuzz --timeout 60 -- env $(TEST_ENV) tests/test-fuzz.sh $(FUZZER)

check: check-run
	@$(TEST_SUMMARY)
