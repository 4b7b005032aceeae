#!/usr/bin/env bash
# Vendors Redoc's standalone bundle, which GET /docs serves beside web/docs.html: fetches the
# pinned release from npm (npm pack), checks it against the registry's integrity recorded here,
# and copies the bundle and its licences into web/vendor/. The build embeds those files, so
# building needs no network and no node.
#   scripts/vendor-redoc.sh           refresh web/vendor/ from the pinned release
#   scripts/vendor-redoc.sh --check   fail when web/vendor/ is not that release's files
# To move to another release: set VERSION and INTEGRITY (npm view redoc@X dist.integrity), run
# it, and say so in CHANGELOG.md.
set -euo pipefail
VERSION=2.5.4
INTEGRITY=sha512-M6jWhG1qoBnH6TFmzJnstyCZ87HmOY/UzDm78mHiYihEdlV/YcS9ogOo1NlElnJMeLsyxHFe2yFc4sNjHTrABQ==
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/web/vendor
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack "redoc@$VERSION" --silent >/dev/null)
tarball=$work/redoc-$VERSION.tgz
got="sha512-$(openssl dgst -sha512 -binary "$tarball" | base64 -w0)"
if [ "$got" != "$INTEGRITY" ]; then
    echo "vendor-redoc: redoc-$VERSION.tgz is $got, not the pinned $INTEGRITY" >&2
    exit 1
fi
tar xzf "$tarball" -C "$work"
# The package's file and its name in web/vendor/.
files=(bundles/redoc.standalone.js:redoc.standalone.js
    bundles/redoc.standalone.js.LICENSE.txt:redoc.standalone.js.LICENSE.txt LICENSE:redoc.LICENSE)
if [ "${1:-}" = --check ]; then
    for pair in "${files[@]}"; do
        cmp -s "$work/package/${pair%%:*}" "$out/${pair#*:}" ||
            { echo "vendor-redoc: web/vendor/${pair#*:} is not redoc $VERSION's ${pair%%:*}" >&2; exit 1; }
    done
    echo "vendor-redoc: web/vendor/ holds redoc $VERSION"
    exit 0
fi
mkdir -p "$out"
rm -f "$out"/redoc*
for pair in "${files[@]}"; do cp "$work/package/${pair%%:*}" "$out/${pair#*:}"; done
echo "vendor-redoc: web/vendor/ now holds redoc $VERSION"
