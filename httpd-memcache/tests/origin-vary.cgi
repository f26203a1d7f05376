#!/bin/sh
# Test origin of responses that vary, for the integration tests (a CGI: streamed, no
# Content-Length). QUERY_STRING is NAME; the response says Vary: with the contents of
# DOCUMENT_ROOT/vary/NAME (default Accept-Language; the tests change it), is fresh for an
# hour, and its body is
#   "NAME lang=LANGUAGE encoding=ENCODING origin call N"
# where LANGUAGE and ENCODING are the request's Accept-Language and Accept-Encoding and N
# counts this NAME's calls (DOCUMENT_ROOT/vary/NAME.calls): a body served again from the
# cache keeps its N, and the count says how often the cache sent a request to the origin.
case "$QUERY_STRING" in
    ''|*[!a-zA-Z0-9]*)
        printf 'Status: 400 Bad Request\r\nContent-Type: text/plain\r\n\r\nquery must be NAME\n'
        exit 0 ;;
esac
name=$QUERY_STRING
dir=$DOCUMENT_ROOT/vary
vary=$(cat "$dir/$name" 2>/dev/null || echo Accept-Language)
echo call >>"$dir/$name.calls"
calls=$(wc -l <"$dir/$name.calls")
printf 'Content-Type: text/plain\r\nCache-Control: max-age=3600\r\nVary: %s\r\n\r\n' "$vary"
printf '%s lang=%s encoding=%s origin call %s\n' "$name" "${HTTP_ACCEPT_LANGUAGE:-}" "${HTTP_ACCEPT_ENCODING:-}" "$calls"
