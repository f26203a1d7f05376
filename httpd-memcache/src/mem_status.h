/* The module's section of mod_status's page; see mem_status.c. */
#ifndef MEMCACHE_MEM_STATUS_H
#define MEMCACHE_MEM_STATUS_H

/* Called from register_hooks; harmless when mod_status is not loaded. */
void mem_status_register(void);

#endif
