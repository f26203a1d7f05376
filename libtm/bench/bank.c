/* Bank accounts: plain longs side by side, as in the classic benchmark (neighbouring accounts
 * share cache lines and, in word-based STMs, ownership records). */
#include "bank.h"

#include <stdlib.h>

struct bank *bank_create(size_t accounts, long initial_balance)
{
    struct bank *bank = malloc(sizeof *bank);
    long *balance = malloc(accounts * sizeof *balance);
    if (!bank || !balance) {
        free(bank);
        free(balance);
        return NULL;
    }
    for (size_t i = 0; i < accounts; i++)
        balance[i] = initial_balance;
    bank->accounts = accounts;
    bank->balance = balance;
    return bank;
}

void bank_destroy(struct bank *bank)
{
    if (!bank)
        return;
    free(bank->balance);
    free(bank);
}

TM_SAFE void bank_transfer(struct bank *bank, size_t from, size_t to, long amount)
{
    bank->balance[from] -= amount;
    bank->balance[to] += amount;
}

TM_SAFE long bank_total(const struct bank *bank)
{
    long total = 0;
    for (size_t i = 0; i < bank->accounts; i++)
        total += bank->balance[i];
    return total;
}

bool bank_verify(const struct bank *bank, long expected_total, FILE *err)
{
    long total = bank_total(bank);
    if (total != expected_total) {
        fprintf(err, "bank: the accounts sum to %ld, expected %ld\n", total, expected_total);
        return false;
    }
    return true;
}
