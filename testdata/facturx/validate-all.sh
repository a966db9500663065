#!/usr/bin/env bash
# Validate many Factur-X documents at once, as validate.sh does one by one:
# the Factur-X EN 16931 XSD (xmllint), the EN 16931 schematron and the French
# CTC schematron (Saxon-HE), each rule set run once over a whole directory so
# that Java starts twice, not twice per document, both at once.
# Usage: validate-all.sh DIR    (every *.xml and *.pdf in DIR; a PDF's
#        embedded factur-x.xml is extracted with pdfdetach)
# Prints every failed rule (warnings included) with its file; exits 1 when any
# document fails or none was found, 2 when a tool is missing.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
saxon=${SAXON_JAR:-/usr/share/java/Saxon-HE.jar}
for tool in xmllint java pdfdetach python3; do
	command -v "$tool" >/dev/null || { echo "validate-all.sh: $tool missing (apt-get install libxml2-utils default-jre-headless libsaxonhe-java poppler-utils)"; exit 2; }
done
[ -f "$saxon" ] || { echo "validate-all.sh: $saxon missing (apt-get install libsaxonhe-java)"; exit 2; }
[ $# -eq 1 ] && [ -d "$1" ] || { echo "usage: validate-all.sh DIR"; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/xml" "$work/svrl"
status=0
n=0
shopt -s nullglob
for f in "$1"/*.xml "$1"/*.pdf; do
	n=$((n + 1))
	name=$(basename "$f")
	case $f in
	*.pdf)
		if ! pdfdetach -savefile factur-x.xml -o "$work/xml/$name.xml" "$f" 2>/dev/null; then
			echo "$name: FAIL no embedded factur-x.xml"; status=1
		fi ;;
	*) cp "$f" "$work/xml/$name" ;;
	esac
done
[ "$n" -gt 0 ] || { echo "validate-all.sh: no document in $1"; exit 1; }
files=("$work"/xml/*)
[ ${#files[@]} -gt 0 ] || exit 1

if ! out=$(xmllint --noout --nonet --schema "$here/en16931/Factur-X_EN16931.xsd" "${files[@]}" 2>&1); then
	echo "FAIL schema:"; echo "$out" | grep -v ' validates$' | head -40 | sed "s|$work/xml/||; s/^/  /"; status=1
fi
# The two rule sets run at once, each in a JVM with the client compiler
# only and the serial collector: a run of Saxon lasts seconds, too short
# for the optimising compiler to pay back its work, which doubled the
# CPU (and, on a busy machine, the wall time) of every validation
# (issue 35).
rulesets=("en16931/Factur-X_1.09_EN16931.xsl" "fr-ctc/BR-FR-Flux2-Schematron-CII.xslt")
pids=()
for rules in "${rulesets[@]}"; do
	name=$(basename "$rules")
	mkdir -p "$work/svrl/$name"
	(cd "$here/$(dirname "$rules")" && java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -jar "$saxon" \
		-s:"$work/xml" -xsl:"$name" -o:"$work/svrl/$name" 2>"$work/$name.err") &
	pids+=($!)
done
for i in "${!rulesets[@]}"; do
	if ! wait "${pids[$i]}"; then
		rules=${rulesets[$i]}
		echo "FAIL $rules did not run"; head -5 "$work/$(basename "$rules").err" | sed 's/^/  /'; status=1
	fi
done
python3 - "$work/svrl" <<'PY' || status=1
import os, sys, xml.etree.ElementTree as ET
ns = "{http://purl.oclc.org/dsdl/svrl}"
failed = 0
root = sys.argv[1]
for rules in sorted(os.listdir(root)):
    for name in sorted(os.listdir(os.path.join(root, rules))):
        tree = ET.parse(os.path.join(root, rules, name)).getroot()
        for fa in tree.iter(ns + "failed-assert"):
            t = fa.find(ns + "text")
            text = " ".join("".join(t.itertext()).split()) if t is not None else ""
            print(f"{name}: FAIL {rules}: {fa.get('id') or '?'} [{fa.get('flag', 'fatal')}] {text[:300]}")
            failed += 1
sys.exit(1 if failed else 0)
PY
[ $status = 0 ] && echo "validate-all.sh: $n documents pass the XSD, EN 16931 and French CTC rules"
exit $status
