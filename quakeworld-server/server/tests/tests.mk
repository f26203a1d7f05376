# Tests of qwsv (included from ../build.mk). Ports 27500-27599 on 127.0.0.1. Tests that run
# transactions carry --tm (scripts/test-case: also run with LIBTM_HTM=0).
SV_TESTDIR := $(OBJ)/quakeworld-server/server/tests
QWCLIENT   := $(SV_TESTDIR)/qwclient
# CMocka programs, each linked with the server's library
SV_UNITS   := $(call programs,$(wildcard $(SERVER)/tests/test_*.c))
TEST_ENV   := QWSV=$(QWSV) QWCLIENT=$(QWCLIENT) QW_SHARED=$(SHARED) QW_BIN=$(BIN) \
              QW_TMPDIR=$(BUILD)/tmp/qwsv-tests QW_CORPUS=$(SERVER)/tests/corpus

$(SV_UNITS): $(SV_LIB) $(QCVM_LIB) $(WORLD_LIB) $(PROTO_TM_LIB)
$(SV_UNITS): private CFLAGS_PART := $(SV_CFLAGS)
$(SV_UNITS): private LDLIBS_PART := -lcmocka $(SV_LDLIBS)
# a client: plain C on libqwproto
$(QWCLIENT): $(PROTO_LIB)
$(QWCLIENT): private CFLAGS_PART := -I$(PROTO)
$(QWCLIENT): private LDLIBS_PART := -lm
BUILT += $(SV_UNITS) $(QWCLIENT)

