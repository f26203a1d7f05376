# Settings shared by every component's Makefile (include it with: include ../config.mk).
TOP       := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
BUILD     := $(TOP)/build
BIN       := $(BUILD)/bin
OBJ       := $(BUILD)/obj
LIBDIR    := $(BUILD)/lib
SHARED    ?= $(abspath $(TOP)/../shared)

CC        := gcc
CFLAGS    ?= -O2 -g
WARN      := -Wall -Wextra
CSTD      := -std=gnu11
# Every translation unit compiled with -fgnu-tm also gets -fno-tree-loop-distribute-patterns:
# GCC 12 otherwise turns store loops inside transactions into plain, uninstrumented memset calls.
TM_CFLAGS := -fgnu-tm -fno-tree-loop-distribute-patterns

# libtm, the project's drop-in libitm.so.1. Linking -fgnu-tm code with these flags picks libtm;
# LD_LIBRARY_PATH=/usr/lib/x86_64-linux-gnu switches a binary back to GCC's libitm for comparisons.
LIBTM_DIR     := $(TOP)/libtm/lib
LIBTM_INCLUDE := $(TOP)/libtm/include
LIBTM_LDFLAGS := -L$(LIBTM_DIR) -Wl,-rpath,$(LIBTM_DIR)
GCC_LIBITM_DIR := /usr/lib/x86_64-linux-gnu
# libtm's registries as `libtm-stats --list KIND` prints them (src/algorithms.def,
# src/managers.def): its algorithms (LIBTM_ALGO values), those whose every conflict goes to the
# contention manager, and the managers (LIBTM_CM values). Each list is asked for once, when a
# Makefile first uses it (the first use replaces the variable by its value).
LIBTM_LIST := $(TOP)/libtm/tools/libtm-stats --list
libtm_list = $(eval $(1) := $$(shell $(LIBTM_LIST) $(2)))$($(1))
LIBTM_ALGOS = $(call libtm_list,LIBTM_ALGOS,algorithms)
LIBTM_MANAGED_ALGOS = $(call libtm_list,LIBTM_MANAGED_ALGOS,managed-algorithms)
LIBTM_MANAGERS = $(call libtm_list,LIBTM_MANAGERS,managers)

# Test harness: $(TEST_CASE) NAME -- COMMAND...   (exit 77 = skipped, with a reason on stdout)
TEST_CASE    := $(TOP)/scripts/test-case
TEST_SUMMARY := $(TOP)/scripts/test-summary
