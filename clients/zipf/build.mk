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

# zipf and its tests with AddressSanitizer and UBSan (make check-asan).
ZIPF_ASAN := $(OBJ)/clients/zipf/asan/zipf
ZIPF_ASAN_TESTS := $(OBJ)/clients/zipf/asan/test_zipf_counts
ZIPF_SANITIZE := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
$(ZIPF_ASAN): $(ZIPF_DIR)/zipf.c $(ZIPF_DIR)/zipf_counts.c $(wildcard $(ZIPF_DIR)/*.h)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) $(ZIPF_SANITIZE) $(filter %.c,$^) -o $@ -lm
$(OBJ)/clients/zipf/asan/test_%: $(ZIPF_DIR)/tests/test_%.c $(ZIPF_DIR)/zipf_counts.c
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) $(ZIPF_SANITIZE) -I$(ZIPF_DIR) $^ -o $@ -lcmocka -lm

define check_zipf_asan
@$(TEST_CASE) zipf-asan-counts -- $(ZIPF_ASAN_TESTS)
@$(TEST_CASE) zipf-asan-cli -- $(ZIPF_DIR)/tests/zipf-cli $(ZIPF_ASAN)
endef
