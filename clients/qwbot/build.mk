# clients/qwbot: qwbot, the QuakeWorld record/replay bots (build/bin/qwbot), its unit tests and
# its behaviour tests against our server (build/bin/qwsv) and the real mvdsv + KTX; included by
# clients/Makefile. Plain C on the plain libqwproto.a (the wire format, the walker of server
# messages, the map checksums) and, for -movers, libqwworld.a (BSP29 maps, hull traces).
QWBOT       := $(TOP)/clients/qwbot
QWBOT_PROG  := $(BIN)/qwbot
QWBOT_OBJS  := $(call objects,$(wildcard $(QWBOT)/*.c))
QWBOT_TESTS := $(call programs,$(wildcard $(QWBOT)/tests/test_*.c))
# -movers reads maps with libqwworld (built with -fgnu-tm for qwsv: its transaction-safe
# clones need libtm's libitm.so.1 at link time, though qwbot runs no transaction)
QWBOT_LDLIBS := -levent -lz -lm $(LIBTM_LDFLAGS) -litm

$(QWBOT_OBJS): CFLAGS_PART := -I$(QWBOT) -I$(PROTO) -I$(WORLD) $(COMMON_INCLUDE) -DQWBOT_DEFAULT_CHKTBL='"$(QW_CHKTBL)"'
$(QWBOT_PROG): $(QWBOT_OBJS) $(COMMON_OBJS) $(WORLD_LIB) $(PROTO_LIB)
$(QWBOT_PROG): private LDLIBS_PART := $(QWBOT_LDLIBS)
# the unit tests link everything but main (test_parse feeds the bot protocol/tests/every_svc.h)
$(QWBOT_TESTS): $(filter-out %/main.o,$(QWBOT_OBJS)) $(COMMON_OBJS) $(WORLD_LIB) $(PROTO_LIB)
$(QWBOT_TESTS): private CFLAGS_PART := -I$(QWBOT) -I$(PROTO) -I$(WORLD) -I$(PROTO)/tests $(COMMON_INCLUDE)
$(QWBOT_TESTS): private LDLIBS_PART := -lcmocka $(QWBOT_LDLIBS)
BUILT += $(QWBOT_OBJS) $(QWBOT_TESTS)

# Behaviour tests get the paths they need from the environment.
QWBOT_ENV := env QWBOT=$(QWBOT_PROG) QW_BIN=$(BIN) QW_SHARED=$(SHARED) QW_CHKTBL=$(QW_CHKTBL) \
             QWBOT_TRACES=$(QWBOT)/traces QWBOT_TMP=$(BUILD)/tmp \
             QWCLIENT=$(OBJ)/quakeworld-server/server/tests/qwclient

define check_qwbot
@$(TEST_CASE) qwbot-trace --timeout 60 -- $(OBJ)/clients/qwbot/tests/test_trace $(QWBOT)/traces
@$(TEST_CASE) qwbot-move --timeout 60 -- $(OBJ)/clients/qwbot/tests/test_move $(QW_CHKTBL)
@$(TEST_CASE) qwbot-parse --timeout 60 -- $(OBJ)/clients/qwbot/tests/test_parse
@$(TEST_CASE) qwbot-nav --timeout 60 -- $(OBJ)/clients/qwbot/tests/test_nav $(SHARED)/quake/id1/maps
@$(TEST_CASE) qwbot-cli --timeout 60 -- $(QWBOT_ENV) $(QWBOT)/tests/cli.sh
@$(TEST_CASE) qwbot-mvdsv-server-help --timeout 60 -- $(TOP)/scripts/tests/help.sh \
    $(QWBOT)/mvdsv-server.sh
@$(TEST_CASE) qwbot-vs-mvdsv --timeout 120 -- $(QWBOT_ENV) $(QWBOT)/tests/vs-mvdsv.sh
@$(TEST_CASE) qwbot-unstick-mvdsv --timeout 120 -- $(QWBOT_ENV) $(QWBOT)/tests/unstick-mvdsv.sh
@$(TEST_CASE) qwbot-replay-identical --timeout 120 -- $(QWBOT_ENV) $(QWBOT)/tests/replay-identical.sh
@$(TEST_CASE) qwbot-vs-qwsv --timeout 120 -- $(QWBOT_ENV) $(QWBOT)/tests/vs-qwsv.sh
@$(TEST_CASE) qwbot-fight --timeout 120 --tm -- $(QWBOT_ENV) $(QWBOT)/tests/fight.sh stm 27621
@$(TEST_CASE) qwbot-rotation-qwsv --timeout 120 --tm -- $(QWBOT_ENV) $(QWBOT)/tests/rotation-qwsv.sh 27640
@$(TEST_CASE) qwbot-rotation-qc-qwsv --timeout 400 --tm -- $(QWBOT_ENV) $(QWBOT)/tests/rotation-games-qwsv.sh qc 27643
@$(TEST_CASE) qwbot-rotation-c-qwsv --timeout 400 --tm -- $(QWBOT_ENV) $(QWBOT)/tests/rotation-games-qwsv.sh c 27644
@$(TEST_CASE) qwbot-loss-qwsv --timeout 120 --tm -- $(QWBOT_ENV) $(QWBOT)/tests/loss-qwsv.sh 27645
@$(TEST_CASE) qwbot-flood-qwsv --timeout 120 --tm -- $(QWBOT_ENV) $(QWBOT)/tests/flood-qwsv.sh 27646
@$(TEST_CASE) qwbot-movers-qwsv --timeout 900 -- $(QWBOT_ENV) $(QWBOT)/tests/movers-qwsv.sh 27649
@$(TEST_CASE) qwbot-ezquake-rotation-qc-qwsv --timeout 240 -- $(QWBOT_ENV) $(QWBOT)/tests/ezquake-rotation-qwsv.sh qc 27647
@$(TEST_CASE) qwbot-ezquake-rotation-c-qwsv --timeout 240 -- $(QWBOT_ENV) $(QWBOT)/tests/ezquake-rotation-qwsv.sh c 27648
@$(TEST_CASE) qwbot-bigslots-qwsv --timeout 120 -- $(QWBOT_ENV) $(QWBOT)/tests/bigslots-qwsv.sh 27642
endef

# qwbot and its unit tests with AddressSanitizer and UBSan (make check-asan): the plain sources,
# with the protocol's.
QWBOT_ASAN      := $(OBJ)/clients/qwbot/asan/qwbot
QWBOT_ASAN_SRCS := $(wildcard $(QWBOT)/*.c) $(PROTO_SRCS) $(wildcard $(COMMON)/*.c)
QWBOT_SANITIZE  := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
                   -fno-sanitize-recover=undefined
$(QWBOT_ASAN): $(QWBOT_ASAN_SRCS) $(WORLD_LIB) $(wildcard $(QWBOT)/*.h $(PROTO)/*.h $(COMMON)/*.h)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) $(QWBOT_SANITIZE) -I$(QWBOT) -I$(PROTO) -I$(WORLD) -I$(LIBTM_INCLUDE) $(COMMON_INCLUDE) \
	    -DQWBOT_DEFAULT_CHKTBL='"$(QW_CHKTBL)"' $(QWBOT_ASAN_SRCS) $(WORLD_LIB) -o $@ $(QWBOT_LDLIBS)
QWBOT_ASAN_TESTS := $(patsubst $(OBJ)/clients/qwbot/tests/%,$(OBJ)/clients/qwbot/asan/%,$(QWBOT_TESTS))
$(OBJ)/clients/qwbot/asan/test_%: $(QWBOT)/tests/test_%.c $(QWBOT_ASAN_SRCS) $(WORLD_LIB)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) $(QWBOT_SANITIZE) -I$(QWBOT) -I$(PROTO) -I$(WORLD) -I$(PROTO)/tests -I$(LIBTM_INCLUDE) $(COMMON_INCLUDE) \
	    -DQWBOT_DEFAULT_CHKTBL='"$(QW_CHKTBL)"' $< $(filter-out %/main.c,$(QWBOT_ASAN_SRCS)) $(WORLD_LIB) -o $@ \
	    -lcmocka $(QWBOT_LDLIBS)

define check_qwbot_asan
@$(TEST_CASE) qwbot-asan-trace --timeout 60 -- $(OBJ)/clients/qwbot/asan/test_trace $(QWBOT)/traces
@$(TEST_CASE) qwbot-asan-move --timeout 60 -- $(OBJ)/clients/qwbot/asan/test_move $(QW_CHKTBL)
@$(TEST_CASE) qwbot-asan-parse --timeout 60 -- $(OBJ)/clients/qwbot/asan/test_parse
@$(TEST_CASE) qwbot-asan-nav --timeout 120 -- $(OBJ)/clients/qwbot/asan/test_nav $(SHARED)/quake/id1/maps
@$(TEST_CASE) qwbot-asan-replay-identical --timeout 180 -- env QWBOT=$(QWBOT_ASAN) QW_BIN=$(BIN) \
    QW_SHARED=$(SHARED) QW_CHKTBL=$(QW_CHKTBL) QWBOT_TRACES=$(QWBOT)/traces QWBOT_TMP=$(BUILD)/tmp/asan \
    $(QWBOT)/tests/replay-identical.sh
@$(TEST_CASE) qwbot-asan-vs-qwsv --timeout 180 -- env QWBOT=$(QWBOT_ASAN) QW_BIN=$(BIN) \
    QW_SHARED=$(SHARED) QW_CHKTBL=$(QW_CHKTBL) QWBOT_TRACES=$(QWBOT)/traces QWBOT_TMP=$(BUILD)/tmp/asan \
    QWCLIENT=$(OBJ)/quakeworld-server/server/tests/qwclient $(QWBOT)/tests/vs-qwsv.sh
endef
