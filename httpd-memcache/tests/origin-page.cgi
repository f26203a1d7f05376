#!/bin/sh
# Test origin for the integration tests (runs as a CGI, so its output is streamed with no
# Content-Length). QUERY_STRING is NAME.SIZE.MAXAGE[.SLEEP]; the body is
#   "begin NAME GEN\n" + SIZE times 'x' + "\nend NAME GEN\n"
# where GEN is read from DOCUMENT_ROOT/gen, so the tests can change the origin; while
# DOCUMENT_ROOT/nostore exists the answer is marked Cache-Control: no-store. POST
# answers "posted" (mod_cache then invalidates the URL).
if [ "$REQUEST_METHOD" = POST ]; then
    cat >/dev/null
    printf 'Content-Type: text/plain\r\n\r\nposted\n'
    exit 0
fi
set -- $(echo "$QUERY_STRING" | tr '.' ' ')
name=$1 size=$2 maxage=$3 pause=${4:-0}
case "$name$size$maxage$pause" in
    ''|*[!a-zA-Z0-9]*)
        printf 'Status: 400 Bad Request\r\nContent-Type: text/plain\r\n\r\nquery must be NAME.SIZE.MAXAGE\n'
        exit 0 ;;
esac
gen=$(cat "$DOCUMENT_ROOT/gen" 2>/dev/null || echo 0)
cache_control="max-age=$maxage"
[ -e "$DOCUMENT_ROOT/nostore" ] && cache_control=no-store  # the tests' switch to uncacheable
printf 'Content-Type: text/plain\r\nCache-Control: %s\r\n\r\n' "$cache_control"
[ "$pause" -gt 0 ] && sleep "$pause"  # slow origin: lets concurrent misses overlap
printf 'begin %s %s\n' "$name" "$gen"
head -c "$size" /dev/zero | tr '\0' x
printf '\nend %s %s\n' "$name" "$gen"
