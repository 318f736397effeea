#!/usr/bin/env bash
# Builds the Debian package from a `make install PREFIX=/usr DESTDIR=ROOT` tree (called by `make deb`):
#   packaging/make-deb.sh ROOT VERSION OUTPUT_FOLDER
# Adds what only the package has (the conffile, maintainer scripts, copyright, changelog), strips the program,
# compresses the manual pages, works out Depends from the libraries the program links (dpkg-shlibdeps) and
# writes OUTPUT_FOLDER/flightvoice_VERSION_ARCH.deb with dpkg-deb. Prints the package's path.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$1 VERSION=$2 OUT=$3
PACKAGING=packaging/debian
ARCHITECTURE=$(dpkg --print-architecture)
# Runtime packages the program needs that no linked library names: Debian's stock acoustic model (the default
# --model), adduser for the maintainer scripts.
EXTRA_DEPENDS="pocketsphinx-en-us, adduser"
# xz at level 6 (dpkg-deb's default); the weights are float16 and barely compress, so a higher level only costs time.
COMPRESSION=${DEB_COMPRESSION:-xz}

doc=$ROOT/usr/share/doc/flightvoice
install -d -m 755 "$ROOT/etc/flightvoice" "$ROOT/DEBIAN" "$doc"
install -m 644 config/flightvoice.conf "$ROOT/etc/flightvoice/flightvoice.conf"
install -m 644 $PACKAGING/copyright "$doc/copyright"
for script in postinst prerm postrm; do install -m 755 $PACKAGING/$script "$ROOT/DEBIAN/$script"; done
install -m 644 $PACKAGING/conffiles "$ROOT/DEBIAN/conffiles"

# The changelog entry is made from the one version (FlightVoiceCommand.version) and the commit it was built from.
date=$(git log -1 --format=%aD 2>/dev/null || date -R)
revision=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
{
    echo "flightvoice ($VERSION) unstable; urgency=medium"
    echo
    echo "  * Built from commit $revision."
    echo
    echo " -- FlightVoice maintainers <flightvoice@example.org>  $date"
} | gzip -9n > "$doc/changelog.Debian.gz"

# Debian installs manual pages compressed, and programs without symbols.
find "$ROOT/usr/share/man" -name '*.[0-9]' -exec gzip -9nf {} +
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$ROOT/usr/bin/flightvoice"

# Depends: the packages of the shared libraries the program links, at the versions it needs.
shlibs_work=$(mktemp -d)
trap 'rm -rf "$shlibs_work"' EXIT
mkdir -p "$shlibs_work/debian"
printf 'Source: flightvoice\n\nPackage: flightvoice\nArchitecture: any\n' > "$shlibs_work/debian/control"
library_depends=$(cd "$shlibs_work" && dpkg-shlibdeps -O -e "$OLDPWD/$ROOT/usr/bin/flightvoice" 2>"$shlibs_work/warnings" | sed -n 's/^shlibs:Depends=//p') || {
    cat "$shlibs_work/warnings" >&2
    exit 1
}
# (It would rather find the program in debian/flightvoice/; the staging folder is elsewhere, which changes nothing.)
grep -v "binaries to analyze should already be installed in their package's directory" "$shlibs_work/warnings" >&2 || true

installed_size=$(du -s -k --apparent-size --exclude=DEBIAN "$ROOT" | cut -f1)
sed -e "s|@VERSION@|$VERSION|" -e "s|@ARCHITECTURE@|$ARCHITECTURE|" -e "s|@INSTALLED_SIZE@|$installed_size|" \
    -e "s|@DEPENDS@|$library_depends, $EXTRA_DEPENDS|" $PACKAGING/control.in > "$ROOT/DEBIAN/control"
(cd "$ROOT" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) > "$ROOT/DEBIAN/md5sums"
chmod 644 "$ROOT/DEBIAN/md5sums"

mkdir -p "$OUT"
package=$OUT/flightvoice_${VERSION}_${ARCHITECTURE}.deb
dpkg-deb --root-owner-group -Z"$COMPRESSION" --build "$ROOT" "$package" >/dev/null
echo "$package"
