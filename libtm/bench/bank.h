/* Bank accounts: transfers move money between two accounts; the total never changes, so a
 * read-only transaction summing every account must always see the same total. */
#ifndef BENCH_BANK_H
#define BENCH_BANK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "bench_sync.h"

struct bank {
    size_t accounts;
    long *balance;
};

struct bank *bank_create(size_t accounts, long initial_balance);
void bank_destroy(struct bank *bank);

TM_SAFE void bank_transfer(struct bank *bank, size_t from, size_t to, long amount);
TM_SAFE long bank_total(const struct bank *bank);

bool bank_verify(const struct bank *bank, long expected_total, FILE *err);

#endif