# qwsv for ThreadSanitizer: every source of the server, the world and the protocol, without
# -fgnu-tm (TSan does not see inside transactions; the lock-based modes are what it checks).
TSAN_QWSV := $(SV_TESTDIR)/qwsv-tsan
TSAN_SRCS := $(SV_ALL_SRCS) $(wildcard $(PROTO)/*.c $(WORLD)/*.c $(SERVER)/progs/*.c) \
             $(wildcard $(COMMON)/*.c)
$(TSAN_QWSV): $(TSAN_SRCS) $(wildcard $(SERVER)/*.h $(SERVER)/*/*.h $(PROTO)/*.h $(WORLD)/*.h)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) -O1 -g -fsanitize=thread -DSV_WITHOUT_TM -DQC_WITHOUT_TM -pthread \
	    $(SV_INCLUDES) $(TSAN_SRCS) -o $@ -lm -lnettle -lz

# qwsv for AddressSanitizer and UBSan (make check-asan): the same sources, without -fgnu-tm.
ASAN_QWSV := $(SV_TESTDIR)/qwsv-asan
$(ASAN_QWSV): $(TSAN_SRCS) $(wildcard $(SERVER)/*.h $(SERVER)/*/*.h $(PROTO)/*.h $(WORLD)/*.h)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	    -fno-omit-frame-pointer -DSV_WITHOUT_TM -DQC_WITHOUT_TM -pthread $(SV_INCLUDES) $(TSAN_SRCS) \
	    -o $@ -lm -lnettle -lz

# The fuzzer is built only where clang-14 exists (its test then says it was skipped).
FUZZER    := $(SV_TESTDIR)/fuzz_parse
CLANG     := $(shell command -v clang-14 2>/dev/null)
FUZZ_SRCS := $(SERVER)/tests/fuzz_parse.c $(SERVER)/net/parse.c $(SERVER)/net/tokenize.c \
             $(addprefix $(PROTO)/,qw_msg.c qw_usercmd.c qw_crc.c qw_netchan.c qw_info.c)
$(FUZZER): $(FUZZ_SRCS) $(wildcard $(SERVER)/*.h $(SERVER)/net/*.h $(PROTO)/*.h)
ifneq ($(CLANG),)
	@mkdir -p $(@D)
	$(CLANG) -g -O1 -fsanitize=fuzzer,address -Wno-unknown-attributes $(SV_INCLUDES) $(FUZZ_SRCS) -o $@
else
	@echo "clang-14 not found: the fuzzer is not built"
endif

SV_CHECK_PROGRAMS := $(QWSV) $(QWCLIENT) $(SV_UNITS) $(FUZZER) $(TSAN_QWSV)
# make check-asan: malformed packets and a fight in the lock-based modes on the ASan build.
define check_server_asan
@$(TEST_CASE) qwsv-asan-malformed --timeout 120 -- env $(TEST_ENV) QWSV=$(ASAN_QWSV) \
    $(SERVER)/tests/test-malformed.sh
@$(TEST_CASE) qwsv-asan-fight-lock --timeout 180 -- env $(TEST_ENV) $(SERVER)/tests/test-tsan.sh $(ASAN_QWSV) lock 27537
@$(TEST_CASE) qwsv-asan-fight-region --timeout 180 -- env $(TEST_ENV) $(SERVER)/tests/test-tsan.sh $(ASAN_QWSV) region 27538
@$(TEST_CASE) qwsv-asan-fight-lpt --timeout 180 -- env $(TEST_ENV) $(SERVER)/tests/test-tsan.sh $(ASAN_QWSV) none 27539 lpt
endef
define check_server
@$(TEST_CASE) qwsv-units --timeout 30 --tm -- $(SV_TESTDIR)/test_units $(SERVER)/tests/corpus $(QW_CHKTBL)
@$(TEST_CASE) qwsv-game --timeout 30 --tm -- env $(TEST_ENV) $(SERVER)/tests/test-game.sh $(SV_TESTDIR)/test_game
@$(TEST_CASE) qwsv-qcgame-units --timeout 120 --tm -- env $(TEST_ENV) $(SERVER)/tests/test-qcgame.sh $(SV_TESTDIR)/test_qcgame
@$(TEST_CASE) qwsv-qcgame --timeout 300 -- env $(TEST_ENV) $(SERVER)/tests/test-qcgame.sh
@$(TEST_CASE) qwsv-teleport --timeout 30 --tm -- env $(TEST_ENV) $(SERVER)/tests/test-teleport.sh $(SV_TESTDIR)/test_teleport
@$(TEST_CASE) qwsv-movers --timeout 30 --tm -- env $(TEST_ENV) $(SERVER)/tests/test-movers.sh $(SV_TESTDIR)/test_movers
@$(TEST_CASE) qwsv-events --timeout 30 --tm -- env $(TEST_ENV) $(SERVER)/tests/test-events.sh $(SV_TESTDIR)/test_events
@$(TEST_CASE) qwsv-sched-units --timeout 30 -- $(SV_TESTDIR)/test_sched_units
@$(TEST_CASE) qwsv-handover --timeout 30 --tm -- $(SV_TESTDIR)/test_handover
@$(TEST_CASE) qwsv-jobs --timeout 30 -- env $(TEST_ENV) $(SERVER)/tests/test-jobs.sh $(SV_TESTDIR)/test_jobs
@$(TEST_CASE) qwsv-help --timeout 20 -- env $(TEST_ENV) $(SERVER)/tests/test-help.sh
@$(TEST_CASE) qwsv-admin-units --timeout 30 -- $(SV_TESTDIR)/test_admin
@$(TEST_CASE) qwsv-source-budget --timeout 30 -- $(SV_TESTDIR)/test_source_budget
@$(TEST_CASE) qwsv-cmdline --timeout 60 -- env $(TEST_ENV) $(SERVER)/tests/test-cmdline.sh
@$(TEST_CASE) qwsv-hints --timeout 60 -- env $(TEST_ENV) $(SERVER)/tests/test-hints.sh
@$(TEST_CASE) qwsv-console --timeout 90 -- env $(TEST_ENV) $(SERVER)/tests/test-console.sh
@$(TEST_CASE) qwsv-rcon --timeout 60 -- env $(TEST_ENV) $(SERVER)/tests/test-rcon.sh
@$(TEST_CASE) qwsv-spoof --timeout 60 -- env $(TEST_ENV) $(SERVER)/tests/test-spoof.sh
@$(TEST_CASE) qwsv-log-escape --timeout 60 -- env $(TEST_ENV) $(SERVER)/tests/test-log-escape.sh
@$(TEST_CASE) qwsv-progs-refused --timeout 120 -- env $(TEST_ENV) $(SERVER)/tests/test-progs-refused.sh
@$(TEST_CASE) qwsv-ezquake-admin --timeout 90 --tm -- env $(TEST_ENV) $(SERVER)/tests/test-ezquake-admin.sh
@$(TEST_CASE) quake-scripts --timeout 20 -- env $(TEST_ENV) $(SERVER)/tests/test-scripts.sh
@$(TEST_CASE) qwsv-quakestat --timeout 60 -- env $(TEST_ENV) $(SERVER)/tests/test-quakestat.sh
@$(TEST_CASE) qwsv-signon --timeout 60 -- env $(TEST_ENV) $(SERVER)/tests/test-signon.sh
@$(TEST_CASE) qwsv-parallel-lock --timeout 90 -- env $(TEST_ENV) $(SERVER)/tests/test-parallel.sh lock 27522
@$(TEST_CASE) qwsv-parallel-stm --timeout 90 --tm -- env $(TEST_ENV) $(SERVER)/tests/test-parallel.sh stm 27523
@$(TEST_CASE) qwsv-parallel-stmlock --timeout 90 --tm -- env $(TEST_ENV) $(SERVER)/tests/test-parallel.sh stmlock 27526
@$(TEST_CASE) qwsv-parallel-region --timeout 90 -- env $(TEST_ENV) $(SERVER)/tests/test-parallel.sh region 27530
@$(TEST_CASE) qwsv-parallel-lpt --timeout 90 -- env $(TEST_ENV) $(SERVER)/tests/test-parallel.sh none 27534 lpt
@$(TEST_CASE) qwsv-parallel-lpt-stm --timeout 90 --tm -- env $(TEST_ENV) $(SERVER)/tests/test-parallel.sh stm 27535 lpt
@$(TEST_CASE) qwsv-tsan-region --timeout 180 -- env $(TEST_ENV) $(SERVER)/tests/test-tsan.sh $(TSAN_QWSV) region 27531
@$(TEST_CASE) qwsv-tsan-lock --timeout 180 -- env $(TEST_ENV) $(SERVER)/tests/test-tsan.sh $(TSAN_QWSV) lock 27532
@$(TEST_CASE) qwsv-tsan-lpt --timeout 180 -- env $(TEST_ENV) $(SERVER)/tests/test-tsan.sh $(TSAN_QWSV) none 27536 lpt
@$(TEST_CASE) qwsv-spectator --timeout 90 --tm -- env $(TEST_ENV) $(SERVER)/tests/test-spectator.sh stm
@$(TEST_CASE) qwsv-scoreboard --timeout 90 --tm -- env $(TEST_ENV) $(SERVER)/tests/test-scoreboard.sh stm 27538
@$(TEST_CASE) qwsv-scoreboard-lpt --timeout 90 -- env $(TEST_ENV) $(SERVER)/tests/test-scoreboard.sh none 27539 lpt
@$(TEST_CASE) qwsv-replay --timeout 90 --tm -- env $(TEST_ENV) $(SERVER)/tests/test-replay.sh 27541
@$(TEST_CASE) qwsv-gcc-libitm --timeout 90 -- env $(TEST_ENV) $(SERVER)/tests/test-gcc-libitm.sh 27547
@$(TEST_CASE) qwsv-replay-work --timeout 120 -- env $(TEST_ENV) $(SERVER)/tests/test-replay-work.sh 27543
@$(TEST_CASE) qwsv-replay-clock --timeout 90 -- env $(TEST_ENV) $(SERVER)/tests/test-replay-clock.sh 27545
	@$(TEST_CASE) qwsv-accounting --timeout 90 -- env $(TEST_ENV) $(SERVER)/tests/test-accounting.sh 27571
@$(TEST_CASE) qwsv-full --timeout 60 -- env $(TEST_ENV) $(SERVER)/tests/test-full.sh
@$(TEST_CASE) qwsv-bigslots --timeout 60 -- env $(TEST_ENV) $(SERVER)/tests/test-bigslots.sh
@$(TEST_CASE) qwsv-malformed --timeout 60 -- env $(TEST_ENV) $(SERVER)/tests/test-malformed.sh
@$(TEST_CASE) qwsv-timeout --timeout 60 -- env $(TEST_ENV) $(SERVER)/tests/test-timeout.sh
@$(TEST_CASE) qwsv-waitall --timeout 60 -- env $(TEST_ENV) $(SERVER)/tests/test-waitall.sh
@$(TEST_CASE) qwsv-mvdsv-peer --timeout 60 -- env $(TEST_ENV) $(SERVER)/tests/test-mvdsv-peer.sh
@$(TEST_CASE) qwsv-mvdsv-scoreboard --timeout 60 -- env $(TEST_ENV) $(SERVER)/tests/test-mvdsv-scoreboard.sh
@$(TEST_CASE) qwsv-fuzz --timeout 60 -- env $(TEST_ENV) $(SERVER)/tests/test-fuzz.sh $(FUZZER)
endef
