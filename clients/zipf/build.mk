# clients/zipf: zipf (build/bin/zipf), Zipf-distributed URL lists for siege (the Apache
# benchmark's workload), and its tests; included by clients/Makefile.
ZIPF_DIR   := $(TOP)/clients/zipf
ZIPF       := $(BIN)/zipf
ZIPF_OBJS  := $(call objects,$(ZIPF_DIR)/zipf.c $(ZIPF_DIR)/zipf_counts.c)
ZIPF_TESTS := $(call programs,$(wildcard $(ZIPF_DIR)/tests/test_*.c))

$(ZIPF): $(ZIPF_OBJS)
$(ZIPF): private LDLIBS_PART := -lm
$(ZIPF_TESTS): $(call objects,$(ZIPF_DIR)/zipf_counts.c)
$(ZIPF_TESTS): private CFLAGS_PART := -I$(ZIPF_DIR)
$(ZIPF_TESTS): private LDLIBS_PART := -lcmocka -lm
BUILT += $(ZIPF_OBJS) $(ZIPF_TESTS)

define check_zipf
@$(TEST_CASE) zipf-counts -- $(ZIPF_TESTS)
@$(TEST_CASE) zipf-cli -- $(ZIPF_DIR)/tests/zipf-cli $(ZIPF)
endef
