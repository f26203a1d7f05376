# quakeworld-server/world: libqwworld.a -- BSP loading, collision hulls and traces, the areanode
# tree, PVS, player movement -- and its tests (included by quakeworld-server/Makefile).
# Compiled with $(TM_CFLAGS): the server calls its transaction_safe functions inside
# transactions. A map's checksums come from libqwproto (qw_map_checksum.h), linked after it.
WORLD       := $(TOP)/quakeworld-server/world
WORLD_OBJS  := $(call objects,$(wildcard $(WORLD)/*.c))
WORLD_TESTS := $(call programs,$(wildcard $(WORLD)/tests/test_*.c))

$(WORLD_LIB): $(WORLD_OBJS)
$(WORLD_OBJS): CFLAGS_PART := $(TM_CFLAGS) -I$(WORLD) -I$(PROTO)
# The tests generate their maps in memory with qwmapgen's library (quakeworld-server/Makefile
# adds it to their prerequisites).
$(WORLD_TESTS): $(WORLD_LIB) $(PROTO_LIB)
$(WORLD_TESTS): private CFLAGS_PART = $(TM_CFLAGS) -I$(WORLD) -I$(PROTO) -I$(MAPGEN) -pthread
$(WORLD_TESTS): private LDLIBS_PART := -lcmocka -lm $(LIBTM_LDFLAGS)
BUILT += $(WORLD_OBJS) $(WORLD_TESTS)

# The transaction test runs once more on GCC's own libitm, so that a failure can be told
# apart: ours, or the runtime's.
define check_world
$(call run_tests,qwworld,$(filter-out %/test_tm,$(WORLD_TESTS)))
$(call run_tests,qwworld,$(filter %/test_tm,$(WORLD_TESTS)),--tm)
@$(TEST_CASE) qwworld-tm-gcc-libitm --timeout 120 -- env LD_LIBRARY_PATH=$(GCC_LIBITM_DIR) \
	    QW_SHARED=$(SHARED) QW_BIN=$(BIN) QW_TMPDIR=$(BUILD)/tmp $(filter %/test_tm,$(WORLD_TESTS))
endef
