#!/usr/bin/env python3
"""No non-reentrant libc call in src/: combatd answers requests on several worker threads, and
these functions keep their state (a position, a buffer, a seed) in one static that every thread
shares, so one request could read another's (a strtok in the /warzone/ pointers gave 80 of 16 M
pointers from another request). Their reentrant forms (strtok_r, strerror_r, localtime_r, ...)
and the core's own RNG are what src/ uses.

Comments, string and character literals are skipped, and so are members (`x.rand(`, `p->rand(`)
and longer names (`strtok_r`, `my_rand`): only a call of the libc name itself is reported.

    check-reentrant.py [DIR ...]   checks the .c and .h files under DIR (default: src/); prints
                                   each call as file:line: name, exits 1 when there is one
    check-reentrant.py --self-test checks that a planted call is found and the reentrant forms,
                                   comments and strings are not
"""
import os
import re
import sys
import tempfile

# The functions POSIX lists as not required to be thread-safe that a service could reach for,
# and the C library's own (rand, strtok, strerror, the time conversions, setlocale).
NON_REENTRANT = (
    "strtok strerror strsignal localtime gmtime ctime asctime getdate "
    "rand srand random srandom initstate setstate "
    "drand48 erand48 lrand48 nrand48 mrand48 jrand48 srand48 seed48 lcong48 "
    "setlocale localeconv readdir "
    "getpwnam getpwuid getpwent getgrnam getgrgid getgrent getlogin "
    "gethostbyname gethostbyaddr gethostent getservbyname getservbyport getprotobyname "
    "getnetbyname inet_ntoa tmpnam tempnam ttyname ptsname ecvt fcvt gcvt "
    "hcreate hsearch hdestroy mblen mbtowc wctomb crypt encrypt l64a nl_langinfo"
).split()

CALL = re.compile(r"(?<![\w.>])(" + "|".join(NON_REENTRANT) + r")\s*\(")
# A comment, a string literal or a character literal (escapes included), replaced by spaces
# with its newlines kept so that line numbers stay true.
LITERAL = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def blank(m):
    return re.sub(r"[^\n]", " ", m.group(0))


def calls(text):
    code = LITERAL.sub(blank, text)
    for m in CALL.finditer(code):
        yield code.count("\n", 0, m.start()) + 1, m.group(1)


def check(dirs):
    found = []
    for top in dirs:
        for root, _, files in os.walk(top):
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    path = os.path.join(root, f)
                    with open(path, encoding="utf-8", errors="replace") as fh:
                        for line, name in calls(fh.read()):
                            found.append(f"{path}:{line}: {name}() is not reentrant")
    return found


PLANTED = """/* strtok( in a comment, rand() too */
#include <string.h>
static const char *s = "at random (W11) and strerror(errno)";
char c = '(';
int f(char *p, char *save, struct r *x) {
    char buf[64];
    strtok_r(p, "/", &save);
    (void)strerror_r(1, buf, sizeof buf);
    x->rand(1); x.random(2); my_rand(3); localtime_r(0, 0);
    return strtok (p, "/") != 0;
}
unsigned g(void) { return rand(); }
"""


def self_test():
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "planted.c"), "w") as fh:
            fh.write(PLANTED)
        found = check([d])
        lines = [f.split(":", 2)[1] + ":" + f.split(": ")[1].split("(")[0] for f in found]
        want = ["10:strtok", "12:rand"]
        if lines != want:
            print(f"self-test FAILED: found {lines}, want {want}")
            return 1
        with open(os.path.join(d, "planted.c"), "w") as fh:
            fh.write("int f(void) { return 0; }\n")
        if check([d]):
            print("self-test FAILED: a clean file was reported")
            return 1
    print("self-test passed: the planted strtok and rand found, nothing else")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    dirs = argv[1:] or [os.path.relpath(os.path.join(os.path.dirname(__file__), "..", "src"))]
    found = check(dirs)
    for f in found:
        print(f)
    if found:
        print(f"{len(found)} non-reentrant libc call(s): use the _r form (docs/architecture.md)")
        return 1
    print("no non-reentrant libc call in " + " ".join(dirs))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
