# Rules shared by the Makefiles of world/ and mapgen/ (included after config.mk and after they
# set OBJDIR, LIB, LIB_OBJS and ALL_CFLAGS): objects, the static library, and running CMocka
# test programs through the harness.

$(OBJDIR)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

# $(call run_tests,PREFIX,PROGRAMS[,--tm]): one harness case per program, named PREFIX-NAME where
# NAME is the program's name without test_ and with - for _ (--tm: programs that run
# transactions, also run with LIBTM_HTM=0, see scripts/test-case). The tests read the free maps
# from $(SHARED)/quake (skipping what needs them when absent) and write under $(BUILD)/tmp.
define run_tests
@for t in $(2); do \
	  n=$$(basename $$t | sed 's/^test_//; s/_/-/g'); \
	  $(TEST_CASE) $(1)-$$n --timeout 120 $(3) -- env QW_SHARED=$(SHARED) QW_BIN=$(BIN) \
	      QW_TMPDIR=$(BUILD)/tmp $$t; \
	done
endef
